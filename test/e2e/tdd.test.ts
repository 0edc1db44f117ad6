import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PAPER_BUDGET } from '../../source/engine/agent/tenet-strategy';
import type { EngineEvent, RunResult } from '../../source/engine/events';
import { createModel } from '../../source/engine/model/create-model';
import { headlessPilot, type Pilot } from '../../source/engine/run/pilot';
import { runTask } from '../../source/engine/run/run-task';
import { resolveSettings } from '../../source/engine/run/run-settings';
import type { Strategy } from '../../source/engine/protocol/settings';
import { foldEvents } from '../../source/engine/session/fold';
import { startFakeModelServer, type FakeModelServer, type FakeTurn } from '../helpers/fake-model-server';
import { copyFixture, FIXTURES } from '../helpers/fixtures';
import { readFileSync, writeFileSync } from 'node:fs';

const TARGET = 'shop/pricing.py::apply_discount';
const RIGHT =
  'def apply_discount(price, percent):\n    if not 0 <= percent <= 100:\n        raise ValueError("percent")\n    return round(price * (100 - percent) / 100, 2)\n';
const NO_CHECK = 'def apply_discount(price, percent):\n    return round(price * (100 - percent) / 100, 2)\n';
const PLUS_ONE =
  'def apply_discount(price, percent):\n    if not 0 <= percent <= 100:\n        raise ValueError("percent")\n    return round(price * (100 - percent) / 100, 2) + 1\n';

const tests = (...bodies: string[]) =>
  `import pytest\nfrom shop.pricing import apply_discount\n\n${bodies.join('\n\n')}\n`;
const T = {
  basic: 'def test_basic():\n    assert apply_discount(100.0, 15) == 85.0',
  zero: 'def test_zero():\n    assert apply_discount(20.0, 0) == 20.0',
  full: 'def test_full():\n    assert apply_discount(20.0, 100) == 0.0',
  rounds: 'def test_rounds():\n    assert apply_discount(9.99, 33) == 6.69',
  rejects: 'def test_rejects():\n    with pytest.raises(ValueError):\n        apply_discount(10.0, 120)',
  wrong: 'def test_wrong():\n    assert apply_discount(100.0, 10) == 91.0',
};
const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function session(
  strategy: Strategy,
  turns: FakeTurn[],
  options: {
    iterations?: number;
    measure?: boolean;
    signal?: AbortSignal;
    onEvent?: (event: EngineEvent) => void;
    repo?: string;
    pilot?: Pilot;
  } = {},
): Promise<{ result: RunResult; events: EngineEvent[] }> {
  server = await startFakeModelServer(turns);
  const model = createModel(
    { maxRetries: 2 },
    { provider: 'openai', model: 'test-model' },
    { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` },
  );
  const events: EngineEvent[] = [];
  const result = await runTask({
    repo: options.repo ?? join(FIXTURES, 'shop'),
    target: TARGET,
    blank: true,
    testArgs: ['tests/test_pricing.py'],
    ...resolveSettings(
      {
        T: 2,
        jobs: 1,
        fork: true,
        testTimeoutSec: 30,
        thmTimeoutSec: 600,
        budget: PAPER_BUDGET,
        strategy,
        tddBudget: { setupRounds: 4, iterations: options.iterations ?? 10, roundsPerIteration: 4 },
        measureTests: options.measure ?? true,
      },
      {},
    ),
    model,
    pilot: options.pilot ?? headlessPilot(false),
    emit: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { result, events };
}

/** The events before the evaluation: what the agent did (tenet then runs its tests once more on the final code). */
const beforeEvaluation = (events: EngineEvent[]) =>
  events.slice(
    0,
    events.findIndex((e) => e.type === 'agent.phase' && e.phase === 'evaluate'),
  );
const phases = (events: EngineEvent[]) =>
  events.flatMap((e) => (e.type === 'agent.phase' ? [`${e.phase}${e.round ? ` ${e.round}` : ''}`] : []));
const messagesOf = (request: { body: Record<string, unknown> }) => JSON.stringify(request.body.messages);

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
