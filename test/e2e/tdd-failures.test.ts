import { describe, expect, it } from 'vitest';
import { foldEvents } from '../../source/engine/session/fold';
import { NO_CHECK, PLUS_ONE, RIGHT, T, beforeEvaluation, call, session, tests } from '../helpers/tdd';

// --strategy tdd: the ways a TDD session fails, and what tenet points out.
describe('--strategy tdd (TDD-Agent) against a fake model server', () => {
  it('a matched failure: weak tests pass, the hidden ones do not', async () => {
    const { result } = await session(
      'tdd',
      [
        { calls: [call('submit_tests', { code: tests(T.basic, T.zero) })] },
        { calls: [call('submit_implementation', { code: NO_CHECK }), call('run_tests')] },
        { calls: [call('finish', { reason: 'green' })] },
      ],
      { measure: false },
    );
    expect(result).toMatchObject({ pass: false, stopReason: 'finished', failure: { kind: 'matched', hints: [] } });
    expect(result.testQuality).toBeUndefined();
  }, 120_000);

  it('credit assignment: the code bent to a wrong test, and a right test deleted, are both pointed out', async () => {
    const { result } = await session('tdd', [
      { calls: [call('submit_tests', { code: tests(T.basic, T.wrong, T.rejects) })] },
      { calls: [call('submit_implementation', { code: RIGHT }), call('run_tests')] },
      // Red on test_wrong and test_basic... the model "fixes" the code to fit test_wrong and drops test_basic.
      {
        calls: [
          call('submit_implementation', { code: PLUS_ONE }),
          call('submit_tests', { code: tests(T.wrong, T.rejects) }),
          call('run_tests'),
        ],
      },
      { calls: [call('finish', { reason: 'green' })] },
    ]);
    expect(result.pass).toBe(false);
    expect(result.failure?.kind).toBe('matched');
    expect(result.failure?.hints).toEqual([
      'the code passes 1 of its own test that the reference implementation fails (test_wrong): it was likely changed to fit a wrong test',
      'it deleted 1 test that the reference implementation passes (test_basic): a right test was given up for wrong code',
    ]);
    expect(result.testQuality?.groundTruth).toEqual({
      passed: 1,
      total: 2,
      failing: ['tests/test_by_agent.py::test_wrong'],
    });
    // A suite that fails on the ground truth scores 0.
    expect(result.testQuality?.mutation).toMatchObject({ score: 0, baselinePassed: false });
  }, 120_000);

  it('an unmatched failure: the budget runs out with its own tests red; tenet runs them when the model does not', async () => {
    const { result, events } = await session(
      'tdd',
      [
        { calls: [call('submit_tests', { code: tests(T.basic, T.rejects) })] },
        { calls: [call('submit_implementation', { code: NO_CHECK })] },
        { say: 'Thinking.' },
        { say: 'Still thinking.' },
        { say: 'More thinking.' },
      ],
      { iterations: 1, measure: false },
    );
    // No run_tests in the iteration's 4 rounds: tenet ran them, and reported it to the model.
    expect(beforeEvaluation(events).filter((e) => e.type === 'tests.run' && e.purpose === 'agent')).toHaveLength(1);
    expect(result).toMatchObject({ pass: false, stopReason: 'budget', failure: { kind: 'unmatched' } });
    const state = foldEvents(events);
    expect(state.tdd).toMatchObject({ phase: 'refine', iteration: 1, open: false });
    expect(state.testVersions).toHaveLength(1);
  }, 120_000);
});
