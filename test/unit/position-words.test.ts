import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { loadEvents } from '../../source/engine/session/event-log';
import { ROOT } from '../helpers/fixtures';
import { phaseWords } from '../../source/engine/phrase-book';
import { describePosition, foldEvents } from '../../source/engine/session/fold';

describe('counts of rounds agree with their noun', () => {
  it('where an interrupted session stands: after 1 round, after 2 rounds', () => {
    const state = foldEvents([]);
    const at = (pregenUsed: number) =>
      describePosition({
        ...state,
        thm: {} as never,
        approval: {} as never,
        position: { ...state.position, phase: 'pregen', pregenUsed },
      });
    expect(at(1)).toBe('pre-generation, after 1 round');
    expect(at(2)).toBe('pre-generation, after 2 rounds');
  });

  it('a phase with a budget of one round', () => {
    expect(phaseWords({ type: 'agent.phase', phase: 'pregen', rounds: 1 })).toEqual({
      title: 'pre-generation',
      detail: 'up to 1 round',
    });
    expect(phaseWords({ type: 'agent.phase', phase: 'pregen', rounds: 15 })).toEqual({
      title: 'pre-generation',
      detail: 'up to 15 rounds',
    });
  });
});

describe('a session interrupted while a model call was in flight', () => {
  const demo = loadEvents(join(ROOT, 'sessions', 'demo', 'events.jsonl')).events;
  /** The demo's log up to and including its `n`th event of `type` (1-based). */
  const upTo = (type: EngineEvent['type'], n: number) => {
    const at = demo.findIndex((e) => e.type === type && --n === 0);
    return demo.slice(0, at + 1);
  };

  it('does not count the unanswered request as a round: the resume makes it again under its own number', () => {
    const cut = upTo('model.request', 2);
    expect(cut.at(-1)).toMatchObject({ type: 'model.request', round: 2 });
    const state = foldEvents(cut);
    expect(state.unansweredRequest).toBe(true);
    expect(state.totals.rounds).toBe(1);
    expect(describePosition(state)).toBe('pre-generation, after 1 round');
    // Answered, it counts.
    expect(foldEvents(upTo('model.response', 2)).totals.rounds).toBe(2);
  });

  it("a refinement attempt's rounds are the attempt's; the session's count, the header's round numbers, follows", () => {
    const first = foldEvents(upTo('model.request', 4));
    expect(describePosition(first)).toBe(
      'refinement attempt 1, failure identification, after 0 rounds (3 in the session)',
    );
    expect(first.totals.rounds).toBe(3);
    expect(describePosition(foldEvents(upTo('model.response', 6)))).toBe(
      'refinement attempt 1, failure identification, after 3 rounds (6 in the session)',
    );
  });
});
