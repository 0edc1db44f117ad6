import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { headlessPilot, type Pilot } from '../../source/engine/run/pilot';
import { copyFixture } from '../helpers/fixtures';
import { readFileSync, writeFileSync } from 'node:fs';
import { RIGHT, T, call, messagesOf, phases, server, session, tests } from '../helpers/tdd';

// --strategy tdd (TDD-Agent): tests first, then code and tests refined together; the agent's tests kept.
describe('--strategy tdd (TDD-Agent) against a fake model server', () => {
  it('tests first, then dual-track refinement: a wrong test is fixed, the code passes; the tests are measured', async () => {
    const { result, events } = await session('tdd', [
      {
        say: 'Let me look around first.',
        calls: [call('view_directory', { path: 'shop' }), call('search_code', { code_str: 'def test_apply_discount' })],
      },
      { say: 'Tests first.', calls: [call('submit_tests', { code: tests(T.basic, T.zero, T.wrong, T.rejects) })] },
      { calls: [call('submit_implementation', { code: RIGHT }), call('run_tests')] },
      // Red: test_wrong expects 91.0, but 10 % off 100 is 90. The test is wrong, not the code.
      {
        say: 'test_wrong is wrong: 10% off 100 is 90.',
        calls: [call('submit_tests', { code: tests(T.basic, T.zero, T.full, T.rounds, T.rejects) }), call('run_tests')],
      },
      { calls: [call('finish', { reason: 'all my tests pass' })] },
    ]);
    expect(phases(events)).toEqual(['tdd-setup', 'tdd 1', 'tdd 2', 'tdd 3', 'evaluate', 'quality']);
    // The repository's tests were all hidden from the agent: it saw none of them.
    expect(events.find((e) => e.type === 'thm.approval')).toMatchObject({ chosen: [], by: 'strategy' });
    expect(messagesOf(server!.requests[1]!)).toContain('Could not find code def test_apply_discount in the codebase.');
    // Phase 1 offers no way to implement or run; phase 2 does.
    expect(server!.requests[0]!.body.tools).not.toContainEqual(
      expect.objectContaining({ function: expect.objectContaining({ name: 'submit_implementation' }) }),
    );
    expect(server!.requests[2]!.body.tools).toContainEqual(
      expect.objectContaining({ function: expect.objectContaining({ name: 'submit_implementation' }) }),
    );
    // Each run of its tests went back to the model, with the dual-track prompt after a red one.
    const agentRuns = events.filter((e) => e.type === 'tests.run' && e.purpose === 'agent');
    // …and once more on the final code, at the evaluation.
    expect(agentRuns.map((e) => e.type === 'tests.run' && `${e.passed}/${e.total}`)).toEqual(['3/4', '5/5', '5/5']);
    expect(messagesOf(server!.requests[3]!)).toContain('whether the implementation or the test is wrong');
    expect(messagesOf(server!.requests[4]!)).toContain('all 5 tests pass');
    // Two versions of the tests, one of the code, in order.
    expect(events.filter((e) => e.type === 'tests.submission' || e.type === 'submission').map((e) => e.type)).toEqual([
      'tests.submission',
      'submission',
      'tests.submission',
    ]);

    expect(result).toMatchObject({
      strategy: 'tdd',
      pass: true,
      stopReason: 'passed',
      selectedTests: { passed: 0, total: 0 },
      rounds: { tddSetup: 2, tddIterations: 3 },
    });
    expect(result.hiddenTests.total).toBe(result.hiddenTests.passed);
    expect(result.hiddenTests.total).toBeGreaterThan(5);
    expect(result.failure).toBeUndefined();
    // Five tests, all right on the ground truth; they run every line of it and both outcomes of its one branch.
    expect(result.testQuality).toMatchObject({
      file: 'tests/test_by_agent.py',
      tests: 5,
      subject: 'ground truth',
      groundTruth: { passed: 5, total: 5, failing: [] },
      coverage: { lines: { covered: 3, total: 3 }, branches: { covered: 2, total: 2 } },
      problems: [],
    });
    const mutation = result.testQuality!.mutation!;
    expect(mutation.baselinePassed).toBe(true);
    expect(mutation.total).toBeGreaterThan(5);
    expect(mutation.killed + mutation.timedOut + mutation.survived).toBe(mutation.total);
    expect(mutation.score).toBeGreaterThan(0.5);
  }, 120_000);

  it("the agent's tests can be kept: written beside the repository's tests, never over a file, and recorded", async () => {
    const repo = copyFixture('shop');
    try {
      writeFileSync(join(repo.dir, 'tests', 'test_by_agent.py'), "# the developer's own file\n");
      let kept: string | undefined;
      const pilot: Pilot = {
        ...headlessPilot(false),
        acceptPatch: async (_result, extras) => ((kept = await extras?.agentTests?.keep()), 'save'),
      };
      const final = tests(T.basic, T.zero, T.rejects);
      const { events } = await session(
        'tdd',
        [
          { calls: [call('submit_tests', { code: final })] },
          { calls: [call('submit_implementation', { code: RIGHT }), call('run_tests')] },
          { calls: [call('finish', { reason: 'green' })] },
        ],
        { measure: false, repo: repo.dir, pilot },
      );
      expect(kept).toBe('tests/test_by_agent_2.py');
      expect(readFileSync(join(repo.dir, 'tests', 'test_by_agent_2.py'), 'utf8')).toBe(final);
      expect(readFileSync(join(repo.dir, 'tests', 'test_by_agent.py'), 'utf8')).toBe("# the developer's own file\n");
      expect(events).toContainEqual({ type: 'tests.kept', file: 'tests/test_by_agent_2.py' });
    } finally {
      repo.cleanup();
    }
  }, 120_000);
});
