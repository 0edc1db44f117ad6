import { posix } from 'node:path';
import { closestNames } from '../util/closest';
import { listPythonFiles } from '../workspace/walk';

const NOT_FOUND = /(?:file or directory not found|not found): (\S+)/;

/**
 * Where a path of --tests that pytest did not find may be, from what the repository holds: paths
 * that end with it first (`libcst/helpers/tests` is `src/libcst/helpers/tests` in a src/ layout),
 * else the closest names. Empty when pytest named no missing path.
 */
export function missingScopePath(
  root: string,
  problems: readonly string[],
): { missing: string; closest: string[] } | undefined {
  const found = problems.map((p) => NOT_FOUND.exec(p)).find((m) => m);
  if (!found) return undefined;
  const missing = found[1]!.replace(/::.*$/, '').replace(/\/+$/, '');
  const paths = new Set<string>();
  for (const file of listPythonFiles(root)) {
    for (let path = file; path !== '.' && path !== ''; path = posix.dirname(path)) paths.add(path);
  }
  const all = [...paths].sort();
  const ending = all.filter((path) => path.endsWith(`/${missing}`));
  return { missing, closest: ending.length ? ending.slice(0, 3) : closestNames(missing, all, 3) };
}
