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

/** removeTree, at once (on the way out: a shutdown hook cannot wait). */
export function removeTreeNow(path: string): void {
  try {
    rmSync(path, { recursive: true, force: true });
    return;
  } catch (error) {
    if (!closed(error)) throw error;
  }
  openToOwner(path);
  rmSync(path, { recursive: true, force: true });
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
