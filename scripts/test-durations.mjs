// Writes test/setup/durations.json: the seconds each end-to-end file took in the last run vitest
// recorded here (node_modules/.vite/vitest). Run it after a whole `npm test` on a 2-core machine;
// the suite's sequencer (test/setup/longest-first.ts) starts the longest files first from it
// where vitest has no record of its own, as on a fresh clone in CI.
import { existsSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const cache = join('node_modules', '.vite', 'vitest');
const seconds = {};
for (const dir of readdirSync(cache)) {
  const { results } = JSON.parse(readFileSync(join(cache, dir, 'results.json'), 'utf8'));
  for (const [key, { duration }] of results) {
    const [project, path] = key.split(/:(.*)/s);
    // A file since removed or renamed may still be in the record.
    if (project === 'e2e' && existsSync(path)) seconds[path] = Math.round(duration / 100) / 10;
  }
}
const sorted = Object.fromEntries(Object.entries(seconds).sort(([a], [b]) => (a < b ? -1 : 1)));
writeFileSync(join('test', 'setup', 'durations.json'), `${JSON.stringify(sorted, null, 2)}\n`);
console.log(`test/setup/durations.json: ${Object.keys(sorted).length} end-to-end files`);
