import { existsSync, readdirSync, statSync } from 'node:fs';
import { dirname, join } from 'node:path';

/**
 * Folders that must come first on `sys.path` so that the tests import the workspace's copy of the
 * code and not an installed or editable copy elsewhere: the target's import root, `src/` when the
 * repository uses that layout, and the root. Returned as posix paths relative to the workspace
 * root ('' is the root itself).
 *
 * The import root is the folder above the outermost package the target's module is in (a
 * package: a folder with `__init__.py`). A folder without `__init__.py` inside a package is a
 * namespace subpackage (flask's `src/flask/sansio`), never a root: on `sys.path` its modules
 * would shadow top-level names (`import app` would find `sansio/app.py`). A module in no
 * package is imported from its own folder.
 */
export function importRoots(workspaceRoot: string, targetRel: string): string[] {
  const roots: string[] = [];
  const folder = parentOf(targetRel);
  let outermostPackage: string | undefined;
  for (let dir = folder; dir; dir = parentOf(dir)) {
    if (existsSync(join(workspaceRoot, dir, '__init__.py'))) outermostPackage = dir;
  }
  roots.push(outermostPackage === undefined ? folder : parentOf(outermostPackage));
  if (hasPythonPackages(join(workspaceRoot, 'src'))) roots.push('src');
  roots.push('');
  return [...new Set(roots)];
}

/** The posix folder holding a relative path ('' for the root). */
function parentOf(path: string): string {
  const parent = dirname(path);
  return parent === '.' ? '' : parent;
}

function hasPythonPackages(dir: string): boolean {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return false;
  return readdirSync(dir, { withFileTypes: true }).some(
    (entry) => (entry.isDirectory() && existsSync(join(dir, entry.name, '__init__.py'))) || entry.name.endsWith('.py'),
  );
}
