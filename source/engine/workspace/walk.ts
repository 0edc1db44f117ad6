import { statSync } from 'node:fs';
import { join } from 'node:path';
import { nameText, rawEntries } from './raw-names';

/** Folders that never hold the project's own code: version control, environments, caches, builds. */
export const SKIPPED_DIRS = new Set([
  '.git',
  '.hg',
  '.svn',
  '.venv',
  'venv',
  'env',
  '.env',
  'node_modules',
  '__pycache__',
  '.tox',
  '.nox',
  '.mypy_cache',
  '.pytest_cache',
  '.ruff_cache',
  '.eggs',
  'build',
  'dist',
  '.tenet',
]);

export function isSkippedDir(name: string): boolean {
  return SKIPPED_DIRS.has(name) || name.endsWith('.egg-info');
}

/**
 * Every `.py` file under root (posix paths relative to root, sorted), skipping SKIPPED_DIRS and
 * hidden folders, and names that are not UTF-8 (no module can be imported by such a name; read as
 * text they would lead nowhere: see raw-names.ts).
 */
export function listPythonFiles(root: string): string[] {
  const files: string[] = [];
  eachPythonFile(root, (rel) => {
    files.push(rel);
    return false;
  });
  return files.sort();
}

/** Whether the files listPythonFiles lists hold more than `limit` bytes: it stops counting past it. */
export function pythonSourceExceeds(root: string, limit: number): boolean {
  let bytes = 0;
  let exceeds = false;
  eachPythonFile(root, (_rel, path) => {
    try {
      bytes += statSync(path).size;
    } catch {
      return false; // gone meanwhile
    }
    exceeds = bytes > limit;
    return exceeds;
  });
  return exceeds;
}

/** Calls `visit` with each file listPythonFiles lists (its relative and full path, unsorted) until it returns true. */
function eachPythonFile(root: string, visit: (rel: string, path: string) => boolean): void {
  const walk = (dir: string, rel: string): boolean => {
    let entries;
    try {
      entries = rawEntries(dir);
    } catch {
      return false;
    }
    for (const entry of entries) {
      const name = nameText(entry.name);
      if (name !== entry.name.toString('utf8')) continue;
      const childRel = rel ? `${rel}/${name}` : name;
      if (entry.isDirectory()) {
        if (!isSkippedDir(name) && !name.startsWith('.') && walk(join(dir, name), childRel)) return true;
      } else if (entry.isFile() && name.endsWith('.py') && visit(childRel, join(dir, name))) return true;
    }
    return false;
  };
  walk(root, '');
}
