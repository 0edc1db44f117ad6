/**
 * perf/tui: how soon each command paints its first frame in a real pseudo-terminal, and how
 * long a 10,000-event session takes to replay at full speed through the live screens.
 *
 *   npm run perf:tui [-- --runs N --events N --root DIR]
 *
 * `--root DIR` measures another checkout's build (say, the commit before a change, in the same run's
 * conditions), with this script.
 *
 * First frames, from spawning the process to the screen's first words: the start screen (bare
 * `tenet`), `tenet run` with the scripted demo model, `tenet replay`, `tenet sessions`, and
 * `npm start` with dist current (so no rebuild). Each is said as a ratio to the baseline measured
 * in the same run: `node -e ''` in the same pty, to its exit (what starting Node costs before
 * anything of tenet). `tenet --version` shows what loading the bundle adds to that. Folding the
 * same 10,000 events into view states without drawing anything is the replay's baseline.
 */
import { spawn } from '@lydell/node-pty';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReplayCursor } from '../source/ui/replay';
import { longSession } from './long-session';
import { reduceAll } from '../source/ui/view-state';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) =>
  argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback;
const runs = flag('--runs', 5);
const eventCount = flag('--events', 10_000);
const root = argv.includes('--root') ? argv[argv.indexOf('--root') + 1]! : join(import.meta.dirname, '..');
const cli = join(root, 'dist', 'tenet.js');
// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\x1b\][^\x07]*\x07/g, '');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Milliseconds from spawning the CLI in a 100×30 pty until the screen shows `until` (or, with no `until`, until the process ends). */
function timeUntil(
  args: string[],
  until: string | undefined,
  timeoutMs = 120_000,
  command = [process.execPath, cli],
): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const pty = spawn(command[0]!, [...command.slice(1), ...args], {
      name: 'xterm-256color',
      cols: 100,
      rows: 30,
      cwd: root,
      env: { ...process.env, TENET_SESSIONS_DIR: scratch } as Record<string, string>,
    });
    let output = '';
    if (until === undefined) {
      pty.onExit(() => resolve(performance.now() - started));
      return;
    }
    const timer = setTimeout(() => {
      pty.kill();
      reject(new Error(`no "${until}" after ${timeoutMs} ms; the screen ends with:\n${plain(output).slice(-2000)}`));
    }, timeoutMs);
    pty.onData((data) => {
      output += data;
      if (!plain(output).includes(until)) return;
      const ms = performance.now() - started;
      clearTimeout(timer);
      pty.onExit(() => resolve(ms));
      // A live run does not quit on q: it is ended by its hangup (the session stays, interrupted).
      pty.write('q');
      setTimeout(() => pty.kill(), 300);
    });
  });
}

const scratch = mkdtempSync(join(tmpdir(), 'tenet-perf-tui-'));
try {
  const events = longSession(root, eventCount);
  const file = join(scratch, 'long.jsonl');
  writeFileSync(file, `${events.map((e) => JSON.stringify(e)).join('\n')}\n`);

  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
  const example = join(root, 'examples', 'invoicing');
  const firstFrames: [string, () => Promise<number>][] = [
    ["node -e '' (baseline)", () => timeUntil(['-e', ''], undefined, 30_000, [process.execPath])],
    ['tenet --version', () => timeUntil(['--version'], version)],
    ['start screen (tenet)', () => timeUntil(['--repo', example], 'mode:')],
    [
      'tenet run (scripted)',
      () =>
        timeUntil(
          [
            'run',
            '--repo',
            example,
            '--target',
            'invoicing/tax.py::tax_for',
            '--script',
            join(root, 'examples', 'invoicing.demo.json'),
          ],
          'Test Harness Mechanism',
        ),
    ],
    ['tenet replay demo', () => timeUntil(['replay', 'demo', '--speed', '0.5'], 'replay demo · event 0/')],
    ['tenet sessions', () => timeUntil(['sessions'], 'Sessions (')],
    // npm start checks that dist is current (nothing to rebuild), then starts the demo.
    ['npm start', () => timeUntil(['start', '--silent'], 'Test Harness Mechanism', 120_000, ['npm'])],
  ];
  const times = new Map<string, number[]>(firstFrames.map(([name]) => [name, []]));
  await timeUntil(['--version'], version); // the bundle into the disk cache, as for any later start
  for (let i = 0; i < runs; i++) for (const [name, time] of firstFrames) times.get(name)!.push(await time());
  const replayAll: number[] = [];
  for (let i = 0; i < Math.max(1, Math.floor(runs / 2)); i++)
    replayAll.push(await timeUntil(['replay', file, '--speed', 'max'], `event ${events.length}/${events.length}`));

  const foldStart = performance.now();
  reduceAll(events as never);
  const foldMs = performance.now() - foldStart;
  const cursor = new ReplayCursor(events as never);
  cursor.viewAt(events.length);
  const backStart = performance.now();
  for (let i = 0; i < 100; i++) cursor.viewAt(Math.floor((((i * 7919) % 100) / 100) * events.length));
  const seekMs = (performance.now() - backStart) / 100;

  const ms = (v: number) => `${v.toFixed(0)} ms`;
  const baseline = median(times.get(firstFrames[0]![0])!);
  console.log(`first frame in a 100×30 pty, median of ${runs} runs (process start to text on screen):`);
  for (const [name] of firstFrames) {
    const value = median(times.get(name)!);
    console.log(`  ${name.padEnd(24)} ${ms(value).padStart(8)}  (${(value / baseline).toFixed(2)}× the baseline)`);
  }
  console.log(
    `replay of ${events.length.toLocaleString('en')} events at --speed max, process start to the last event on screen:`,
  );
  console.log(
    `  ${ms(median(replayAll))}  (folding the same events without drawing: ${ms(foldMs)}; seeking to a random event: ${seekMs.toFixed(1)} ms)`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
