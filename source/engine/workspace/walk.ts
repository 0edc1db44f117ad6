import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** Folders that never hold the project's own code: version control, environments, caches, builds. */
export const SKIPPED_DIRS = new Set([
  '.git', '.hg', '.svn', '.venv', 'venv', 'env', '.env', 'node_modules', '__pycache__', '.tox', '.nox',
  '.mypy_cache', '.pytest_cache', '.ruff_cache', '.eggs', 'build', 'dist', '.tenet',
]);

export function isSkippedDir(name: string): boolean {
  return SKIPPED_DIRS.has(name) || name.endsWith('.egg-info');
}

/** Every `.py` file under root (posix paths relative to root, sorted), skipping SKIPPED_DIRS and hidden folders. */
export function listPythonFiles(root: string): string[] {
  const files: string[] = [];
  const walk = (dir: string, rel: string): void => {
    let entries;
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const childRel = rel ? `${rel}/${entry.name}` : entry.name;
      if (entry.isDirectory()) {
        if (!isSkippedDir(entry.name) && !entry.name.startsWith('.')) walk(join(dir, entry.name), childRel);
      } else if (entry.isFile() && entry.name.endsWith('.py')) {
        files.push(childRel);
      }
    }
  };
  walk(root, '');
  return files.sort();
}
