import { createHash } from 'node:crypto';
import { lstatSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { OWNER_FILE } from './owner';

/**
 * The workspace a finished run leaves for the next run of the same repository: its folder,
 * renamed to `tenet-copy-<hash of the repository's real path and the user>` in the temp folder.
 * The next run takes it by renaming it to a workspace folder of its own, so at most one run ever
 * has it, with no lock to go stale: a tenet that is killed holds an ordinary workspace folder
 * (`tenet gc` removes it) and the next run makes a fresh copy. The run then brings it up to date
 * (copyTree's `over`), which on a large repository costs a tenth of a fresh copy (sympy, 3,093
 * files: 0.1-0.2 s against 1.1-1.5 s).
 */

export const PARKED_COPY = /^tenet-copy-[0-9a-f]{16}$/;

/** Where the copy of `repoDir` waits between runs (in `parent`, the temp folder). */
export function parkedCopyPath(parent: string, repoDir: string): string {
  let real = repoDir;
  try {
    real = realpathSync(repoDir);
  } catch {
    // copyTree will say what is wrong with it
  }
  const who = process.getuid?.() ?? 0;
  return join(parent, `tenet-copy-${createHash('sha256').update(`${real}\0${who}`).digest('hex').slice(0, 16)}`);
}

/**
 * Takes the parked copy into `container` (a name no folder has yet): true when it was there, is
 * this user's and is closed to others as a workspace folder is. A folder under that name that is
 * not (another user's, a link) is left alone.
 */
export function takeParkedCopy(parked: string, container: string): boolean {
  const before = lstatSync(parked, { throwIfNoEntry: false });
  if (!before?.isDirectory() || !ownedAndPrivate(before)) return false;
  try {
    renameSync(parked, container);
  } catch {
    return false; // another run took it first, or it went meanwhile
  }
  const after = lstatSync(container, { throwIfNoEntry: false });
  if (after?.isDirectory() && ownedAndPrivate(after)) return true;
  rmSync(container, { recursive: true, force: true });
  return false;
}

/** Leaves a finished run's workspace folder for the next run; false when one is parked already. */
export function parkCopy(container: string, parked: string): boolean {
  rmSync(join(container, OWNER_FILE), { force: true });
  try {
    renameSync(container, parked);
    return true;
  } catch {
    return false;
  }
}

function ownedAndPrivate(info: { uid: number; mode: number }): boolean {
  return info.uid === (process.getuid?.() ?? info.uid) && (info.mode & 0o077) === 0;
}
