import { createHash } from 'node:crypto';
import { lstatSync, readdirSync, realpathSync, renameSync, rmSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { OWNER_FILE } from './owner';

/**
 * The workspace a finished run leaves for the next run of the same repository: its folder,
 * renamed to `tenet-copy-<hash of the repository's real path and the user>` in the temp folder.
 * The next run takes it by renaming it to a workspace folder of its own, so at most one run ever
 * has it, with no lock to go stale: a tenet that is killed holds an ordinary workspace folder
 * (`tenet gc` removes it) and the next run makes a fresh copy. The run then brings it up to date
 * (copyTree's `over`), which on a large repository costs a sixth of a fresh copy (sympy, 3,110
 * files: 0.15 s against 0.9-1.1 s). The copies of the last 8 repositories stay, none unused
 * for more than a week.
 */

export const PARKED_COPY = /^tenet-copy-[0-9a-f]{16}$/;
/** Copies kept at the most: those of the repositories worked on last. */
const MAX_PARKED = 8;
/** A copy no run took for this long goes. */
const MAX_PARKED_AGE_MS = 7 * 24 * 60 * 60 * 1000;
/**
 * A copy parked this recently is never pruned for the count: runs of other repositories at the same
 * time (a benchmark, a test suite's workers) would otherwise take the copy a run is about to take back.
 */
const FRESH_MS = 10 * 60 * 1000;

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
 * Takes the parked copy into `container` (a name no folder has yet), with nothing in it but the
 * copy at `name` (the repository reached under another name left its copy under that one): true
 * when it was there, is this user's and is closed to others as a workspace folder is. A folder
 * under that name that is not (another user's, a link) is left alone.
 */
export function takeParkedCopy(parked: string, container: string, name: string): boolean {
  const before = lstatSync(parked, { throwIfNoEntry: false });
  if (!before?.isDirectory() || !ownedAndPrivate(before)) return false;
  try {
    renameSync(parked, container);
  } catch {
    return false; // another run took it first, or it went meanwhile
  }
  const after = lstatSync(container, { throwIfNoEntry: false });
  if (!after?.isDirectory() || !ownedAndPrivate(after)) {
    rmSync(container, { recursive: true, force: true });
    return false;
  }
  for (const entry of readdirSync(container)) {
    try {
      if (entry !== name) rmSync(join(container, entry), { recursive: true, force: true });
    } catch {
      // beside the copy, it is in no run's way; `tenet gc` reports what cannot be removed
    }
  }
  return true;
}

/**
 * Leaves a finished run's workspace folder for the next run; false when one is parked already.
 * The temp folder keeps the copies of the last few repositories only, none older than a week.
 */
export function parkCopy(container: string, parked: string): boolean {
  rmSync(join(container, OWNER_FILE), { force: true });
  try {
    renameSync(container, parked);
  } catch {
    return false;
  }
  pruneParkedCopies(dirname(parked));
  return true;
}

/** Removes this user's parked copies beyond the last MAX_PARKED used (but those used in the last FRESH_MS), and those unused for MAX_PARKED_AGE_MS. */
function pruneParkedCopies(parent: string): void {
  const now = Date.now();
  const mine = readdirSync(parent)
    .filter((name) => PARKED_COPY.test(name))
    .flatMap((name) => {
      const info = lstatSync(join(parent, name), { throwIfNoEntry: false });
      // A folder's time changes as a run takes it (its owner file) and leaves it.
      return info?.isDirectory() && ownedAndPrivate(info) ? [{ path: join(parent, name), used: info.mtimeMs }] : [];
    })
    .sort((a, b) => b.used - a.used);
  for (const [index, copy] of mine.entries()) {
    const age = now - copy.used;
    if ((index < MAX_PARKED || age < FRESH_MS) && age < MAX_PARKED_AGE_MS) continue;
    try {
      rmSync(copy.path, { recursive: true, force: true });
    } catch {
      // taken by a run meanwhile, or not ours to remove
    }
  }
}

function ownedAndPrivate(info: { uid: number; mode: number }): boolean {
  return info.uid === (process.getuid?.() ?? info.uid) && (info.mode & 0o077) === 0;
}
