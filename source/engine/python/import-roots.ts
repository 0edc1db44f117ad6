import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Folders that must come first on `sys.path` so that the tests import the workspace's copy of the
 * code and not an installed or editable copy elsewhere: the target's import root (the first folder
 * above it that is not a package), `src/` when the repository uses that layout, and the root.
 * Returned as posix paths relative to the workspace root ('' is the root itself).
 */
export function importRoots(workspaceRoot: string, targetRel: string): string[] {
  const roots: string[] = [];
  let dir = dirname(targetRel) === '.' ? '' : dirname(targetRel);
  while (dir && existsSync(join(workspaceRoot, dir, '__init__.py'))) {
    const parent = dirname(dir);
    dir = parent === '.' ? '' : parent;
  }
  roots.push(dir);
  if (hasPythonPackages(join(workspaceRoot, 'src'))) roots.push('src');
  roots.push('');
  return [...new Set(roots)];
}

function hasPythonPackages(dir: string): boolean {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
  return readdirSync(dir, { withFileTypes: true }).some(
    (entry) => (entry.isDirectory() && existsSync(join(dir, entry.name, '__init__.py'))) || entry.name.endsWith('.py'),
  );
}
