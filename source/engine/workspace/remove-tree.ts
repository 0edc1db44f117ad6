import { chmodSync, readdirSync, rmSync } from 'node:fs';
import { rm } from 'node:fs/promises';
import { join } from 'node:path';

const closed = (error: unknown) =>
  ['EACCES', 'EPERM', 'ENOTEMPTY'].includes((error as NodeJS.ErrnoException).code ?? '');

/**
 * Removes a folder tenet made (a workspace's), also when code that ran in it closed its folders
 * (`chmod 311 tests`, `chmod 000 pkg`): a folder its owner cannot list or write cannot be emptied.
 * Where removing fails so, every folder under it is opened to its owner again (links are never
 * followed) and the removal tried once more; what still fails is thrown.
 */
export async function removeTree(path: string): Promise<void> {
  try {
    await rm(path, { recursive: true, force: true });
    return;
  } catch (error) {
    if (!closed(error)) throw error;
  }
  openToOwner(path);
  await rm(path, { recursive: true, force: true });
}

/** Walks removeTreeNow makes before it gives up (each one past the first follows a write it raced). */
const NOW_PASSES = 6;

/**
 * removeTree, at once (on the way out: a shutdown hook cannot wait). The thread pool may still be
 * writing there: a Ctrl-C while a copy is made runs this while calls the copy queued go on, and one
 * (making the copy's top folder) can land after the walk emptied the folder it lands in. rmSync's
 * own retries only try that folder again, so each pass here walks the tree anew. Once the folder
 * is gone nothing makes it again: the copy makes each folder only inside one that exists.
 */
export function removeTreeNow(path: string): void {
  for (let pass = 1; ; pass++) {
    try {
      rmSync(path, { recursive: true, force: true });
      return;
    } catch (error) {
      if (!closed(error) || pass === NOW_PASSES) throw error;
    }
    openToOwner(path);
  }
}

/** Gives the owner read, write and search on `dir` and every folder under it (never through a link). */
export function openToOwner(dir: string): void {
  try {
    chmodSync(dir, 0o700);
  } catch {
    // not ours to open: the removal will say so
  }
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return;
  }
  for (const entry of entries) if (entry.isDirectory()) openToOwner(join(dir, entry.name));
}
