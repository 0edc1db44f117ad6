/**
 * perf/sessions: append 10,000 realistic events (streamed deltas, requests with their new
 * messages, responses, tool calls with outputs up to the 16,000-character cap, test runs) to a
 * session log and load it back.
 *
 *   npx tsx perf/sessions.ts [--events N]
 */
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineEvent } from '../source/engine/events';
import { EventLog, loadEvents } from '../source/engine/session/event-log';
import { foldEvents } from '../source/engine/session/fold';
import { secretRedactor } from '../source/engine/session/redact';

const argv = process.argv.slice(2);
const count = Number(argv.includes('--events') ? argv[argv.indexOf('--events') + 1] : 10_000);
const code = (lines: number) => Array.from({ length: lines }, (_, i) => `${String(i + 1).padStart(4)}     value = compute(x, y) + helper(z)  # line ${i}`).join('\n');
const cycle: EngineEvent[] = [
  { type: 'model.request', round: 1, messages: 12, tools: ['search_class', 'search_method', 'run_tests'], newMessages: [{ role: 'tool', toolCallId: 'c1', name: 'search_method', content: code(40) }] },
  ...Array.from({ length: 8 }, (): EngineEvent => ({ type: 'model.delta', text: 'Let me look at the callers ' })),
  { type: 'model.response', content: 'Let me look at the callers of the target and the similar code.', toolCalls: [{ id: 'c1', name: 'search_method', arguments: '{"method_name":"total"}' }], usage: { inputTokens: 4200, outputTokens: 120 }, costUsd: 0.0012, durationMs: 1800, model: 'gpt-4.1-mini', stopReason: 'tool_calls' },
  { type: 'tool.call', id: 'c1', name: 'search_method', arguments: '{"method_name":"total"}' },
  { type: 'tool.result', id: 'c1', name: 'search_method', ok: true, text: code(300).slice(0, 16_000), durationMs: 3 },
  { type: 'tests.run', purpose: 'validate', report: code(60), outcomes: { 'tests/test_a.py::test_1': 'passed', 'tests/test_a.py::test_2': 'failed' }, passed: 1, total: 2 },
];
const events = Array.from({ length: count }, (_, i) => cycle[i % cycle.length]!);
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
  console.log(`append   ${((appendMs * 1000) / count).toFixed(1)} µs per event (${appendMs.toFixed(0)} ms in all, redaction and capping included)`);
  console.log(`load     ${loadMs.toFixed(0)} ms (parse ${parseMs.toFixed(0)} ms, fold into the session state ${(loadMs - parseMs).toFixed(0)} ms; ${state.messages.length} messages rebuilt)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
