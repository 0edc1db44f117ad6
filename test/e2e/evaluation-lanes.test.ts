import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { evaluatePristine, lookAtCheckout, type EvaluationInput } from '../../source/engine/eval/pristine-evaluation';
import { LOCAL, type SandboxSpec } from '../../source/engine/sandbox/create-sandbox';
import { openTask, type OpenTask } from '../../source/engine/task/open-task';
import { runTests, runTestsInLanes } from '../../source/engine/tools/run-tests';
import { copyFixture } from '../helpers/fixtures';
import { SANDBOXES } from '../helpers/sandboxes';

/**
 * The evaluation in lanes (issue 44, item 6): the same tests over two or three lanes, each a
 * pytest process of its own in a fresh copy of the checkout, give the verdict and the per-test
 * outcomes one process gives, a failing test and a test that ends its process included; and the
 * judge's tripwire and signed channel work in every lane. Validation's lanes share the agent's workspace.
 */
const { dir: repo, cleanup } = copyFixture('tallylanes');
afterAll(cleanup);
const open = (sandbox: SandboxSpec) =>
  openTask({ repo, target: 'tally/core.py::score', blank: false, session: 'lanes', sandbox });
let task: OpenTask;
beforeAll(async () => {
  task = await open(LOCAL);
}, 60_000);
afterAll(async () => task?.dispose());

const ORIGINAL = readFileSync(join(repo, 'tally', 'core.py'), 'utf8');
const TESTS = [
  ...[1, 2, 3, 4, 5, 6, 7, 8, 9, 11, 12, 13].map((n) => `tests/test_doubles.py::test_doubles[${n}]`),
  ...[10, 20, 30, 40, 50, 60, 70, 80, 90, 100].map((n) => `tests/test_tens.py::test_tens[${n}]`),
  'tests/test_tens.py::test_known_wrong',
  'tests/test_zcrash.py::test_before_the_crash',
  'tests/test_zcrash.py::test_ends_its_process',
  'tests/test_zcrash.py::test_after_the_crash',
  'tests/test_zcrash.py::test_ninety_nine',
];
/** Code of the submission's that runs in the second of two lanes only (the plugin's TENET_SHARD says which). */
const IN_SECOND_LANE = "    import os\n    if os.environ.get('TENET_SHARD') == '1/2':\n";
/** The module with score's body replaced (the original's lines after the def). */
const submitting = (body: string) =>
  ORIGINAL.replace('    return 2 * n + (1 if n % 10 == 0 else 0)\n', `${body.trimEnd()}\n`);

async function evaluate(moduleText: string, jobs: number, extra: Partial<EvaluationInput> = {}) {
  const on = extra.task ?? task;
  return evaluatePristine({
    task: on,
    moduleText,
    tests: TESTS,
    testArgs: [],
    testTimeoutSec: 30,
    jobs,
    session: 'lanes',
    checkoutAtStart: await lookAtCheckout(on),
    ...extra,
  });
}

describe.each(SANDBOXES)('the evaluation in lanes (%s)', (_name, sandbox) => {
  it('two and three lanes give the outcomes, counts and report of one process', async () => {
    const on = sandbox.kind === 'local' ? task : await open(sandbox);
    try {
      const one = await evaluate(ORIGINAL, 1, { task: on });
      if (!('run' in one)) throw new Error(one.unverified);
      expect(one.run.lanes).toBe(undefined);
      expect(one.run.outcomes).toMatchObject({
        'tests/test_tens.py::test_known_wrong': 'failed',
        'tests/test_zcrash.py::test_ends_its_process': 'crashed',
        'tests/test_zcrash.py::test_after_the_crash': 'passed',
        'tests/test_zcrash.py::test_ninety_nine': 'passed',
      });
      expect(one.run).toMatchObject({ total: TESTS.length, passed: TESTS.length - 2 });
      for (const jobs of [2, 3]) {
        const lanes = await evaluate(ORIGINAL, jobs, { task: on });
        if (!('run' in lanes)) throw new Error(lanes.unverified);
        expect(lanes.run.lanes).toBe(jobs);
        expect(lanes.run.outcomes).toEqual(one.run.outcomes);
        expect(Object.keys(lanes.run.outcomes)).toEqual(Object.keys(one.run.outcomes));
        expect([lanes.run.passed, lanes.run.total]).toEqual([one.run.passed, one.run.total]);
        // Word for word, but for what the crashed process left on its stderr (its pid, timings).
        const shape = (report: string) => report.split('\n').filter((line) => /^(Ran|[A-Z]+ tests\/)/.test(line));
        expect(shape(lanes.run.report)).toEqual(shape(one.run.report));
      }
    } finally {
      if (on !== task) await on.dispose();
    }
  }, 300_000);
});

describe('the evaluation in lanes', () => {
  it('a lane whose every test ends its process counts none of them as passed', async () => {
    // The second lane only (the plugin's TENET_SHARD names it): the first lane's tests pass.
    const killer = submitting(`${IN_SECOND_LANE}        os._exit(0)\n    return 2 * n + (n % 10 == 0)\n`);
    const lanes = await evaluate(killer, 2);
    if (!('run' in lanes)) throw new Error(lanes.unverified);
    const outcomes = Object.values(lanes.run.outcomes);
    const crashed = outcomes.filter((outcome) => outcome === 'crashed').length;
    expect(crashed).toBeGreaterThan(0);
    expect(lanes.run.passed).toBeGreaterThan(0);
    expect(lanes.run.passed + crashed + 1).toBe(TESTS.length);
    expect(new Set(outcomes)).toEqual(new Set(['passed', 'crashed', 'failed']));
  }, 180_000);

  it.each([
    [
      'the harness reached by walking the heap',
      [IN_SECOND_LANE, '        import gc', '        gc.get_objects()', '    return 2 * n + (n % 10 == 0)'],
      /^the submission reached into the test harness: gc\.get_objects at tally\/core\.py:\d+/,
    ],
    [
      'outcomes written on the channel by hand',
      [
        IN_SECOND_LANE,
        '        import json',
        "        line = '\\x1etenet:' + json.dumps({'e': 'test', 'nodeid': 'tests/test_tens.py::test_known_wrong', 'outcome': 'passed', 'phase': None, 'message': '', 'longrepr': ''}) + '\\n'",
        '        for fd in range(1, 10):',
        '            try:',
        '                os.write(fd, line.encode())',
        '            except OSError:',
        '                pass',
        '    return 2 * n + (n % 10 == 0)',
      ],
      /^the test process's report cannot be trusted: an unsigned line/,
    ],
  ])(
    'a submission that forges its report in the second lane only (%s) makes the verdict unverified',
    async (_name, body, said) => {
      const forged = await evaluate(submitting(body.join('\n')), 2);
      expect(forged).toEqual({ unverified: expect.stringMatching(said) });
    },
    180_000,
  );

  it("validation's lanes share the agent's workspace, each with its own scratch files, and report as one process", async () => {
    const ctx = { ...task, testArgs: [], testTimeoutSec: 30 };
    const one = await runTests(ctx, TESTS, 'validate');
    const two = await runTestsInLanes([ctx, ctx], TESTS, 'validate');
    expect(two.lanes).toBe(2);
    expect(two.outcomes).toEqual(one.outcomes);
    expect([two.passed, two.total]).toEqual([one.passed, one.total]);
  }, 180_000);

  it('an abort ends every lane: what did not run is not passed', async () => {
    const stop = new AbortController();
    const sleeper = submitting('    import time\n    time.sleep(25)\n    return 2 * n + (n % 10 == 0)\n');
    setTimeout(() => stop.abort(), 3000);
    const stopped = await evaluate(sleeper, 2, { signal: stop.signal });
    if (!('run' in stopped)) throw new Error(stopped.unverified);
    expect(stopped.run.lanes).toBe(2);
    expect(stopped.run.passed).toBe(0);
  }, 60_000);
});
