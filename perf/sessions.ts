/**
 * perf/sessions: append 10,000 realistic events (streamed deltas, requests with their new
 * messages, responses, tool calls with outputs up to the 16,000-character cap, test runs) to a
 * session log and load it back. With `--memory MB`, also a log of that size made of the same
 * events, and the peak memory of `tenet show` on it (the built bundle: npm run build first)
 * against a baseline child that reads the log whole, as tenet did before it read logs as a stream.
 *
 *   npx tsx perf/sessions.ts [--events N] [--memory 237]
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineEvent } from '../source/engine/events';
import { EventLog, loadEvents } from '../source/engine/session/event-log';
import { foldEvents } from '../source/engine/session/fold';
import { secretRedactor } from '../source/engine/util/redact';

const argv = process.argv.slice(2);
const count = Number(argv.includes('--events') ? argv[argv.indexOf('--events') + 1] : 10_000);
const code = (lines: number) =>
  Array.from(
    { length: lines },
    (_, i) => `${String(i + 1).padStart(4)}     value = compute(x, y) + helper(z)  # line ${i}`,
  ).join('\n');
const cycle: EngineEvent[] = [
  {
    type: 'model.request',
    round: 1,
    messages: 12,
    tools: ['search_class', 'search_method', 'run_tests'],
    newMessages: [{ role: 'tool', toolCallId: 'c1', name: 'search_method', content: code(40) }],
  },
  ...Array.from({ length: 8 }, (): EngineEvent => ({ type: 'model.delta', text: 'Let me look at the callers ' })),
  {
    type: 'model.response',
    content: 'Let me look at the callers of the target and the similar code.',
    toolCalls: [{ id: 'c1', name: 'search_method', arguments: '{"method_name":"total"}' }],
    usage: { inputTokens: 4200, outputTokens: 120 },
    costUsd: 0.0012,
    durationMs: 1800,
    model: 'gpt-4.1-mini',
    stopReason: 'tool_calls',
  },
  { type: 'tool.call', id: 'c1', name: 'search_method', arguments: '{"method_name":"total"}' },
  { type: 'tool.result', id: 'c1', name: 'search_method', ok: true, text: code(300).slice(0, 16_000), durationMs: 3 },
  {
    type: 'tests.run',
    purpose: 'validate',
    report: code(60),
    outcomes: { 'tests/test_a.py::test_1': 'passed', 'tests/test_a.py::test_2': 'failed' },
    passed: 1,
    total: 2,
  },
];
const events = Array.from({ length: count }, (_, i) => cycle[i % cycle.length]!);

/** A child's peak resident memory (MB), from its own resource usage at exit (reported by a preloaded file). */
function peakMb(args: string[], scratch: string): number {
  const preload = join(scratch, 'peak.cjs');
  writeFileSync(
    preload,
    `process.on('exit', () => process.stderr.write('PEAK ' + process.resourceUsage().maxRSS + '\\n'));\n`,
  );
  const child = spawnSync(process.execPath, ['--require', preload, ...args], {
    stdio: ['ignore', 'ignore', 'pipe'],
    maxBuffer: 1 << 26,
  });
  const peak = /PEAK (\d+)/.exec(child.stderr.toString());
  if (!peak) throw new Error(`node ${args.join(' ')} failed: ${child.stderr.toString().slice(-400)}`);
  return Number(peak[1]) / 1024;
}

function measureMemory(megabytes: number, scratch: string): void {
  const file = join(scratch, 'big', 'events.jsonl');
  const log = EventLog.open(file, secretRedactor({}));
  let n = 0;
  while (log.bytes < megabytes * 1024 * 1024) log.append(cycle[n++ % cycle.length]!);
  log.close();
  const cli = join(import.meta.dirname, '..', 'dist', 'tenet.js');
  // The loading tenet did before: the whole log as one string, split into lines, each parsed.
  const whole = `const t = require('fs').readFileSync(${JSON.stringify(file)}, 'utf8'); const e = t.split('\\n').filter(Boolean).map((l) => JSON.parse(l)); console.log(e.length);`;
  const baseline = peakMb(['-e', whole], scratch);
  const show = peakMb([cli, 'show', file], scratch);
  const replay = peakMb([cli, 'replay', file, '--json'], scratch);
  console.log(
    `memory   a ${(statSync(file).size / 1e6).toFixed(0)} MB log of ${n} events, peak resident memory: reading it whole (as tenet did) ${baseline.toFixed(0)} MB; \`tenet show\` ${show.toFixed(0)} MB (${(baseline / show).toFixed(1)}x less), \`tenet replay --json\` ${replay.toFixed(0)} MB (${(baseline / replay).toFixed(1)}x less)`,
  );
}
const scratch = mkdtempSync(join(tmpdir(), 'tenet-perf-sessions-'));
try {
  const file = join(scratch, 'events.jsonl');
  const log = EventLog.open(file, secretRedactor(process.env));
  const appendStart = performance.now();
  for (const event of events) log.append(event);
  const appendMs = performance.now() - appendStart;
  log.close();
  const size = statSync(file).size;
  const loadStart = performance.now();
  const loaded = loadEvents(file);
  const parseMs = performance.now() - loadStart;
  const state = foldEvents(loaded.events);
  const loadMs = performance.now() - loadStart;
  console.log(`${count} events, ${(size / 1e6).toFixed(1)} MB on disk`);
  console.log(
    `append   ${((appendMs * 1000) / count).toFixed(1)} µs per event (${appendMs.toFixed(0)} ms in all, redaction and capping included)`,
  );
  console.log(
    `load     ${loadMs.toFixed(0)} ms (parse ${parseMs.toFixed(0)} ms, fold into the session state ${(loadMs - parseMs).toFixed(0)} ms; ${state.messages.length} messages rebuilt)`,
  );
  if (argv.includes('--memory')) measureMemory(Number(argv[argv.indexOf('--memory') + 1] ?? 237), scratch);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
