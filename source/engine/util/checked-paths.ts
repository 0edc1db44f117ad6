import { existsSync, mkdirSync, statSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import { TenetError } from '../errors';

const kind = (path: string) => (statSync(path).isDirectory() ? 'a folder' : 'a file');

/** The repository root: an existing folder, or a clear error (a file, or nothing, at that path). */
export function repositoryFolder(repo: string): string {
  const dir = resolve(repo);
  if (!existsSync(dir))
    throw new TenetError(
      `Repository folder ${dir} does not exist.`,
      'pass --repo with the root folder of a Python repository',
    );
  if (!statSync(dir).isDirectory())
    throw new TenetError(
      `--repo ${dir} is a file, not a folder.`,
      'pass --repo with the root folder of a Python repository',
    );
  return dir;
}

/** A folder tenet reads or creates (sessions, a bench run): anything but a file already there; made now if missing. */
export function folderToUse(path: string, flag: string): string {
  const dir = resolve(path);
  if (existsSync(dir) && !statSync(dir).isDirectory())
    throw new TenetError(
      `${flag} ${dir} is a file; it must be a folder.`,
      `pass ${flag} with a folder (it is created if missing)`,
    );
  makeFolder(dir, flag);
  return dir;
}

/**
 * Makes `dir` and its missing parents, one at a time, or says in one line why it cannot (exit 2).
 * Not `mkdirSync(dir, { recursive: true })`: Node's retries forever when a parent exists and the
 * child's mkdir still fails with ENOENT, which is what /proc answers (`--sessions-dir /proc/x`).
 */
export function makeFolder(dir: string, flag: string): void {
  const missing: string[] = [];
  for (let at = dir; !existsSync(at); at = dirname(at)) {
    missing.unshift(at);
    if (dirname(at) === at) break;
  }
  for (const at of missing) {
    try {
      mkdirSync(at);
    } catch (error) {
      const { code } = error as NodeJS.ErrnoException;
      if (code === 'EEXIST' && statSync(at).isDirectory()) continue; // made meanwhile by another tenet
      throw new TenetError(
        `${flag} ${dir} cannot be made (mkdir ${at} failed: ${code ?? (error as Error).message}); give tenet a folder it can create or write.`,
      );
    }
  }
}

/**
 * A file tenet writes (`--out`): not a folder, in a folder that exists (or that may be created,
 * with `createFolder`, when no file stands in its way).
 */
export function fileToWrite(path: string, flag: string, { createFolder = false } = {}): string {
  const file = resolve(path);
  if (existsSync(file) && statSync(file).isDirectory())
    throw new TenetError(
      `${flag} ${file} is a folder; it must name a file.`,
      `pass ${flag} with a file name inside it`,
    );
  let parent = dirname(file);
  // The nearest part of the path that exists must be a folder.
  if (createFolder) while (!existsSync(parent) && dirname(parent) !== parent) parent = dirname(parent);
  if (!existsSync(parent))
    throw new TenetError(
      `${flag} ${file}: the folder ${parent} does not exist.`,
      `create it first (mkdir -p ${JSON.stringify(parent)}) or write elsewhere`,
    );
  if (!statSync(parent).isDirectory())
    throw new TenetError(
      `${flag} ${file}: ${parent} is ${kind(parent)}, not a folder.`,
      `pass ${flag} with a path inside a folder`,
    );
  return file;
}
