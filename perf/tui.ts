/**
 * perf/tui: how soon the built CLI paints its first frame in a real pseudo-terminal, and how
 * long a 10,000-event session takes to replay at full speed through the live screens.
 *
 *   npm run perf:tui [-- --runs N --events N]
 *
 * Baselines, measured in the same run: `tenet --version` in the same pty (what starting Node and
 * the bundle costs before any screen), and folding the same 10,000 events into view states
 * without drawing anything (what the replay costs before Ink renders it).
 */
import { spawn } from '@lydell/node-pty';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ReplayCursor } from '../source/ui/replay';
import { reduceAll } from '../source/ui/view-state';

const argv = process.argv.slice(2);
const flag = (name: string, fallback: number) => (argv.includes(name) ? Number(argv[argv.indexOf(name) + 1]) : fallback);
const runs = flag('--runs', 5);
const eventCount = flag('--events', 10_000);
const root = join(import.meta.dirname, '..');
const cli = join(root, 'dist', 'tenet.js');
// eslint-disable-next-line no-control-regex
const plain = (text: string) => text.replace(/\x1b\[[0-9;?]*[A-Za-z]/g, '').replace(/\x1b\][^\x07]*\x07/g, '');
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** Milliseconds from spawning the CLI in a 100×30 pty until the screen shows `until`. */
function timeUntil(args: string[], until: string, timeoutMs = 120_000): Promise<number> {
  return new Promise((resolve, reject) => {
    const started = performance.now();
    const pty = spawn(process.execPath, [cli, ...args], { name: 'xterm-256color', cols: 100, rows: 30, cwd: root, env: { ...process.env, TENET_SESSIONS_DIR: scratch } as Record<string, string> });
    let output = '';
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
      pty.write('q');
      setTimeout(() => pty.kill(), 500);
    });
  });
}

/** The demo session's agent part repeated until it holds `count` events, timestamps 10 ms apart. */
function longSession(count: number) {
  const demo = readFileSync(join(root, 'sessions', 'demo', 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { type: string; ts?: string; phase?: string });
  const agentStart = demo.findIndex((e) => e.type === 'agent.phase');
  const evaluate = demo.findIndex((e) => e.type === 'agent.phase' && e.phase === 'evaluate');
  const head = demo.slice(0, agentStart);
  const loop = demo.slice(agentStart, evaluate);
  const tail = demo.slice(evaluate);
  const events = [...head];
  while (events.length + tail.length < count) events.push(...loop.slice(0, count - tail.length - events.length));
  events.push(...tail);
  const t0 = Date.parse(demo[0]!.ts!);
  return events.map((event, i) => ({ ...event, ts: new Date(t0 + i * 10).toISOString() }));
}

const scratch = mkdtempSync(join(tmpdir(), 'tenet-perf-tui-'));
try {
  const events = longSession(eventCount);
  const file = join(scratch, 'long.jsonl');
  writeFileSync(file, `${events.map((e) => JSON.stringify(e)).join('\n')}\n`);

  const version = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')).version as string;
  const baseline: number[] = [];
  const start: number[] = [];
  const replayFirst: number[] = [];
  for (let i = 0; i < runs; i++) {
    baseline.push(await timeUntil(['--version'], version));
    start.push(await timeUntil(['--repo', join(root, 'examples', 'invoicing')], 'mode:'));
    replayFirst.push(await timeUntil(['replay', 'demo', '--speed', '0.5'], 'replay demo · event 0/'));
  }
  const replayAll: number[] = [];
  for (let i = 0; i < Math.max(1, Math.floor(runs / 2)); i++) replayAll.push(await timeUntil(['replay', file, '--speed', 'max'], `event ${events.length}/${events.length}`));

  const foldStart = performance.now();
  reduceAll(events as never);
  const foldMs = performance.now() - foldStart;
  const cursor = new ReplayCursor(events as never);
  cursor.viewAt(events.length);
  const backStart = performance.now();
  for (let i = 0; i < 100; i++) cursor.viewAt(Math.floor(((i * 7919) % 100) / 100 * events.length));
  const seekMs = (performance.now() - backStart) / 100;

  const ms = (v: number) => `${v.toFixed(0)} ms`;
  console.log(`first frame in a 100×30 pty, median of ${runs} runs (process start to text on screen):`);
  console.log(`  tenet --version (baseline)   ${ms(median(baseline))}`);
  console.log(`  start screen                 ${ms(median(start))}  (${(median(start) / median(baseline)).toFixed(2)}× the baseline)`);
  console.log(`  replay of the demo session   ${ms(median(replayFirst))}  (${(median(replayFirst) / median(baseline)).toFixed(2)}×)`);
  console.log(`replay of ${events.length.toLocaleString('en')} events at --speed max, process start to the last event on screen:`);
  console.log(`  ${ms(median(replayAll))}  (folding the same events without drawing: ${ms(foldMs)}; seeking to a random event: ${seekMs.toFixed(1)} ms)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
