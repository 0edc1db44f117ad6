import type { ThmReport } from '../../engine/protocol/thm-report';
import { naturalOrder } from '../../engine/util/natural-order';

/**
 * The THM review's list and the developer's picks, as pure functions: the rows (filtered by `/`),
 * where the cursor is in them, and the selection a change of T does not undo.
 */

export type Row =
  | { kind: 'cluster'; index: number }
  | { kind: 'test'; nodeid: string; cluster: number | null }
  /** Stub mode: a failing test that is not the target's (it never reached it); it cannot be selected. */
  | { kind: 'other'; nodeid: string }
  | { kind: 'heading'; text: string };

/**
 * A cluster's tests as the list shows them: in THM's order of preference (a test that timed out
 * last, then the shortest chain), and among equals in natural order (a parametrized test's `[2]`
 * before its `[10]`), not in the order of their text.
 */
export function testsOfCluster(report: ThmReport, index: number): string[] {
  const rank = new Map(report.failing.map((f) => [f.nodeid, [Number(!!f.timedOut), f.depth ?? Infinity] as const]));
  const of = (id: string) => rank.get(id) ?? ([0, Infinity] as const);
  return [...report.clusters[index]!.tests].sort(
    (a, b) => of(a)[0] - of(b)[0] || of(a)[1] - of(b)[1] || naturalOrder(a, b),
  );
}

/** Every word of the filter in the text, case aside (an empty filter matches everything). */
export function matches(text: string, filter: string): boolean {
  const words = filter.toLowerCase().split(/\s+/).filter(Boolean);
  const lower = text.toLowerCase();
  return words.every((w) => lower.includes(w));
}

/**
 * The rows of the picker: clusters (expandable to their tests; `expanded` names the open ones by
 * their caller), then tests that never reached the target, then (stub mode) the tests that fail
 * for another reason, apart, since they are not the target's. With a filter, a cluster shows when its caller or one of its tests matches, and under it
 * (open without asking) the tests that match; every test when only the caller does and it is open.
 */
export function pickerRows(report: ThmReport, expanded: ReadonlySet<string>, filter = ''): Row[] {
  const rows: Row[] = [];
  const filtering = filter.trim() !== '';
  report.clusters.forEach((cluster, index) => {
    const all = testsOfCluster(report, index);
    const tests = filtering ? all.filter((t) => matches(t, filter)) : all;
    const callerMatches = matches(cluster.caller, filter);
    if (filtering && !tests.length && !callerMatches) return;
    rows.push({ kind: 'cluster', index });
    // Open by its caller, not its place: a list proposed again (a new T, the developer's tests) keeps the same clusters open.
    const shown = filtering && tests.length ? tests : expanded.has(cluster.caller) ? all : [];
    for (const nodeid of shown) rows.push({ kind: 'test', nodeid, cluster: index });
  });
  const unreached = report.failing
    .filter((f) => !f.reached && matches(f.nodeid, filter))
    .sort((a, b) => naturalOrder(a.nodeid, b.nodeid));
  if (unreached.length) {
    rows.push({ kind: 'heading', text: `Failing without reaching the target (${unreached.length})` });
    for (const test of unreached) rows.push({ kind: 'test', nodeid: test.nodeid, cluster: null });
  }
  const others = (report.otherFailures ?? [])
    .filter((f) => matches(f.nodeid, filter))
    .sort((a, b) => naturalOrder(a.nodeid, b.nodeid));
  if (others.length) {
    rows.push({ kind: 'heading', text: `Failing for another reason (${others.length}): not the target's tests` });
    for (const test of others) rows.push({ kind: 'other', nodeid: test.nodeid });
  }
  return rows;
}

/** Where the cursor is: `test 12/236 of m.py::g`, `cluster 3/12`, `12/40 rows`. */
export function rowPosition(report: ThmReport, rows: readonly Row[], cursor: number): string {
  const row = rows[cursor];
  if (!row) return '';
  if (row.kind === 'cluster') {
    const clusters = rows.filter((r) => r.kind === 'cluster');
    return `cluster ${clusters.indexOf(row) + 1}/${clusters.length}`;
  }
  if (row.kind === 'test' && row.cluster !== null) {
    const all = testsOfCluster(report, row.cluster);
    return `test ${all.indexOf(row.nodeid) + 1}/${all.length} of its cluster`;
  }
  if (row.kind === 'test') {
    const unreached = rows.filter((r) => r.kind === 'test' && r.cluster === null);
    return `test ${unreached.indexOf(row) + 1}/${unreached.length} not reaching the target`;
  }
  if (row.kind === 'other') {
    const others = rows.filter((r) => r.kind === 'other');
    return `test ${others.indexOf(row) + 1}/${others.length} failing for another reason`;
  }
  return '';
}

/** The tests the developer took in or out by hand: they stay taken when T changes and THM proposes again. */
export interface Picks {
  added: readonly string[];
  removed: readonly string[];
}

export const noPicks: Picks = { added: [], removed: [] };

/** THM's proposal for the T on screen, with the developer's picks applied. */
export function selectionOf(proposal: readonly string[], picks: Picks): string[] {
  return [...proposal.filter((t) => !picks.removed.includes(t)), ...picks.added.filter((t) => !proposal.includes(t))];
}

/** Space on a test: out if it is in the selection, in if it is not; a pick that undoes another cancels it. */
export function togglePick(picks: Picks, proposal: readonly string[], nodeid: string): Picks {
  const selected = selectionOf(proposal, picks).includes(nodeid);
  const without = (list: readonly string[]) => list.filter((t) => t !== nodeid);
  if (selected)
    return picks.added.includes(nodeid)
      ? { ...picks, added: without(picks.added) }
      : { ...picks, removed: [...picks.removed, nodeid] };
  return picks.removed.includes(nodeid)
    ? { ...picks, removed: without(picks.removed) }
    : { ...picks, added: [...picks.added, nodeid] };
}

/** `2 added and 1 removed`, counting only the picks that still change the proposal ('' when none does). */
export function picksText(proposal: readonly string[], picks: Picks): string {
  const added = picks.added.filter((t) => !proposal.includes(t)).length;
  const removed = picks.removed.filter((t) => proposal.includes(t)).length;
  const parts = [added ? `${added} added` : '', removed ? `${removed} removed` : ''].filter(Boolean);
  return parts.join(' and ');
}
