import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { loadEvents } from '../../source/engine/session/event-log';
import { castStops } from '../../source/ui/cast-frames';
import { ReplayCursor } from '../../source/ui/replay';
import { ROOT } from '../helpers/fixtures';

// Issue 37.13: a cast holds what Ink would have drawn of the session — at most 30 frames a second —
// and every key moment, however soon the next event came.

const at = (ms: number) => new Date(Date.parse('2026-12-01T00:00:00Z') + ms).toISOString();

describe('the stops a cast draws', () => {
  it('events 10 ms apart are drawn a frame (1/30 s) apart, the last of a burst and every key moment kept', () => {
    const events = [
      { type: 'session.start', ts: at(0) },
      ...Array.from({ length: 12 }, (_, i) => ({ type: 'model.delta', text: 'x', ts: at(10 + 10 * i) })),
      { type: 'tests.run', purpose: 'validate', ts: at(131) },
      { type: 'model.delta', text: 'y', ts: at(132) },
      { type: 'model.delta', text: 'z', ts: at(1000) },
    ] as unknown as (EngineEvent & { ts: string })[];
    const drawn = castStops(new ReplayCursor(events));
    // Nothing shown, then the start; the deltas 10 ms apart every 40 ms (a frame is 33 ms); the test
    // run (a key moment, 1 ms before the next event); the delta before a long pause; the end.
    expect(drawn).toEqual([0, 1, 5, 9, 13, 14, 15, 16]);
  });

  it('the demo session keeps its THM review, every stage and test run, and its verdict', () => {
    const demo = loadEvents(join(ROOT, 'sessions', 'demo', 'events.jsonl')).events;
    const drawn = castStops(new ReplayCursor(demo));
    const eventAfter = (type: string) => demo.flatMap((e, i) => (e.type === type ? [i + 1] : []));
    for (const stop of [
      ...eventAfter('thm.report'),
      ...eventAfter('agent.phase'),
      ...eventAfter('tests.run'),
      ...eventAfter('result'),
    ])
      expect(drawn).toContain(stop);
    expect(drawn.length).toBeLessThan(demo.length / 2);
  });
});
