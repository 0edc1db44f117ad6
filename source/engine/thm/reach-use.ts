import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { ReachUse } from '../protocol/thm-report';
import type { PythonInfo } from '../task/interpreter';
import { testFile } from './node-ids';
import { freshness, type Freshness } from './reach-fresh';
import { failedWhenRecorded, loadReachIndex, reachIndexFile, scopeOptions, type ReachIndex } from './reach-index';
import { reachPlan, type ReachTarget, type ReachPlan } from './reach-scope';

/** The index of a repository for a scope's pytest options, with what still holds of it; undefined without one. */
export async function loadFreshIndex(
  repo: string,
  testArgs: readonly string[],
  python: Pick<PythonInfo, 'path' | 'dirs'>,
): Promise<{ index: ReachIndex; fresh: Freshness; file: string } | undefined> {
  const file = reachIndexFile(repo, optionsOf(repo, testArgs));
  const index = loadReachIndex(file);
  if (!index) return undefined;
  return { index, fresh: await freshness(index, python), file };
}

/** A scope's pytest options: its arguments without the paths and node ids (see scopeOptions). */
export function optionsOf(repo: string, testArgs: readonly string[]): string[] {
  return scopeOptions(testArgs, (arg) => existsSync(join(repo, testFile(arg))));
}

/** What THM takes from the index for a run: its plan, and the tests it vouches for on the original code. */
export interface ReachFor {
  plan: ReachPlan;
  index?: ReachIndex;
  /**
   * Whether the index recorded that a test does not fail on the code as it is, and that record
   * still holds: the test's original world, for the tests the plan runs (see observeTwoPass).
   */
  passesOriginal?: (nodeid: string) => boolean;
}

/** The plan for THM's run of `target` (see reachPlan), or why the index is not used. */
export async function planReach(
  repo: string,
  testArgs: readonly string[],
  python: Pick<PythonInfo, 'path' | 'dirs'>,
  target: ReachTarget,
): Promise<ReachFor> {
  const found = await loadFreshIndex(repo, testArgs, python);
  if (!found)
    return { plan: { used: false, why: 'no reach index for this scope yet (tenet index --reach builds one)' } };
  const { index, fresh } = found;
  const plan = reachPlan(index, fresh, target);
  if (!plan.used) return { plan, index };
  return { plan, index, passesOriginal: passesAsRecorded(index, fresh) };
}

/**
 * Which tests the index vouches for on the original code (see ReachFor.passesOriginal): those
 * whose record holds, and which did not fail when recorded. A recorded failure is not taken: the
 * recorder's probe in every function could be its cause (a test that looks at the code objects
 * it compiled), and such tests are few, since each of them runs in every scope anyway.
 */
export function passesAsRecorded(index: ReachIndex, fresh: Freshness): (nodeid: string) => boolean {
  return (nodeid) => {
    const outcome = fresh.stale.has(nodeid) ? undefined : index.tests[nodeid]?.outcome;
    return outcome !== undefined && !failedWhenRecorded(outcome);
  };
}

/**
 * Said before THM runs (and in its report): the index knows no test that calls the target, and
 * none of its records is stale, so only tests it does not know can fail: most likely none.
 */
export function unreachedWarning(target: string, plan: ReachPlan): string | undefined {
  if (!plan.used || plan.reaching > 0 || plan.stale > 0) return undefined;
  return `The reach index records no test that calls ${target} (of the ${plan.of} tests it knows): only tests it does not know can fail. Widen the scope with --tests, or write a test that calls it.`;
}

/**
 * What the report and `thm.start` say of a plan: before the run, the index's own numbers (of all
 * the tests it knows); after it, the tests that ran of those in the scope.
 */
export function reachUse(plan: ReachPlan, run?: { ran: number; of: number; recordedOriginals?: number }): ReachUse {
  if (!plan.used) return { used: false, why: plan.why };
  return {
    used: true,
    tests: run?.ran ?? plan.tests,
    of: run?.of ?? plan.of,
    stale: plan.stale,
    ...(run?.recordedOriginals ? { recordedOriginals: run.recordedOriginals } : {}),
  };
}

/**
 * The outcomes the index recorded for the tests a run left out: they never call the target, so
 * blank they end as they did then. Counted as the report counts the blank world's.
 */
export function leftOutOutcomes(
  index: ReachIndex,
  leftOut: { files: ReadonlySet<string>; tests: ReadonlySet<string> },
): { collected: number; passed: number; skipped: number } {
  const counts = { collected: 0, passed: 0, skipped: 0 };
  for (const [nodeid, test] of Object.entries(index.tests)) {
    if (!leftOut.tests.has(nodeid) && !leftOut.files.has(testFile(nodeid))) continue;
    counts.collected++;
    if (test.outcome === 'passed' || test.outcome === 'xpassed') counts.passed++;
    else if (test.outcome === 'skipped' || test.outcome === 'xfailed') counts.skipped++;
  }
  return counts;
}

/**
 * The start screen's `N tests reach it`: how many tests the kept index of a scope records as
 * calling each function (`file::qualname`), as recorded (no freshness check: a hint, not a plan).
 * Undefined without an index.
 */
export function reachCounts(repo: string, testArgs: readonly string[]): Map<string, number> | undefined {
  const index = loadReachIndex(reachIndexFile(repo, optionsOf(repo, testArgs)));
  if (!index) return undefined;
  const names = index.functions.map((fn) => `${fn.file}::${fn.qualname}`);
  const counts = new Map<string, number>();
  for (const test of Object.values(index.tests)) {
    // A property's getter and setter share a name: the test counts once for it.
    for (const name of new Set(test.fns.map((fn) => names[fn]!))) counts.set(name, (counts.get(name) ?? 0) + 1);
  }
  return counts;
}
