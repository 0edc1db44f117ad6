import type { Cluster, ThmFailingTest } from '../protocol/thm-report';

/**
 * THM's clustering and selection (TENET paper, Test Harness Mechanism), as pure functions over
 * reached failing tests, with the exact tie-breaking rules tenet documents.
 */
export interface ChainedTest {
  nodeid: string;
  /** `relpath::qualname` from the entry (test or fixture) down to the target (last). */
  chain: string[];
  /** The direct caller, where the chain's frames said which code is the repository's (see directCaller). */
  caller?: string | null;
  /** It ran out of time in the blank world (it retries the target forever): every run of it would wait out the timeout. */
  timedOut?: boolean;
  /** The test function its chain enters by, when the entry is the test itself (see entryFunction). */
  entry?: string;
}

/** A frame of a chain; `outside`: its code is none of the repository's own; `wrapper`: a decorator's plumbing around the target. */
export interface CallerFrame {
  name: string;
  outside?: boolean;
  wrapper?: boolean;
}

const COMPREHENSION = /<(listcomp|dictcomp|setcomp|genexpr)>$/;

/**
 * How THM names a failing test's direct caller. `use` (the default): the nearest frame that uses
 * the target, past its plumbing (see directCaller). `nearest`: the TENET paper's literal rule,
 * the nearest frame that is not a comprehension, library code and wrappers included, for
 * reproducing its tables.
 */
export type CallerRule = 'use' | 'nearest';
export const CALLER_RULES: readonly CallerRule[] = ['use', 'nearest'];

export function depthOf(test: ChainedTest): number {
  return test.chain.length - 1;
}

/**
 * The rule `use`: the nearest frame above the target that uses it: the repository's own code, not
 * a comprehension or generator expression, and not the target's plumbing (a frame that holds the
 * target without naming it: its decorators' wrappers, a dispatcher such as sympy's
 * `Printer._print`; see _wrappers_above in source/python/_tenet_probe). The paper clusters by
 * the function that invokes the target because each caller shows another use of it; plumbing
 * between a use and the target — the repository's own, or the standard library's and installed
 * packages' (`functools.cached_property.__get__`, the helper of `contextlib.contextmanager`,
 * `functools.singledispatch`'s wrapper, a dataclass's generated `__eq__`) — would put every use
 * under one name. With no such frame, the nearest one that is not plumbing (library code), else
 * the entry: never a plumbing frame. The rule `nearest`: the nearest frame that is not a
 * comprehension, whatever it is.
 */
export function directCaller(chain: readonly (string | CallerFrame)[], rule: CallerRule = 'use'): string | null {
  const frames = chain.map((frame) => (typeof frame === 'string' ? { name: frame } : frame));
  const above = frames
    .slice(0, -1)
    .reverse()
    .filter((frame) => !COMPREHENSION.test(frame.name));
  if (rule === 'nearest') return above[0]?.name ?? null;
  return (
    (above.find((frame) => !frame.outside && !frame.wrapper) ?? above.find((frame) => !frame.wrapper) ?? above.at(-1))
      ?.name ?? null
  );
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The order THM picks tests in: shortest chain first (the paper's), then node id; a test that
 * timed out blank comes after every one that did not, since each validation would wait out its
 * timeout (60 s by default) until the implementation is right.
 */
export function byPreference(a: ChainedTest, b: ChainedTest): number {
  return Number(!!a.timedOut) - Number(!!b.timedOut) || depthOf(a) - depthOf(b) || byString(a.nodeid, b.nodeid);
}

/** Groups tests by direct caller; clusters ordered by (representative depth, size desc, caller). */
export function clusterTests(tests: readonly ChainedTest[]): Cluster[] {
  const groups = new Map<string, ChainedTest[]>();
  for (const test of tests) {
    const caller = (test.caller !== undefined ? test.caller : directCaller(test.chain)) ?? '(none)';
    const group = groups.get(caller);
    if (group) group.push(test);
    else groups.set(caller, [test]);
  }
  const clusters = [...groups].map(([caller, members]) => {
    const sorted = [...members].sort(byPreference);
    return {
      cluster: {
        caller,
        tests: sorted.map((t) => t.nodeid),
        representative: sorted[0]!.nodeid,
        depth: depthOf(sorted[0]!),
      },
      hangs: !!sorted[0]!.timedOut,
    };
  });
  // A cluster whose every test timed out blank comes last.
  clusters.sort(
    (a, b) =>
      Number(a.hangs) - Number(b.hangs) ||
      a.cluster.depth - b.cluster.depth ||
      b.cluster.tests.length - a.cluster.tests.length ||
      byString(a.cluster.caller, b.cluster.caller),
  );
  return clusters.map(({ cluster }) => cluster);
}

/**
 * The test function a node id runs: the node id without its `[...]` parameters
 * (`t.py::test_x[a-1]` → `t.py::test_x`). A module that failed to import is its own.
 */
export function testFunction(nodeid: string): string {
  // Past the file's path (which may hold `[` but never `::`), a name holds no `[`: the first one opens the parameters.
  const names = nodeid.indexOf('::');
  const bracket = names === -1 ? -1 : nodeid.indexOf('[', names);
  return bracket === -1 ? nodeid : nodeid.slice(0, bracket);
}

/** A failing test as THM reports it, reduced to what tells which test function it runs. */
interface Entered {
  nodeid: string;
  chain?: readonly string[] | null;
  entryKind?: string | null;
}

/**
 * The test function a failing test runs, when its chain enters by the test itself: the chain's
 * first frame. Variants a decorator generates (libcst's `@data_provider` turns `test_valid` into
 * `test_valid_0`, `test_valid_1`…, as `parameterized` does) and a mixin's test that several
 * classes inherit run one function under several node ids; the chain names it.
 */
export function entryFunction(test: Entered): string | undefined {
  return test.entryKind === 'test' && test.chain && test.chain.length >= 2 ? test.chain[0] : undefined;
}

/** Each failing test's entry function, where its chain names one (for hiding the test's source: see task/hide-tests.ts). */
export function entryFunctions(failing: readonly ThmFailingTest[]): Map<string, string> {
  return new Map(
    failing.flatMap((f) => {
      const entry = entryFunction(f);
      return entry ? [[f.nodeid, entry] as const] : [];
    }),
  );
}

/** The failing tests that reached the target, as clustering and selection take them. */
export function chainedTests(failing: readonly ThmFailingTest[]): ChainedTest[] {
  return failing
    .filter((f) => f.reached)
    .map((f) => ({
      nodeid: f.nodeid,
      chain: f.chain,
      caller: f.caller,
      timedOut: f.timedOut,
      entry: entryFunction(f),
    }));
}

/** What counts as one test function when tests are chosen for diversity: its entry, else its node id without parameters. */
const functionOf = (test: { nodeid: string; entry?: string | undefined }) => test.entry ?? testFunction(test.nodeid);

/**
 * Tests in their order, except that a further variant of a test function already listed waits
 * until every function has had its first: `a[1] a[2] b c[1]` → `a[1] b c[1] a[2]`.
 */
export function distinctFunctionsFirst(tests: readonly Entered[]): string[] {
  const seen = new Set<string>();
  const first: string[] = [];
  const later: string[] = [];
  for (const test of tests) {
    const fn = functionOf({ nodeid: test.nodeid, entry: entryFunction(test) });
    (seen.has(fn) ? later : first).push(test.nodeid);
    seen.add(fn);
  }
  return [...first, ...later];
}

/**
 * At most `limit` tests, in two rounds. In the first only tests of a test function not selected
 * yet qualify (see entryFunction; variants of one parametrized test would otherwise fill the budget: the paper wants
 * diverse tests), in the second every test left. Each round takes, for every cluster in order
 * that has no selected test yet, its first qualifying test; then fills the budget with the
 * remaining qualifying tests by (depth, nodeid; timed-out last). Without parametrized tests this
 * is one representative per cluster, then the rest in that order.
 */
export function selectTests(clusters: readonly Cluster[], tests: readonly ChainedTest[], limit: number): string[] {
  const selected: string[] = [];
  const chosen = new Set<string>();
  const functions = new Set<string>();
  const represented = new Set<Cluster>();
  const clusterOf = new Map<string, Cluster>();
  for (const cluster of clusters) for (const nodeid of cluster.tests) clusterOf.set(nodeid, cluster);
  const functionOfTest = new Map(tests.map((test) => [test.nodeid, functionOf(test)]));
  const fn = (nodeid: string) => functionOfTest.get(nodeid) ?? testFunction(nodeid);
  const ordered = [...tests].sort(byPreference).map((test) => test.nodeid);
  const take = (nodeid: string) => {
    selected.push(nodeid);
    chosen.add(nodeid);
    functions.add(fn(nodeid));
    const cluster = clusterOf.get(nodeid);
    if (cluster) represented.add(cluster);
  };
  for (const newFunctionsOnly of [true, false]) {
    const qualifies = (nodeid: string) => !chosen.has(nodeid) && !(newFunctionsOnly && functions.has(fn(nodeid)));
    for (const cluster of clusters) {
      if (selected.length >= limit) return selected;
      if (represented.has(cluster)) continue;
      const pick = cluster.tests.find(qualifies);
      if (pick !== undefined) take(pick);
    }
    for (const nodeid of ordered) {
      if (selected.length >= limit) return selected;
      if (qualifies(nodeid)) take(nodeid);
    }
  }
  return selected;
}
