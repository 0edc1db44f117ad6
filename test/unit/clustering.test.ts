import { describe, expect, it } from 'vitest';
import {
  chainedTests,
  clusterTests,
  directCaller,
  distinctFunctionsFirst,
  selectTests,
  testFunction,
  type ChainedTest,
} from '../../source/engine/thm/clustering';
import type { ThmFailingTest } from '../../source/engine/protocol/thm-report';

const t = (nodeid: string, ...chain: string[]): ChainedTest => ({ nodeid, chain });

describe('directCaller', () => {
  it('is the frame just above the target', () => {
    expect(directCaller(['t.py::test_a', 'm.py::helper', 'm.py::target'])).toBe('m.py::helper');
  });
  it('skips comprehension and generator-expression frames', () => {
    expect(
      directCaller([
        't.py::test',
        'm.py::f',
        'm.py::f.<locals>.<listcomp>',
        'm.py::f.<locals>.<genexpr>',
        'm.py::target',
      ]),
    ).toBe('m.py::f');
    expect(directCaller(['t.py::test', 'm.py::g.<locals>.<dictcomp>', 'm.py::target'])).toBe('t.py::test');
  });
  it("passes over code that is not the repository's own (library plumbing between a use and the target)", () => {
    const out = (name: string) => ({ name, outside: true });
    // functools.cached_property: every use would be one cluster named after the descriptor.
    expect(
      directCaller([
        { name: 't.py::test' },
        { name: 'm.py::label' },
        out('functools.py::cached_property.__get__'),
        { name: 'm.py::Box.doubled' },
      ]),
    ).toBe('m.py::label');
    // A comprehension of the repository is passed over as before, under library frames too.
    expect(
      directCaller([
        { name: 'm.py::total' },
        { name: 'm.py::total.<locals>.<genexpr>' },
        out('functools.py::cached_property.__get__'),
        { name: 'm.py::Box.doubled' },
      ]),
    ).toBe('m.py::total');
    // Only library code above the target (a thread's frames, entry left out): the nearest frame, as before.
    expect(
      directCaller([
        out('threading.py::Thread.run'),
        out('concurrent/futures/thread.py::_WorkItem.run'),
        { name: 'm.py::target' },
      ]),
    ).toBe('concurrent/futures/thread.py::_WorkItem.run');
    // Chains of names only (sessions saved before frames said whose code they are): the nearest frame.
    expect(directCaller(['t.py::test', 'functools.py::cached_property.__get__', 'm.py::Box.doubled'])).toBe(
      'functools.py::cached_property.__get__',
    );
  });
  it("passes over the repository's own decorator plumbing (frames that hold the target): the use above it names the caller", () => {
    const wrapper = (name: string) => ({ name, wrapper: true });
    // sympy's cacheit: without the mark, every use of a cached function is one cluster.
    expect(
      directCaller([
        { name: 't.py::test' },
        { name: 'm.py::eval_sum' },
        wrapper('cache.py::cacheit.<locals>.wrapper'),
        { name: 'm.py::target' },
      ]),
    ).toBe('m.py::eval_sum');
    // networkx: a decorator object's method, then code it compiled (outside), then the test.
    expect(
      directCaller([
        { name: 't.py::test' },
        { name: 'argmap compilation::argmap_f', outside: true },
        wrapper('backends.py::_dispatchable._call'),
        { name: 'm.py::target' },
      ]),
    ).toBe('t.py::test');
    // Only wrappers and library code above the target: the nearest of the repository's frames.
    expect(directCaller([wrapper('m.py::deco.<locals>.wrapper'), { name: 'm.py::target' }])).toBe(
      'm.py::deco.<locals>.wrapper',
    );
  });
  it('is null when the target is the whole chain', () => {
    expect(directCaller(['m.py::target'])).toBeNull();
    expect(directCaller(['m.py::f.<locals>.<setcomp>', 'm.py::target'])).toBeNull();
  });
});

describe('clusterTests', () => {
  it("groups by the caller a test carries, where its frames said which code is the repository's", () => {
    const clusters = clusterTests([
      {
        nodeid: 't.py::test_a',
        chain: ['t.py::test_a', 'm.py::label', 'functools.py::cached_property.__get__', 'm.py::x'],
        caller: 'm.py::label',
      },
      {
        nodeid: 't.py::test_b',
        chain: ['t.py::test_b', 'functools.py::cached_property.__get__', 'm.py::x'],
        caller: 't.py::test_b',
      },
    ]);
    expect(clusters.map((c) => c.caller).sort()).toEqual(['m.py::label', 't.py::test_b']);
  });

  const tests = [
    t('t.py::test_z', 't.py::test_z', 'm.py::a', 'm.py::target'),
    t('t.py::test_y', 't.py::test_y', 'm.py::a', 'm.py::target'),
    t('t.py::test_x', 't.py::test_x', 'm.py::b', 'm.py::target'),
    t('t.py::test_deep', 't.py::test_deep', 'm.py::c', 'm.py::b', 'm.py::a', 'm.py::target'),
    t('t.py::test_direct', 't.py::test_direct', 'm.py::target'),
  ];

  it('groups by direct caller and picks the (depth, nodeid) smallest as representative', () => {
    const clusters = clusterTests(tests);
    const a = clusters.find((c) => c.caller === 'm.py::a')!;
    expect(a.tests).toEqual(['t.py::test_y', 't.py::test_z', 't.py::test_deep']);
    expect(a.representative).toBe('t.py::test_y');
    expect(a.depth).toBe(2);
  });

  it('orders clusters by representative depth, then size (larger first), then caller name', () => {
    const clusters = clusterTests(tests);
    expect(clusters.map((c) => [c.caller, c.depth, c.tests.length])).toEqual([
      ['t.py::test_direct', 1, 1],
      ['m.py::a', 2, 3],
      ['m.py::b', 2, 1],
    ]);
  });

  it('breaks an exact tie of depth and size by caller name', () => {
    const clusters = clusterTests([
      t('t.py::2', 't.py::2', 'z.py::f', 'm.py::target'),
      t('t.py::1', 't.py::1', 'a.py::f', 'm.py::target'),
    ]);
    expect(clusters.map((c) => c.caller)).toEqual(['a.py::f', 'z.py::f']);
  });
});

describe('selectTests', () => {
  const tests = [
    t('t.py::a1', 't.py::a1', 'm.py::a', 'm.py::target'),
    t('t.py::a2', 't.py::a2', 'm.py::a', 'm.py::target'),
    t('t.py::b1', 't.py::b1', 'x.py::w', 'm.py::b', 'm.py::target'),
    t('t.py::c1', 't.py::c1', 'm.py::c', 'm.py::target'),
    t('t.py::a3', 't.py::a3', 'x.py::v', 'x.py::u', 'm.py::a', 'm.py::target'),
  ];
  const clusters = clusterTests(tests);

  it('takes one representative per cluster, in cluster order, up to T', () => {
    expect(selectTests(clusters, tests, 2)).toEqual(['t.py::a1', 't.py::c1']);
    expect(selectTests(clusters, tests, 3)).toEqual(['t.py::a1', 't.py::c1', 't.py::b1']);
  });

  it('fills the budget with the remaining tests by (depth, nodeid) when clusters run out', () => {
    expect(selectTests(clusters, tests, 4)).toEqual(['t.py::a1', 't.py::c1', 't.py::b1', 't.py::a2']);
    expect(selectTests(clusters, tests, 5)).toEqual(['t.py::a1', 't.py::c1', 't.py::b1', 't.py::a2', 't.py::a3']);
    expect(selectTests(clusters, tests, 10)).toHaveLength(5);
  });

  it('selects everything with an infinite budget and nothing from no tests', () => {
    expect(selectTests(clusters, tests, Infinity)).toHaveLength(5);
    expect(selectTests([], [], 3)).toEqual([]);
  });
});

describe('tests that timed out blank', () => {
  it('come after every test that did not: as representative, as cluster, and in the fill', () => {
    const tests: ChainedTest[] = [
      { nodeid: 't.py::test_hangs', chain: ['t.py::test_hangs', 'm.py::retry', 'm.py::target'], timedOut: true },
      { nodeid: 't.py::test_retry_deep', chain: ['t.py::test_retry_deep', 'm.py::x', 'm.py::retry', 'm.py::target'] },
      { nodeid: 't.py::test_loops', chain: ['t.py::test_loops', 'm.py::target'], timedOut: true },
      { nodeid: 't.py::test_deep', chain: ['t.py::test_deep', 'm.py::a', 'm.py::b', 'm.py::use', 'm.py::target'] },
    ];
    const clusters = clusterTests(tests);
    // test_loops (depth 1) would lead by depth; it timed out, so the deeper clusters come first.
    expect(clusters.map((c) => [c.caller, c.representative])).toEqual([
      ['m.py::retry', 't.py::test_retry_deep'],
      ['m.py::use', 't.py::test_deep'],
      ['t.py::test_loops', 't.py::test_loops'],
    ]);
    expect(clusters[0]!.tests).toEqual(['t.py::test_retry_deep', 't.py::test_hangs']);
    expect(selectTests(clusters, tests, 2)).toEqual(['t.py::test_retry_deep', 't.py::test_deep']);
    expect(selectTests(clusters.slice(0, 1), tests, 3)).toEqual([
      't.py::test_retry_deep',
      't.py::test_deep',
      't.py::test_loops',
    ]);
  });
});

describe('variants of one parametrized test', () => {
  it('are one test function: the node id without its [...] parameters', () => {
    expect(testFunction('t.py::test_x[a-1]')).toBe('t.py::test_x');
    expect(testFunction('t.py::C::test_x[a::b[c]]')).toBe('t.py::C::test_x');
    expect(testFunction('tests/[odd]/t.py::test_y')).toBe('tests/[odd]/t.py::test_y');
    expect(testFunction('tests/test_import.py')).toBe('tests/test_import.py');
    expect(
      distinctFunctionsFirst(
        ['t.py::a[1]', 't.py::a[2]', 't.py::b', 't.py::c[1]', 't.py::c[2]'].map((nodeid) => ({ nodeid })),
      ),
    ).toEqual(['t.py::a[1]', 't.py::b', 't.py::c[1]', 't.py::a[2]', 't.py::c[2]']);
  });

  it('do not fill the selection while another test function is left, across clusters and in the fill', () => {
    // Each variant calls the target through another function: three clusters, one test function.
    const tests = [
      t('t.py::test_x[f]', 't.py::test_x', 'm.py::f', 'm.py::target'),
      t('t.py::test_x[g]', 't.py::test_x', 'm.py::g', 'm.py::target'),
      t('t.py::test_x[h]', 't.py::test_x', 'm.py::h', 'm.py::target'),
      t('t.py::test_y', 't.py::test_y', 'm.py::u', 'm.py::f', 'm.py::target'),
      t('t.py::test_z', 't.py::test_z', 'm.py::v', 'm.py::w', 'm.py::g', 'm.py::target'),
    ];
    const clusters = clusterTests(tests);
    expect(clusters.map((c) => c.representative)).toEqual(['t.py::test_x[f]', 't.py::test_x[g]', 't.py::test_x[h]']);
    // Distinct functions first: test_z stands for g's cluster, test_y fills; then h's cluster, with a second variant.
    expect(selectTests(clusters, tests, 3)).toEqual(['t.py::test_x[f]', 't.py::test_z', 't.py::test_y']);
    expect(selectTests(clusters, tests, 4)).toEqual([
      't.py::test_x[f]',
      't.py::test_z',
      't.py::test_y',
      't.py::test_x[h]',
    ]);
    expect(selectTests(clusters, tests, Infinity)).toEqual([
      't.py::test_x[f]',
      't.py::test_z',
      't.py::test_y',
      't.py::test_x[h]',
      't.py::test_x[g]',
    ]);
  });

  it("let a cluster's later test of another function stand for it, and take a second variant only when nothing else is left", () => {
    const tests = [
      t('t.py::test_p[1]', 't.py::test_p', 'm.py::a', 'm.py::target'),
      t('t.py::test_p[2]', 't.py::test_p', 'm.py::a', 'm.py::target'),
      t('t.py::test_p[3]', 't.py::test_p', 'm.py::b', 'm.py::target'),
      t('t.py::test_q', 't.py::test_q', 'x.py::w', 'm.py::b', 'm.py::target'),
    ];
    const clusters = clusterTests(tests);
    expect(clusters.map((c) => c.representative)).toEqual(['t.py::test_p[1]', 't.py::test_p[3]']);
    expect(selectTests(clusters, tests, 2)).toEqual(['t.py::test_p[1]', 't.py::test_q']);
    expect(selectTests(clusters, tests, 3)).toEqual(['t.py::test_p[1]', 't.py::test_q', 't.py::test_p[2]']);
  });
});

describe('variants a decorator generates, and a test several classes inherit', () => {
  /** A failing test as THM reports it: entered by the test itself (its chain's first frame) unless `entryKind` says otherwise. */
  const failing = (nodeid: string, chain: string[], entryKind: ThmFailingTest['entryKind'] = 'test') =>
    ({ nodeid, reached: true, chain, caller: null, timedOut: false, entryKind }) as unknown as ThmFailingTest;

  it("are one test function, the one their chains enter by: libcst's @data_provider makes test_valid_0, test_valid_1 of test_valid", () => {
    const reached = chainedTests([
      failing('t.py::Behaviour::test_flatten_0', ['t.py::Behaviour.test_flatten', 'm.py::visit', 'm.py::target']),
      failing('t.py::Behaviour::test_flatten_1', ['t.py::Behaviour.test_flatten', 'm.py::visit', 'm.py::target']),
      failing('t.py::Behaviour::test_removal_0', ['t.py::Behaviour.test_removal', 'm.py::visit', 'm.py::target']),
      failing('t.py::test_visit', ['t.py::test_visit', 'm.py::target']),
    ]);
    const clusters = clusterTests(reached);
    // Not test_flatten_1 before test_removal_0: that is test_flatten again.
    expect(selectTests(clusters, reached, 3)).toEqual([
      't.py::test_visit',
      't.py::Behaviour::test_flatten_0',
      't.py::Behaviour::test_removal_0',
    ]);
    expect(
      distinctFunctionsFirst([
        failing('t.py::A::test_x', ['base.py::Mixin.test_x', 'm.py::target']),
        failing('t.py::B::test_x', ['base.py::Mixin.test_x', 'm.py::target']),
        failing('t.py::A::test_y', ['t.py::A.test_y', 'm.py::target']),
      ]),
    ).toEqual(['t.py::A::test_x', 't.py::A::test_y', 't.py::B::test_x']);
  });

  it('a chain entered by a fixture names no test function: tests that share the fixture stay distinct', () => {
    const reached = chainedTests([
      failing('t.py::test_a', ['conftest.py::db', 'm.py::target'], 'fixture'),
      failing('t.py::test_b', ['conftest.py::db', 'm.py::target'], 'fixture'),
    ]);
    expect(reached.map((test) => test.entry)).toEqual([undefined, undefined]);
    expect(selectTests(clusterTests(reached), reached, 2)).toEqual(['t.py::test_a', 't.py::test_b']);
  });
});
