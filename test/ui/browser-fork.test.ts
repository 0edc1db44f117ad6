import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { reopenAfter } from '../../source/ui/launch';
import { lastForkEvent } from '../../source/ui/screens/session-rows';

// Issue 46.3 and 46.4: `f` in the sessions browser. A fork made from the list came back to a paused
// replay of its parent instead of the list; and a fork of a passed session replayed the whole
// history and went straight to the evaluation (0 tokens), since it started after the last model
// call, with nothing left for the live model to answer.

const numbered = (types: EngineEvent['type'][]) =>
  types.map((type, i) => ({ type, seq: i + 1 }) as unknown as EngineEvent & { seq: number });

describe('f in the sessions browser', () => {
  it('forks a passed session before its last model call, so the live model answers it', () => {
    const events = numbered([
      'session.start',
      'thm.report',
      'thm.approval',
      'agent.phase',
      'model.request', // 5
      'model.response',
      'tool.call',
      'tool.result',
      'model.request', // 9: the last call; its answer submitted the code that passed
      'model.response',
      'tool.call',
      'submission',
      'tool.result',
      'agent.phase', // evaluate
      'tests.run',
      'result',
    ]);
    (events[13] as { phase?: string }).phase = 'evaluate';
    expect(lastForkEvent(events)).toBe(8);
  });

  it('has no event to fork at when the agent never asked its model', () => {
    expect(lastForkEvent(numbered(['session.start', 'thm.report', 'result']))).toBeUndefined();
  });

  it('comes back to the list after a fork made from the list, to the replay after one made in a replay', () => {
    expect(reopenAfter({ fork: { id: 'p', at: 8, from: 'list' } })).toBeUndefined();
    expect(reopenAfter({ fork: { id: 'p', at: 8, from: 'replay' } })).toEqual({ id: 'p', at: 8 });
    expect(reopenAfter({ resume: 'p' })).toBeUndefined();
  });
});
