import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fixtures';

/**
 * The e2e project runs its files one after another in shared worker processes
 * (vitest.config.ts); test/setup/fresh-modules.ts keeps them apart. Here two files that each
 * import a helper with module-level state, and change the environment, run in one worker: with the
 * setup file each sees a fresh helper and the environment as it was; without it the second one
 * sees what the first left (so the check can tell).
 *
 * The files live in the checkout's .test-tmp/ (ignored by git, so by Biome; not tsc's): there
 * `vitest` resolves, and vitest loads them itself, as it does test/helpers (a module under
 * node_modules would be Node's to load, once per process).
 */
mkdirSync(join(ROOT, '.test-tmp'), { recursive: true });
const scratch = mkdtempSync(join(ROOT, '.test-tmp', 'fresh-modules-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const seen = join(scratch, 'seen.jsonl');
writeFileSync(
  join(scratch, 'helper.mjs'),
  [
    "import { mkdtempSync, rmSync } from 'node:fs';",
    "import { tmpdir } from 'node:os';",
    "import { join } from 'node:path';",
    "import { afterAll } from 'vitest';",
    "export const folder = mkdtempSync(join(tmpdir(), 'tenet-fresh-helper-'));",
    'afterAll(() => rmSync(folder, { recursive: true, force: true }));',
  ].join('\n'),
);
const file = (name: string) =>
  [
    "import { appendFileSync, existsSync } from 'node:fs';",
    "import { expect, it } from 'vitest';",
    "import { folder } from '../helper.mjs';",
    `it('${name}', () => {`,
    `  appendFileSync(${JSON.stringify(seen)}, JSON.stringify({ pid: process.pid, folder, exists: existsSync(folder), leaked: process.env.TENET_FRESH_LEAKED ?? null, kept: process.env.TENET_FRESH_KEPT ?? null }) + '\\n');`,
    `  process.env.TENET_FRESH_LEAKED = '${name}';`,
    '  delete process.env.TENET_FRESH_KEPT;',
    '  expect(existsSync(folder)).toBe(true);',
    '});',
  ].join('\n');
mkdirSync(join(scratch, 'files'));
writeFileSync(join(scratch, 'files', 'a.test.mjs'), file('a'));
writeFileSync(join(scratch, 'files', 'b.test.mjs'), file('b'));

interface Seen {
  pid: number;
  folder: string;
  exists: boolean;
  leaked: string | null;
  kept: string | null;
}

function runBoth(setupFiles: string[]): { code: number | null; output: string; seen: Seen[] } {
  rmSync(seen, { force: true });
  const config = join(scratch, `vitest.config.${setupFiles.length}.mjs`);
  writeFileSync(
    config,
    `export default { test: ${JSON.stringify({ include: ['files/*.test.mjs'], isolate: false, maxWorkers: 1, setupFiles })} };`,
  );
  const { TENET_FRESH_LEAKED: _leaked, ...env } = process.env;
  const result = spawnSync(
    process.execPath,
    [join(ROOT, 'node_modules', 'vitest', 'vitest.mjs'), 'run', '--root', scratch, '--config', config],
    { cwd: scratch, env: { ...env, TENET_FRESH_KEPT: 'yes' }, encoding: 'utf8' },
  );
  if (!existsSync(seen)) throw new Error(`the nested run ran neither file:\n${result.stdout}${result.stderr}`);
  const lines = readFileSync(seen, 'utf8').trim().split('\n');
  return { code: result.status, output: result.stdout + result.stderr, seen: lines.map((line) => JSON.parse(line)) };
}

describe('e2e files in one worker', () => {
  it('each file gets its own helpers and the environment as the first file found it', () => {
    const { code, output, seen } = runBoth([join(ROOT, 'test', 'setup', 'fresh-modules.ts')]);
    expect(code, output).toBe(0);
    expect(seen).toHaveLength(2);
    const [first, second] = seen as [Seen, Seen];
    // One process ran both: what keeps them apart is the setup file, not a process each.
    expect(second.pid).toBe(first.pid);
    expect(second.folder).not.toBe(first.folder);
    expect(second).toMatchObject({ exists: true, leaked: null, kept: 'yes' });
  }, 60_000);

  it('without the setup file the second file gets the first one’s helper, its folder removed, and its environment', () => {
    const { code, seen } = runBoth([]);
    expect(code).toBe(1);
    const [first, second] = seen as [Seen, Seen];
    expect(second.pid).toBe(first.pid);
    expect(second.folder).toBe(first.folder);
    expect(second.exists).toBe(false);
    expect(second.leaked).not.toBeNull();
    expect(second.kept).toBeNull();
  }, 60_000);
});
