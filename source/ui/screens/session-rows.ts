import type { CatalogEntry } from '../../engine/session/catalog';
import type { EngineEvent } from '../../engine/events';
import { columns, padColumns, padStartColumns, shortEnd, shortMiddle, shortStart, wrapText } from '../components/lines';

/** A row of the sessions browser, in columns: every column is there at any width, only narrower. */
export interface SessionCells {
  id: string;
  status: string;
  target: string;
  model: string;
  cost: string;
}

const STATUS = 11; // `interrupted`, `unverified`
const COST = 8; // `$12.3456`
const GAPS = 4;

/** The id as the text list (`tenet sessions`) shows it: a fork under its parent, marked `└`. */
export const treeId = (row: CatalogEntry, depth: number) => (depth ? `${'  '.repeat(depth - 1)}└ ${row.id}` : row.id);

/**
 * The cells of each row at `width` columns (the cursor's two included). The id and status keep
 * their width; the target gets what the model and cost leave, the model at most 28 columns (its
 * provider dropped first when it does not fit). At 80 columns a row still names the model and cost.
 */
export function sessionCells(tree: readonly { row: CatalogEntry; depth: number }[], width: number): SessionCells[] {
  const idWidth = Math.max(0, ...tree.map(({ row, depth }) => columns(treeId(row, depth))));
  const rest = Math.max(20, width - 2 - idWidth - STATUS - COST - GAPS);
  // The target is what tells sessions apart: it gets the larger share (a fork's └ narrows the rest).
  const model = Math.max(8, Math.min(28, Math.floor(rest * 0.38)));
  const target = Math.max(8, rest - model - 1);
  return tree.map(({ row, depth }) => {
    const full = `${row.provider}/${row.model}`;
    return {
      id: padColumns(treeId(row, depth), idWidth),
      status: padColumns(row.status, STATUS),
      // A target's end names the function; a damaged session's reason starts with the file.
      target: padColumns(row.damage ? shortEnd(row.damage, target) : shortStart(row.target, target), target),
      model: padColumns(shortEnd(columns(full) <= model ? full : row.model, model), model),
      cost: padStartColumns(`$${row.costUsd.toFixed(4)}`, COST),
    };
  });
}

/**
 * The lines under the list about the selected session: its target in full (a row cuts its path
 * when columns are few) and, for a fork, whose it is and at which event: two rows at most.
 */
export function selectedLines(row: CatalogEntry, width: number): string[] {
  const fork = row.parent ? ` · fork of ${row.parent.id} at event ${row.parent.at}` : '';
  return wrapText(`${shortMiddle(row.damage ?? row.target, width)}${fork}`, width).slice(0, 2);
}

/** What `r` does with a session: resume it, or why not (only an interrupted session goes on). */
export function resumeRefusal(row: CatalogEntry): string | undefined {
  if (row.status === 'interrupted') return undefined;
  if (row.status === 'running')
    return `Session ${row.id} is running${row.pid ? ` (process ${row.pid})` : ''}: it cannot be resumed while it runs.`;
  if (row.status === 'damaged')
    return `Session ${row.id} cannot be read (${row.damage ?? 'damaged'}): there is nothing to resume.`;
  return `Session ${row.id} has finished (${row.status}): there is nothing to resume. f forks it, to go on from before its evaluation.`;
}

/**
 * Where `f` in the browser forks a session: the event just before the agent's last model call
 * (before the evaluation), so that the live model answers that call and what follows. At the last
 * event before the evaluation itself the fork had nothing left to ask: it replayed the whole
 * history and went straight to the evaluation, at no cost (issue 46.4). Undefined when the agent
 * made no model call.
 */
export function lastForkEvent(events: readonly (EngineEvent & { seq?: number })[]): number | undefined {
  const end = events.findIndex((e) => e.type === 'result' || (e.type === 'agent.phase' && e.phase === 'evaluate'));
  const call = events.slice(0, end === -1 ? events.length : end).findLastIndex((e) => e.type === 'model.request');
  if (call < 1) return undefined;
  return events[call - 1]!.seq ?? call;
}
