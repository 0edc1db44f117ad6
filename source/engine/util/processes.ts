import { readFileSync } from 'node:fs';

/**
 * "Is this process alive", asked by the session lock, the scratch folders' owners, Docker's gc, the
 * catalog and the local sandbox: one answer for all. A start time is a number (clock ticks since
 * boot, Linux), stored so, and it tells a process from a later one the system gave the same pid.
 */

/** The fields of /proc/PID/stat after the command name (Linux); undefined elsewhere or when it is gone. */
function statFields(pid: number): string[] | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command name (field 2) may hold spaces and parentheses: count fields after its last ')'.
    return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  } catch {
    return undefined;
  }
}

/** When a process started, in clock ticks since boot (Linux); undefined elsewhere or when it is gone. */
export function processStart(pid: number): number | undefined {
  const field = statFields(pid)?.[19];
  return field === undefined ? undefined : Number(field);
}

/** Whether a process with this pid exists: signal 0 checks without sending anything; EPERM is someone else's, still alive. */
export function pidExists(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * Whether the process recorded as `pid` (started at `started`) still runs. A start that cannot be
 * read now (no /proc) does not make a live pid dead: the callers would otherwise take over a live
 * lock or delete a live tenet's folder.
 */
export function processRuns(pid: number, started?: number): boolean {
  if (!pidExists(pid)) return false;
  if (started === undefined) return true;
  const now = processStart(pid);
  return now === undefined || now === started;
}

/** Whether a child of this process has ended: gone, or a zombie the event loop has not reaped yet. */
export function processEnded(pid: number): boolean {
  const state = statFields(pid)?.[0];
  return state === undefined || state === 'Z';
}
