import { describe, expect, it } from 'vitest';
import { phaseWords } from '../../source/engine/phrase-book';
import { describePosition, foldEvents } from '../../source/engine/session/fold';

describe('counts of rounds agree with their noun', () => {
  it('where an interrupted session stands: after 1 round, after 2 rounds', () => {
    const state = foldEvents([]);
    const at = (pregenUsed: number) => describePosition({ ...state, thm: {} as never, approval: {} as never, position: { ...state.position, phase: 'pregen', pregenUsed } });
    expect(at(1)).toBe('pre-generation, after 1 round');
    expect(at(2)).toBe('pre-generation, after 2 rounds');
  });

  it('a phase with a budget of one round', () => {
    expect(phaseWords({ type: 'agent.phase', phase: 'pregen', rounds: 1 })).toEqual({ title: 'pre-generation', detail: 'up to 1 round' });
    expect(phaseWords({ type: 'agent.phase', phase: 'pregen', rounds: 15 })).toEqual({ title: 'pre-generation', detail: 'up to 15 rounds' });
  });
});
