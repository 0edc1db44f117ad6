import { isTestPath, type RepoIndex } from '../index/repo-index';
import type { PlanTarget } from '../protocol/plan';
import type { PlanPlace } from '../task/plan-targets';
import { findTargetUsages } from '../tools/target-usage';
import { planTargetName } from '../phrase-book';

/** How far back through callers the call graph is walked: tests reach most functions in a few calls. */
const DEPTH = 5;

const key = (file: string, qualname: string) => `${file}::${qualname}`;

/** A test function's pytest node id from its file and qualname (`Class.test_x` → `Class::test_x`). */
const nodeid = (file: string, qualname: string) => `${file}::${qualname.replaceAll('.', '::')}`;

/**
 * What the code shows of each target before any test runs: the tests that reach it, by the
 * index's call graph (its resolved call sites, walked back from the target through its callers),
 * and the other targets it needs: a target whose code (a partial body, a helper it calls, an
 * example in its docstring) calls another target needs that one implemented first. A stub calls
 * nothing, so for stubs alone the code shows no order: file order stands, and the run defers a
 * target whose tests stop in another's stub (see plan-run.ts).
 */
export function planTargets(index: RepoIndex, places: readonly PlanPlace[]): PlanTarget[] {
  const byKey = new Map(places.map((p) => [key(p.file, p.qualname), p]));
  const needs = new Map<string, { target: string; because: string }[]>(places.map((p) => [p.target, []]));
  const need = (caller: PlanPlace, callee: PlanPlace, because: string) => {
    const list = needs.get(caller.target)!;
    if (caller !== callee && !list.some((n) => n.target === callee.target))
      list.push({ target: callee.target, because });
  };
  const reaches = new Map<string, string[]>();
  for (const place of places) {
    const tests = new Set<string>();
    // Breadth first from the target back through its callers: each function once, by its shortest path.
    const seen = new Set([key(place.file, place.qualname)]);
    let frontier = [{ file: place.file, qualname: place.qualname, via: [] as string[] }];
    for (let depth = 0; depth < DEPTH && frontier.length; depth++) {
      const next: typeof frontier = [];
      for (const at of frontier) {
        for (const site of findTargetUsages(index, at)) {
          const enclosing = site.call.enclosing;
          if (!site.resolved || !enclosing) continue;
          const callerKey = key(site.file.path, enclosing);
          if (seen.has(callerKey)) continue;
          seen.add(callerKey);
          const caller = byKey.get(callerKey);
          if (caller)
            need(
              caller,
              place,
              at.via.length
                ? `${caller.qualname} calls ${[...at.via].reverse().join(', which calls ')}, which calls ${place.qualname}`
                : `${caller.qualname} calls ${place.qualname}`,
            );
          if (isTestPath(site.file.path) && /(^|\.)test/.test(enclosing)) tests.add(nodeid(site.file.path, enclosing));
          else next.push({ file: site.file.path, qualname: enclosing, via: [...at.via, enclosing] });
        }
      }
      frontier = next;
    }
    reaches.set(place.target, [...tests].sort());
  }
  // A docstring's examples are code too: `>>> describe(2, 3)` in one target's docstring needs describe.
  for (const caller of places) {
    const entry = index.file(caller.file)?.functions.find((f) => f.qualname === caller.qualname);
    const examples = (entry?.docstring ?? '')
      .split('\n')
      .filter((line) => /^\s*(>>>|\.\.\.)\s/.test(line))
      .join('\n');
    for (const callee of places) {
      const name = callee.qualname.split('.').pop()!;
      if (callee !== caller && new RegExp(`(^|[^\\w.])(\\w+\\.)?${name}\\(`).test(examples))
        need(caller, callee, `an example in ${caller.qualname}'s docstring calls ${name}`);
    }
  }
  return places.map((place) => ({
    target: place.target,
    file: place.file,
    qualname: place.qualname,
    nth: place.nth,
    signature: place.signature,
    summary: place.summary,
    reaches: reaches.get(place.target) ?? [],
    needs: needs.get(place.target) ?? [],
  }));
}

/**
 * The order to implement the targets in: callees before their callers where the code shows it
 * (`needs`), otherwise the order given (file order). A cycle is broken at the target given first.
 * Returns the order and why, one line per target the code moved.
 */
export function proposeOrder(targets: readonly PlanTarget[]): { order: string[]; why: string[] } {
  const left = [...targets];
  const order: string[] = [];
  const why: string[] = [];
  while (left.length) {
    // The first target (in the given order) whose needs are placed; else, a cycle, the first left.
    const ready = left.find((t) => t.needs.every((n) => order.includes(n.target) || !inPlan(targets, n)));
    const next = ready ?? left[0]!;
    left.splice(left.indexOf(next), 1);
    order.push(next.target);
  }
  for (const target of targets)
    for (const need of target.needs)
      if (inPlan(targets, need) && order.indexOf(need.target) < order.indexOf(target.target))
        why.push(`${planTargetName(need.target)} goes before ${planTargetName(target.target)}: ${need.because}`);
  if (!why.length)
    why.push(
      targets.length > 1
        ? "file order: the code shows no target calling another (a stub calls nothing yet); a target whose tests stop in another's stub waits for it"
        : 'one target',
    );
  return { order, why };
}

const inPlan = (targets: readonly PlanTarget[], need: { target: string }) =>
  targets.some((t) => t.target === need.target);
