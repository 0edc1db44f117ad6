import type { Cluster } from '../protocol/thm-report';

/**
 * THM's clustering and selection (TENET paper, Test Harness Mechanism), as pure functions over
 * reached failing tests, with the exact tie-breaking rules tenet documents.
 */
export interface ChainedTest {
  nodeid: string;
  /** `relpath::qualname` from the entry (test or fixture) down to the target (last). */
  chain: string[];
}

const COMPREHENSION = /<(listcomp|dictcomp|setcomp|genexpr)>$/;

export function depthOf(test: ChainedTest): number {
  return test.chain.length - 1;
}

/** The nearest frame above the target that is not a comprehension or generator expression. */
export function directCaller(chain: readonly string[]): string | null {
  for (let i = chain.length - 2; i >= 0; i--) {
    if (!COMPREHENSION.test(chain[i]!)) return chain[i]!;
  }
  return null;
}

const byString = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

export function byDepthThenNodeid(a: ChainedTest, b: ChainedTest): number {
  return depthOf(a) - depthOf(b) || byString(a.nodeid, b.nodeid);
}

/** Groups tests by direct caller; clusters ordered by (representative depth, size desc, caller). */
export function clusterTests(tests: readonly ChainedTest[]): Cluster[] {
  const groups = new Map<string, ChainedTest[]>();
  for (const test of tests) {
    const caller = directCaller(test.chain) ?? '(none)';
    const group = groups.get(caller);
    if (group) group.push(test);
    else groups.set(caller, [test]);
  }
  const clusters = [...groups].map(([caller, members]): Cluster => {
    const sorted = [...members].sort(byDepthThenNodeid);
    return { caller, tests: sorted.map((t) => t.nodeid), representative: sorted[0]!.nodeid, depth: depthOf(sorted[0]!) };
  });
  return clusters.sort((a, b) => a.depth - b.depth || b.tests.length - a.tests.length || byString(a.caller, b.caller));
}

/**
 * At most `limit` tests: one representative from each of the first clusters; when there are fewer
 * clusters than the limit, the remaining reached tests by (depth, nodeid) fill the budget.
 */
export function selectTests(clusters: readonly Cluster[], tests: readonly ChainedTest[], limit: number): string[] {
  const selected = clusters.slice(0, Math.min(limit, clusters.length)).map((c) => c.representative);
  if (selected.length < limit) {
    const chosen = new Set(selected);
    for (const test of [...tests].sort(byDepthThenNodeid)) {
      if (selected.length >= limit) break;
      if (!chosen.has(test.nodeid)) {
        selected.push(test.nodeid);
        chosen.add(test.nodeid);
      }
    }
  }
  return selected;
}
