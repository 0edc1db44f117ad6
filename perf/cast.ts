/**
 * perf/cast: how long `tenet export --format cast` takes, and how large the cast is, for the demo
 * session and a 10,000-event one, against `tenet export --format json` of the same session (what
 * loading and writing it costs without drawing a frame).
 *
 *   npm run perf:cast [-- --events N]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { longSession } from './long-session';

const argv = process.argv.slice(2);
const eventCount = argv.includes('--events') ? Number(argv[argv.indexOf('--events') + 1]) : 10_000;
const root = join(import.meta.dirname, '..');
const cli = join(root, 'dist', 'tenet.js');
const scratch = mkdtempSync(join(tmpdir(), 'tenet-perf-cast-'));

/** Wall time of one export, and the size of what it wrote. */
function exportOnce(ref: string, format: 'json' | 'cast', out: string): { ms: number; bytes: number } {
  const started = performance.now();
  const run = spawnSync(process.execPath, [cli, 'export', ref, '--format', format, '--out', out], {
    env: { ...process.env, TENET_SESSIONS_DIR: scratch },
    encoding: 'utf8',
  });
  const ms = performance.now() - started;
  if (run.status !== 0) throw new Error(`export ${ref} --format ${format} failed: ${run.stderr}`);
  return { ms, bytes: statSync(out).size };
}

try {
  const long = join(scratch, 'long.jsonl');
  const events = longSession(root, eventCount);
  writeFileSync(long, `${events.map((e) => JSON.stringify({ ...e, v: 1 })).join('\n')}\n`);
  for (const [name, ref, count] of [
    ['demo', 'demo', 113],
    ['long', long, events.length],
  ] as const) {
    const json = exportOnce(ref, 'json', join(scratch, `${name}.json`));
    const cast = exportOnce(ref, 'cast', join(scratch, `${name}.cast`));
    const frames = spawnSync('wc', ['-l', join(scratch, `${name}.cast`)], { encoding: 'utf8' })
      .stdout.trim()
      .split(' ')[0];
    console.log(
      `${name.padEnd(5)} ${String(count).padStart(6)} events: cast ${cast.ms.toFixed(0)} ms, ${(cast.bytes / 1e6).toFixed(2)} MB, ${Number(frames) - 2} frames; ` +
        `json ${json.ms.toFixed(0)} ms, ${(json.bytes / 1e6).toFixed(2)} MB (cast/json time ${(cast.ms / json.ms).toFixed(1)}×)`,
    );
  }
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
