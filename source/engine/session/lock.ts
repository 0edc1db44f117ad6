import { closeSync, linkSync, mkdirSync, openSync, readFileSync, statSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { TenetError } from '../errors';
import { processRuns, processStart } from '../util/processes';

/**
 * One writer per session. A tenet that records a session holds `<session>/lock` (its pid and the
 * process's start time); a second `resume`, `rerun` or `fork` of that session is refused while the
 * holder lives. A lock left by a killed tenet is stale and taken over. The start time guards
 * against a pid the system has since given to another process.
 */
export interface LockHolder {
  pid: number;
  /** The holder's start time as /proc gives it (clock ticks since boot); absent where there is no /proc. */
  started?: number;
}

const lockFile = (sessionDir: string) => join(sessionDir, 'lock');

function readHolder(file: string): LockHolder | undefined {
  try {
    const parsed = JSON.parse(readFileSync(file, 'utf8')) as { pid?: unknown; started?: unknown };
    // Locks written before the start became a number hold it as a string.
    const started = Number(parsed.started);
    return typeof parsed.pid === 'number'
      ? { pid: parsed.pid, ...(parsed.started && Number.isFinite(started) ? { started } : {}) }
      : undefined;
  } catch {
    // A lock cut off by a kill mid-write, or gone meanwhile: nobody holds it.
    return undefined;
  }
}

/** The live process writing this session, if any (a stale lock is nobody). */
export function sessionWriter(sessionDir: string): LockHolder | undefined {
  const holder = readHolder(lockFile(sessionDir));
  return holder && holder.pid !== process.pid && processRuns(holder.pid, holder.started) ? holder : undefined;
}

function busy(id: string, holder: LockHolder, action: string): TenetError {
  return new TenetError(
    `Session ${id} is being written by another tenet (pid ${holder.pid}); ${action} it now would interleave two runs in one log.`,
    `wait for that run to end, or stop it (kill ${holder.pid}) first`,
  );
}

/** Refuses (exit 2, naming the pid) when another live tenet writes the session. */
export function refuseIfWritten(sessionDir: string, id: string, action: string): void {
  const holder = sessionWriter(sessionDir);
  if (holder) throw busy(id, holder, action);
}

/**
 * Takes the session's lock for this process, or throws (exit 2) naming the live holder. The lock
 * appears whole and only if absent (a complete file hard-linked into place), so of two tenets
 * starting at once exactly one gets it; a stale lock is removed under a short-lived takeover
 * mutex, so two tenets cannot both take over the same stale lock. Returns the release.
 */
export function lockSession(sessionDir: string, id: string): () => void {
  mkdirSync(sessionDir, { recursive: true });
  const file = lockFile(sessionDir);
  const started = processStart(process.pid);
  const mine = `${file}.${process.pid}.tmp`;
  writeFileSync(mine, JSON.stringify({ pid: process.pid, ...(started !== undefined ? { started } : {}) }));
  try {
    for (let attempt = 0; attempt < 50; attempt++) {
      try {
        linkSync(mine, file);
        return () => {
          if (readHolder(file)?.pid === process.pid) unlinkQuietly(file);
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = readHolder(file);
      if (holder && holder.pid !== process.pid && processRuns(holder.pid, holder.started))
        throw busy(id, holder, 'resuming');
      // A lock of a dead tenet (or our own, left by an earlier recorder of this process).
      takeOver(file, holder);
    }
  } finally {
    unlinkQuietly(mine);
  }
  throw new TenetError(
    `Could not take the lock of session ${id} (${file}): another tenet keeps taking it.`,
    'stop the other tenet, then try again',
  );
}

/** Removes a stale lock, unless someone else is doing so (then waits a moment and lets the caller look again). */
function takeOver(file: string, stale: LockHolder | undefined): void {
  const mutex = `${file}.takeover`;
  let fd: number;
  try {
    fd = openSync(mutex, 'wx');
  } catch {
    // A mutex whose holder was killed mid-takeover is old: clear it.
    try {
      if (Date.now() - statSync(mutex).mtimeMs > 5000) unlinkQuietly(mutex);
    } catch {
      // Gone meanwhile.
    }
    sleep(20);
    return;
  }
  try {
    const now = readHolder(file);
    const same = now?.pid === stale?.pid && now?.started === stale?.started;
    if (same) unlinkQuietly(file);
  } finally {
    closeSync(fd);
    unlinkQuietly(mutex);
  }
}

function sleep(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

function unlinkQuietly(file: string): void {
  try {
    unlinkSync(file);
  } catch {
    // Already gone.
  }
}
