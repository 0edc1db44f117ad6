import { describe, expect, it } from 'vitest';
import { RIGHT, T, call, messagesOf, phases, server, session, tests } from '../helpers/tdd';

// --strategy tenet+tdd: the agent's tests first, then TENET's pipeline.
describe('--strategy tenet+tdd', () => {
  it('can be cancelled while it writes its tests: no model call after the cancel', async () => {
    const cancel = new AbortController();
    const { result, events } = await session(
      'tenet+tdd',
      [{ say: 'Let me think about the tests.' }, { say: 'Still thinking.' }, { say: 'More.' }],
      {
        signal: cancel.signal,
        onEvent: (event) => event.type === 'model.response' && cancel.abort(),
        measure: false,
      },
    );
    expect(events.filter((e) => e.type === 'model.request')).toHaveLength(1);
    expect(server!.requests).toHaveLength(1);
    expect(result.stopReason).toBe('cancelled');
  }, 120_000);

  it("the agent writes tests first, then TENET's pipeline validates THM's tests and its own together", async () => {
    const { result, events } = await session('tenet+tdd', [
      { calls: [call('submit_tests', { code: tests(T.zero, T.full) })] },
      { calls: [call('submit_implementation', { code: RIGHT })] },
    ]);
    expect(phases(events)).toEqual(['tdd-setup', 'pregen', 'validate', 'evaluate', 'quality']);
    // The first request shows THM's selection, as in TENET.
    expect(messagesOf(server!.requests[0]!)).toContain('The implementation must pass these tests (2)');
    const validation = events.find((e) => e.type === 'tests.run' && e.purpose === 'validate');
    expect(validation).toMatchObject({ passed: 4, total: 4 });
    expect(Object.keys(validation!.type === 'tests.run' ? validation!.outcomes : {})).toContain(
      'tests/test_by_agent.py::test_full',
    );
    expect(result).toMatchObject({
      strategy: 'tenet+tdd',
      pass: true,
      selectedTests: { passed: 2, total: 2 },
      testQuality: { tests: 2, groundTruth: { passed: 2, total: 2 } },
    });
  }, 120_000);
});
