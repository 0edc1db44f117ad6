import { readdirSync, statSync } from 'node:fs';
import { isAbsolute, join } from 'node:path';
import { TEST_FILE } from '../workspace/copy-tree';
import type { Workspace } from '../workspace/workspace';


function countTestFiles(dir: string, limit: number): number {
  let found = 0;
  let entries;
  try {
    entries = readdirSync(dir, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const entry of entries) {
    if (found >= limit) break;
    if (entry.isDirectory()) {
      // The workspace holds no virtualenv or node_modules (the copy leaves them out); hidden
      // folders (.tenet, .tox) and bytecode hold no tests.
      if (!entry.name.startsWith('.') && entry.name !== '__pycache__') found += countTestFiles(join(dir, entry.name), limit - found);
    } else if (TEST_FILE.test(entry.name)) {
      found++;
    }
  }
  return found;
}

/**
 * How many test files a THM scope holds, counted up to `limit`: the files and folders its pytest
 * arguments name (`file::test` counts its file; an argument that names nothing in the workspace,
 * such as the value of `-k`, is no path), or, with none, every test file of the repository.
 */
export function scopeTestFiles(workspace: Pick<Workspace, 'root' | 'stats'>, testArgs: readonly string[], limit = Infinity): number {
  let paths = 0;
  let found = 0;
  for (const arg of testArgs) {
    if (arg.startsWith('-') || isAbsolute(arg)) continue;
    const path = join(workspace.root, arg.split('::')[0]!);
    const info = statSync(path, { throwIfNoEntry: false });
    if (!info) continue;
    paths++;
    found += info.isDirectory() ? countTestFiles(path, limit - found) : 1;
    if (found >= limit) break;
  }
  return paths ? found : workspace.stats.testFiles;
}
