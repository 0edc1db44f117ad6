import type { Key } from 'ink';
import type { ThmReport } from '../../engine/protocol/thm-report';
import { QUIT_LIVE_NOTICE } from '../keys';
import { propose } from '../view-state';
import { noPicks, pickerRows, picksText, selectionOf, togglePick, type Picks, type Row } from './thm-picker';

/**
 * The THM review's keys as a pure function: what each key does to the review's state (the cursor,
 * the open clusters, T, the developer's picks, the notice) and what it asks of the screen (an
 * effect: open the filter, the editor, a test's source; approve). Keys can come faster than frames
 * (key repeat on a long list): the screen passes each key the state the key before left.
 */
export interface ReviewState {
  cursor: number;
  /** The open clusters by caller; null until the developer opens or closes one: the first cluster is open. */
  expanded: ReadonlySet<string> | null;
  /** THM's budget the developer chose with + -; undefined: the report's (null is `-T all`). */
  budget?: number | null;
  picks: Picks;
  notice?: string;
}

export const initialReview: ReviewState = { cursor: 0, expanded: null, picks: noPicks };

/** What the review works on beside its state: THM's report, the filter typed, the developer's own tests, a page of rows. */
export interface ReviewContext {
  report: ThmReport;
  filter: string;
  /** The developer's tests that count: they join THM's proposal. */
  developer: readonly string[];
  /** Rows PgUp PgDn move by (what the list shows at once). */
  page: number;
  /** Whether `n` / `e` can open an editor, and `v` a test's source. */
  canWrite: boolean;
  canShowSource: boolean;
}

/** The choice Enter or `a` approves: the tests, and the T they were chosen at (the session records the proposal for it). */
export interface ReviewChoice {
  chosen: string[];
  by: 'human';
  T: number | null;
}

export type ReviewEffect =
  | { kind: 'filter'; text: string }
  | { kind: 'clear-filter' }
  | { kind: 'write'; nodeid?: string }
  | { kind: 'source'; nodeid: string }
  | { kind: 'approve'; choice: ReviewChoice };

export const openClusters = (state: ReviewState, report: ThmReport): ReadonlySet<string> =>
  state.expanded ?? new Set(report.clusters[0] ? [report.clusters[0].caller] : []);

/** THM's budget on screen: the developer's, else the report's (null: `-T all`). */
export const budgetOf = (state: ReviewState, report: ThmReport): number | null =>
  state.budget !== undefined ? state.budget : report.T;

/** THM's proposal for the T on screen, with the developer's own tests (in unless taken out by hand). */
export const baseOf = (state: ReviewState, context: Pick<ReviewContext, 'report' | 'developer'>): string[] => [
  ...new Set([...propose(context.report, budgetOf(state, context.report)), ...context.developer]),
];

/** The tests the review would approve now. */
export const selectionNow = (state: ReviewState, context: Pick<ReviewContext, 'report' | 'developer'>): string[] =>
  selectionOf(baseOf(state, context), state.picks);

const sameRow = (a: Row, b: Row): boolean =>
  a.kind === b.kind &&
  (a.kind === 'cluster'
    ? a.index === (b as typeof a).index
    : a.kind === 'heading'
      ? a.text === (b as typeof a).text
      : a.nodeid === (b as typeof a).nodeid);

/**
 * The filter changed from `from` to `to`. A new filter starts at the top of what it matches; the
 * filter cleared (Esc) keeps the cursor on the row it was on, its cluster opened if it is a test,
 * rather than sending it back to the first cluster.
 */
export function refiltered(state: ReviewState, report: ThmReport, from: string, to: string): ReviewState {
  if (to.trim()) return { ...state, cursor: 0 };
  const open = openClusters(state, report);
  const row = pickerRows(report, open, from)[state.cursor];
  if (!row) return { ...state, cursor: 0 };
  const cluster = row.kind === 'test' && row.cluster !== null ? report.clusters[row.cluster]!.caller : undefined;
  const expanded = cluster && !open.has(cluster) ? new Set(open).add(cluster) : state.expanded;
  const rows = pickerRows(report, expanded ?? open, to);
  return {
    ...state,
    expanded,
    cursor: Math.max(
      0,
      rows.findIndex((r) => sameRow(r, row)),
    ),
  };
}

/** A key, from the state the key before left: the next state, and what the screen must do. */
export function reviewKey(
  previous: ReviewState,
  input: string,
  key: Partial<Key>,
  context: ReviewContext,
): { state: ReviewState; effect?: ReviewEffect } {
  const { report, filter } = context;
  // Any key clears the notice of the key before.
  const { notice: _, ...state } = previous;
  const open = openClusters(state, report);
  const rows = pickerRows(report, open, filter);
  const row = rows[state.cursor];
  const nodeidOf = (r: Row | undefined) =>
    r?.kind === 'test' ? r.nodeid : r?.kind === 'cluster' ? report.clusters[r.index]!.representative : undefined;
  // A test failing for another reason can be read and edited, never selected.
  const readable = (r: Row | undefined) => (r?.kind === 'other' ? r.nodeid : nodeidOf(r));
  const move = (to: number) => ({ state: { ...state, cursor: Math.max(0, Math.min(rows.length - 1, to)) } });
  if (key.upArrow) return move(state.cursor - 1);
  if (key.downArrow) return move(state.cursor + 1);
  if (key.pageUp) return move(state.cursor - context.page);
  if (key.pageDown) return move(state.cursor + context.page);
  if (key.home) return move(0);
  if (key.end) return move(rows.length - 1);
  // `/gross` typed fast comes as one chunk: the filter opens with `gross` in it.
  if (input.startsWith('/')) return { state, effect: { kind: 'filter', text: input.slice(1) } };
  if (key.escape && filter) return { state, effect: { kind: 'clear-filter' } };
  // Nothing here quits (a stray q must not end a session): say what does.
  if (input === 'q' || key.escape) return { state: { ...state, notice: QUIT_LIVE_NOTICE } };
  if (key.rightArrow && row?.kind === 'cluster')
    return { state: { ...state, expanded: new Set(open).add(report.clusters[row.index]!.caller) } };
  if (key.leftArrow && row) {
    const index = row.kind === 'cluster' ? row.index : row.kind === 'test' ? row.cluster : null;
    if (index === null) return { state };
    const next = new Set(open);
    next.delete(report.clusters[index]!.caller);
    // The cluster's row comes before its tests: it is where it was.
    return {
      state: {
        ...state,
        expanded: next,
        cursor: Math.max(
          0,
          rows.findIndex((r) => r.kind === 'cluster' && r.index === index),
        ),
      },
    };
  }
  if (input === ' ' && row?.kind === 'other')
    return {
      state: {
        ...state,
        notice: `Not selectable: ${row.nodeid} never reaches the target (it fails for another reason)`,
      },
    };
  if (input === ' ' && row) {
    const nodeid = nodeidOf(row);
    return nodeid ? { state: { ...state, picks: togglePick(state.picks, baseOf(state, context), nodeid) } } : { state };
  }
  if (input === '+' || input === '-') {
    // A new T proposes again; the tests taken in or out by hand stay so. From `all`, `-` goes
    // below what all of them select; `+` stays at all.
    const now = budgetOf(state, report);
    if (now === null && input === '+') return { state };
    const budget = Math.max(1, (now ?? propose(report, null).length) + (input === '+' ? 1 : -1));
    const kept = picksText(propose(report, budget), state.picks);
    return {
      state: {
        ...state,
        budget,
        ...(kept ? { notice: `T=${budget}: THM proposed again, and kept your picks (${kept})` } : {}),
      },
    };
  }
  if ((input === 'n' || (input === 'e' && readable(row))) && context.canWrite)
    return { state, effect: input === 'n' ? { kind: 'write' } : { kind: 'write', nodeid: readable(row)! } };
  if (input === 'v' && row && context.canShowSource) {
    const nodeid = readable(row);
    return nodeid ? { state, effect: { kind: 'source', nodeid } } : { state };
  }
  if (key.return) {
    const chosen = selectionNow(state, context);
    return chosen.length
      ? { state, effect: { kind: 'approve', choice: { chosen, by: 'human', T: budgetOf(state, report) } } }
      : { state };
  }
  if (input === 'a')
    return { state, effect: { kind: 'approve', choice: { chosen: report.selected, by: 'human', T: report.T } } };
  return { state };
}
