import { readFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * The demo session's agent part repeated until it holds `count` events, timestamps 10 ms apart:
 * a long session for the replay and export figures (perf/tui.ts, perf/cast.ts).
 */
export function longSession(root: string, count: number) {
  const demo = readFileSync(join(root, 'sessions', 'demo', 'events.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { type: string; ts?: string; phase?: string });
  const agentStart = demo.findIndex((e) => e.type === 'agent.phase');
  const evaluate = demo.findIndex((e) => e.type === 'agent.phase' && e.phase === 'evaluate');
  const head = demo.slice(0, agentStart);
  const loop = demo.slice(agentStart, evaluate);
  const tail = demo.slice(evaluate);
  const events = [...head];
  while (events.length + tail.length < count) events.push(...loop.slice(0, count - tail.length - events.length));
  events.push(...tail);
  const t0 = Date.parse(demo[0]!.ts!);
  // Numbered anew: the demo's own numbers repeat in the copies.
  return events.map((event, i) => ({ ...event, seq: i + 1, ts: new Date(t0 + i * 10).toISOString() }));
}
