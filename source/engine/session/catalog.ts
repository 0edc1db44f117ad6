import { existsSync, mkdirSync, readdirSync, statSync } from 'node:fs';
import { LowSync } from 'lowdb';
import { JSONFileSync } from 'lowdb/node';
import type { EngineEvent } from '../events';
import { loadEvents } from './event-log';
import { foldEvents } from './fold';
import { catalogFile, eventsFile, SESSION_ID } from './paths';
import { pidExists } from '../util/processes';

/** `damaged`: the log cannot be read (corrupted or edited by hand); `damage` says why. */
import type { SessionStatus } from './status';

/** One row of sessions/index.json. */
export interface CatalogEntry {
  id: string;
  created: string;
  updated: string;
  repo: string;
  target: string;
  strategy: string;
  provider: string;
  model: string;
  status: SessionStatus;
  pass: boolean | null;
  tokens: { input: number; output: number };
  costUsd: number;
  /** The process writing the session while it runs: a dead one means interrupted. */
  pid?: number;
  /** How many events and bytes the log held when this row was written (to notice a stale row). */
  events: number;
  logBytes: number;
  /** Why the log cannot be read (status `damaged`), with the file and line. */
  damage?: string;
  /** A fork: the session it was forked from, and at which of its events. */
  parent?: { id: string; at: number };
}

/**
 * The sessions as a tree, for `tenet sessions`: each fork right under the session it was forked
 * from (`depth` deeper), in the order they were made; a fork whose parent is not listed is a root.
 */
export function sessionTree(rows: readonly CatalogEntry[]): { row: CatalogEntry; depth: number }[] {
  const listed = new Set(rows.map((r) => r.id));
  const children = new Map<string, CatalogEntry[]>();
  for (const row of rows)
    if (row.parent && listed.has(row.parent.id))
      children.set(row.parent.id, [...(children.get(row.parent.id) ?? []), row]);
  const out: { row: CatalogEntry; depth: number }[] = [];
  const visit = (row: CatalogEntry, depth: number) => {
    out.push({ row, depth });
    for (const child of children.get(row.id) ?? []) visit(child, depth + 1);
  };
  for (const row of rows) if (!row.parent || !listed.has(row.parent.id)) visit(row, 0);
  return out;
}

interface CatalogData {
  sessions: CatalogEntry[];
}

/**
 * What the log says about a session, as a catalog row. `logEvents`: the lines of the log, when
 * `events` leaves some out (the recorder keeps no streamed chunks in memory).
 */
export function summarize(
  id: string,
  events: readonly (EngineEvent & { ts?: string })[],
  logBytes: number,
  pid?: number,
  logEvents = events.length,
): CatalogEntry {
  const state = foldEvents(events);
  const start = state.start;
  const result = state.result;
  const error = events.some((e) => e.type === 'error');
  // An unverified verdict is neither: tenet could not check it (issue 34).
  const status: SessionStatus = result
    ? result.pass
      ? 'passed'
      : result.stopReason === 'unverified'
        ? 'unverified'
        : 'failed'
    : error
      ? 'error'
      : state.interrupted
        ? 'interrupted'
        : pid && pidExists(pid)
          ? 'running'
          : 'interrupted';
  return {
    id,
    created: events[0]?.ts ?? new Date().toISOString(),
    updated: events.at(-1)?.ts ?? new Date().toISOString(),
    repo: start?.repo ?? '',
    target: start?.target ?? '',
    strategy: start?.strategy ?? '',
    provider: state.settings?.provider ?? '',
    model: state.settings?.model ?? '',
    status,
    pass: result ? result.pass : null,
    tokens: { input: state.totals.inputTokens, output: state.totals.outputTokens },
    costUsd: state.totals.costUsd,
    ...(status === 'running' && pid ? { pid } : {}),
    events: logEvents,
    logBytes,
    ...(state.forkOf ? { parent: { id: state.forkOf.parent, at: state.forkOf.at } } : {}),
  };
}

/** The row of a session whose log cannot be read: what the catalog knew, marked damaged. */
function damaged(
  id: string,
  row: CatalogEntry | undefined,
  log: { size: number; mtime: Date },
  reason: string,
): CatalogEntry {
  const { pid: _pid, ...known } = row ?? {
    id,
    created: log.mtime.toISOString(),
    updated: log.mtime.toISOString(),
    repo: '',
    target: '',
    strategy: '',
    provider: '',
    model: '',
    pass: null,
    tokens: { input: 0, output: 0 },
    costUsd: 0,
    events: 0,
  };
  return { ...known, id, status: 'damaged', logBytes: log.size, damage: reason };
}

/**
 * The catalog of every session (sessions/index.json, kept with lowdb, written atomically). It is
 * a cache of what the logs say: rows are updated at milestones, and `list` repairs any row that
 * disagrees with its log (a session killed before it could update its row, a lost update).
 */
export class Catalog {
  constructor(readonly root: string) {}

  private db(): LowSync<CatalogData> {
    mkdirSync(this.root, { recursive: true });
    const db = new LowSync<CatalogData>(new JSONFileSync(catalogFile(this.root)), { sessions: [] });
    try {
      db.read();
    } catch {
      db.data = { sessions: [] }; // a damaged catalog is rebuilt from the logs
    }
    if (!Array.isArray(db.data?.sessions)) db.data = { sessions: [] };
    return db;
  }

  upsert(entry: CatalogEntry): void {
    const db = this.db();
    db.data.sessions = [...db.data.sessions.filter((s) => s.id !== entry.id), entry].sort((a, b) =>
      a.created < b.created ? -1 : 1,
    );
    db.write();
  }

  /** Every session, with rows rebuilt from the logs where they disagree. */
  list(): CatalogEntry[] {
    const db = this.db();
    const rows = new Map(db.data.sessions.map((s) => [s.id, s]));
    const folders = existsSync(this.root)
      ? readdirSync(this.root, { withFileTypes: true }).filter(
          (d) => d.isDirectory() && SESSION_ID.test(d.name) && existsSync(eventsFile(this.root, d.name)),
        )
      : [];
    let changed = rows.size !== folders.length;
    const repaired: CatalogEntry[] = [];
    for (const folder of folders) {
      const row = rows.get(folder.name);
      const stat = statSync(eventsFile(this.root, folder.name));
      const bytes = stat.size;
      // A finished row whose log has not grown is trusted; everything else is read again (a
      // damaged log too: a hand fix may keep its size).
      if (row && row.logBytes === bytes && row.status !== 'running' && row.status !== 'damaged') {
        repaired.push(row);
        continue;
      }
      let fresh: CatalogEntry;
      try {
        fresh = summarize(folder.name, loadEvents(eventsFile(this.root, folder.name)).events, bytes, row?.pid);
      } catch (error) {
        // One unreadable log must not hide the others: it is listed, with the reason.
        fresh = damaged(folder.name, row, stat, (error as Error).message);
      }
      if (!row || row.events !== fresh.events || row.status !== fresh.status || row.damage !== fresh.damage)
        changed = true;
      repaired.push(fresh);
    }
    repaired.sort((a, b) => (a.created < b.created ? -1 : 1));
    if (changed) {
      db.data.sessions = repaired;
      db.write();
    }
    return repaired;
  }
}
