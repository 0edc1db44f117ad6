import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures';
import { chains, thmOn, type ThmRun } from '../helpers/thm';

const EDGES = join(FIXTURES, 'edges');
const TARGET = 'edges/core.py::scale';

// The whole stack of a worker thread of a ThreadPoolExecutor, under the test that started it.
const POOL_THREAD = [
  'threading.py::Thread._bootstrap',
  'threading.py::Thread._bootstrap_inner',
  'threading.py::Thread.run',
  'concurrent/futures/thread.py::_worker',
  'concurrent/futures/thread.py::_WorkItem.run',
];

const EXPECTED_CHAINS = {
  // The first call of the target is in a fixture's teardown.
  'tests/test_teardown.py::test_reaches_the_target_only_in_teardown': [
    'tests/test_teardown.py::scaled_at_teardown',
    TARGET,
  ],
  // The call swallows the blank's error; the fixture's teardown then fails blank.
  'tests/test_teardown.py::test_swallows_the_blank_then_teardown_fails': [
    'tests/test_teardown.py::test_swallows_the_blank_then_teardown_fails',
    TARGET,
  ],
  'tests/test_teardown.py::test_plain': ['tests/test_teardown.py::test_plain', TARGET],
  'tests/test_scopes.py::test_module_fixture_reaches_the_target': ['tests/test_scopes.py::scaled_once', TARGET],
  'tests/test_scopes.py::test_wider_fixture_set_up_after_the_first_call': [
    'tests/test_scopes.py::test_wider_fixture_set_up_after_the_first_call',
    TARGET,
  ],
  'tests/test_threads.py::test_scales_in_worker_threads': [
    'tests/test_threads.py::test_scales_in_worker_threads',
    ...POOL_THREAD,
    TARGET,
  ],
  'tests/test_threads.py::test_scales_on_the_main_thread_while_a_pool_runs': [
    'tests/test_threads.py::test_scales_on_the_main_thread_while_a_pool_runs',
    TARGET,
  ],
  // The test takes sys._getframe away before the call (attrs' make_class tests): the probe bound it at import.
  'tests/test_no_getframe.py::test_scales_without_sys_getframe': [
    'tests/test_no_getframe.py::test_scales_without_sys_getframe',
    TARGET,
  ],
  // Code compiled at run time, named without its process-wide counter.
  'tests/test_generated_a.py::test_doubled': [
    'tests/test_generated_a.py::test_doubled',
    'edges/generated.py::compiled.<locals>.lazy',
    '<edges compilation>::compiled_doubled',
    'edges/core.py::doubled',
    TARGET,
  ],
  'tests/test_generated_b.py::test_tripled': [
    'tests/test_generated_b.py::test_tripled',
    'edges/generated.py::compiled.<locals>.lazy',
    '<edges compilation>::compiled_tripled',
    'edges/core.py::tripled',
    TARGET,
  ],
};

// Twin mode must report what two passes (a real blank run) report.
describe.each([
  ['twins', true],
  ['two passes', false],
])('THM where its shortcuts are weakest (teardown, threads, generated code), %s', (_name, twins) => {
  let run: ThmRun;
  beforeAll(async () => {
    run = await thmOn(EDGES, TARGET, { blank: true, onePass: twins, jobs: 1 });
  });

  it('counts a failure in teardown, and only a blank one', () => {
    expect(chains(run.report)).toEqual(EXPECTED_CHAINS);
    const byId = new Map(run.report.failing.map((f) => [f.nodeid, f]));
    expect(byId.get('tests/test_teardown.py::test_reaches_the_target_only_in_teardown')).toMatchObject({
      outcome: 'error',
      phase: 'teardown',
      entryKind: 'fixture',
    });
    expect(byId.get('tests/test_teardown.py::test_swallows_the_blank_then_teardown_fails')).toMatchObject({
      outcome: 'error',
      phase: 'teardown',
      entryKind: 'test',
    });
    // Its teardown removes a file; a twin's teardown, after the parent's, would fail on it.
    expect(byId.has('tests/test_teardown.py::test_swallows_the_blank_with_a_one_shot_teardown')).toBe(false);
    expect(run.report.counts).toMatchObject({
      collected: 11,
      passed: 1,
      failing: 10,
      alreadyFailing: 0,
      timedOut: 0,
      crashed: 0,
    });
  });

  it('lets the blank twin set up wider fixtures after the first call', () => {
    const byId = new Map(run.report.failing.map((f) => [f.nodeid, f]));
    // (Not pytest's own "AssertionError: (<Module test_scopes.py>, {...})" about its stack of set-up nodes.)
    expect(byId.get('tests/test_scopes.py::test_module_fixture_reaches_the_target')).toMatchObject({
      outcome: 'error',
      phase: 'setup',
      entryKind: 'fixture',
      message: 'NotImplementedError',
    });
    expect(byId.get('tests/test_scopes.py::test_wider_fixture_set_up_after_the_first_call')).toMatchObject({
      outcome: 'failed',
      phase: 'call',
    });
    expect(byId.get('tests/test_scopes.py::test_wider_fixture_set_up_after_the_first_call')!.message).toContain(
      "(None, 'resource')",
    );
  });

  it('follows the target into a worker thread without stalling', () => {
    const threaded = run.report.failing.find(
      (f) => f.nodeid === 'tests/test_threads.py::test_scales_in_worker_threads',
    )!;
    expect(threaded).toMatchObject({ entryKind: 'test', timedOut: false });
    // The chain goes through the pool's thread; the caller is the code of the repository that used
    // the target, not the standard library's plumbing (every pool's use would share that name).
    expect(threaded.chain.slice(-2)).toEqual(['concurrent/futures/thread.py::_WorkItem.run', 'edges/core.py::scale']);
    expect(threaded.caller).toBe('tests/test_threads.py::test_scales_in_worker_threads');
    // A stalled twin would wait for its 60 s limit.
    expect(run.report.durationMs).toBeLessThan(30_000);
  });

  it('runs blank again only what no twin can decide', () => {
    const blank = run.events
      .filter((e) => e.type === 'thm.test' && e.phase === 'blank')
      .map((e) => e.type === 'thm.test' && e.nodeid);
    expect(blank.sort()).toEqual(
      twins
        ? [
            // Its twin's teardown failed without calling the target.
            'tests/test_teardown.py::test_swallows_the_blank_with_a_one_shot_teardown',
            // Reached in a worker thread, or beside one: no fork.
            'tests/test_threads.py::test_scales_in_worker_threads',
            'tests/test_threads.py::test_scales_on_the_main_thread_while_a_pool_runs',
          ]
        : [],
    );
  });
});

describe('THM chains do not depend on the process', () => {
  it('a sharded run and an unsharded one give the same chains through generated code', async () => {
    const one = await thmOn(EDGES, TARGET, { blank: true, jobs: 1 });
    const two = await thmOn(EDGES, TARGET, { blank: true, jobs: 2 });
    expect(two.report.shards).toBe(2);
    expect(chains(two.report)).toEqual(chains(one.report));
    expect(two.report.clusters).toEqual(one.report.clusters);
  });
});
