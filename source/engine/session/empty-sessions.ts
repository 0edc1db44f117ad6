import { existsSync, readdirSync, rmSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { scanEvents, type LoggedEvent } from './event-log';
import { sessionWriter } from './lock';
import { eventsFile, SESSION_ID } from './paths';

/** A log this small may be one that never started; a session that started is much larger. */
const SMALL_LOG_BYTES = 64 * 1024;
/** An empty log written to so long ago belongs to no running tenet (session.start comes within seconds of it). */
const QUIET_MS = 10 * 60 * 1000;

export interface EmptySession {
  id: string;
  reason: string;
}

/**
 * Sessions that never started: a tenet killed in its first second (before the task was even
 * copied) leaves a log without a session.start, which lists as interrupted and cannot be resumed.
 * One whose writer is still alive (its lock) stays; one that ends with the interruption it
 * recorded, or whose writer left a stale lock, goes at once; an empty one without a lock (an older
 * tenet) when nothing was written to it for 10 minutes.
 */
export function collectEmptySessions(root: string, options: { dryRun?: boolean; now?: number } = {}): EmptySession[] {
  const now = options.now ?? Date.now();
  const removed: EmptySession[] = [];
  if (!existsSync(root)) return removed;
  for (const entry of readdirSync(root, { withFileTypes: true })) {
    if (!entry.isDirectory() || !SESSION_ID.test(entry.name)) continue;
    const file = eventsFile(root, entry.name);
    const info = statSync(file, { throwIfNoEntry: false });
    if (!info?.isFile() || info.size > SMALL_LOG_BYTES) continue;
    const events: LoggedEvent[] = [];
    try {
      scanEvents(file, (event) => events.push(event));
    } catch {
      continue; // damaged: listed as such by `tenet sessions`, for a person to look at
    }
    if (events.some((e) => e.type === 'session.start')) continue;
    const folder = join(root, entry.name);
    // A live tenet is still starting it; a lock left behind says its writer is gone.
    if (sessionWriter(folder)) continue;
    const interrupted = events.at(-1)?.type === 'session.interrupted';
    const abandoned = existsSync(join(folder, 'lock'));
    if (!interrupted && !abandoned && now - info.mtimeMs < QUIET_MS) continue;
    if (!options.dryRun) rmSync(folder, { recursive: true, force: true });
    removed.push({
      id: entry.name,
      reason: interrupted ? 'interrupted before it started' : 'killed before it started (an empty log)',
    });
  }
  return removed;
}
