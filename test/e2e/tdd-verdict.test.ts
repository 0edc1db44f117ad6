import { describe, expect, it } from 'vitest';
import { PLUS_ONE, RIGHT, T, call, messagesOf, server, session, tests } from '../helpers/tdd';

// --strategy tdd: the verdict rests on the final code.
describe('--strategy tdd: the verdict rests on the final code', () => {
  it('code and finish in one round: the stale green run does not count; its tests run on the final code (unmatched)', async () => {
    const { result, events } = await session(
      'tdd',
      [
        { calls: [call('submit_tests', { code: tests(T.basic, T.zero) })] },
        { calls: [call('submit_implementation', { code: RIGHT }), call('run_tests')] },
        // Green; then worse code and finish at once, with no run in between.
        { calls: [call('submit_implementation', { code: PLUS_ONE }), call('finish', { reason: 'done' })] },
      ],
      { measure: false },
    );
    const runs = events
      .filter((e) => e.type === 'tests.run' && e.purpose === 'agent')
      .map((e) => e.type === 'tests.run' && `${e.passed}/${e.total}`);
    expect(runs).toEqual(['2/2', '0/2']);
    expect(result).toMatchObject({ pass: false, stopReason: 'finished', failure: { kind: 'unmatched' } });
  }, 120_000);

  it('finish before any implementation is refused with an observation; the work goes on', async () => {
    const { result, events } = await session(
      'tdd',
      [
        { calls: [call('submit_tests', { code: tests(T.basic, T.zero) })] },
        { calls: [call('finish', { reason: 'the tests are written' })] },
        { calls: [call('submit_implementation', { code: RIGHT }), call('run_tests')] },
        { calls: [call('finish', { reason: 'green' })] },
      ],
      { measure: false },
    );
    const finishes = events.filter((e) => e.type === 'tool.result' && e.name === 'finish');
    expect(finishes[0]).toMatchObject({ ok: false, text: expect.stringContaining('there is no implementation yet') });
    expect(messagesOf(server!.requests[2]!)).toContain('Submit one with submit_implementation first');
    expect(result).toMatchObject({ pass: true, stopReason: 'passed' });
  }, 120_000);
});
