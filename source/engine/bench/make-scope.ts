import { posix } from 'node:path';
import { testFile } from '../thm/node-ids';

/**
 * The user's pytest arguments minus the positional ones (paths and node ids, as pytest itself
 * parsed them), so a narrower scope can take their place while `-k`, `-m`, `-p`, `-o`… stay.
 */
export function optionArgs(userArgs: readonly string[], positional: readonly string[]): string[] {
  const left = new Map<string, number>();
  for (const arg of positional) left.set(arg, (left.get(arg) ?? 0) + 1);
  return userArgs.filter((arg) => {
    const n = left.get(arg) ?? 0;
    if (!n) return true;
    left.set(arg, n - 1);
    return false;
  });
}

/** What the reach pass saw of the test files: how many tests each ran, and the order they ran in. */
export interface TestRuns {
  perFile: ReadonlyMap<string, number>;
  /** Node id → position in its pytest process's run. */
  order: ReadonlyMap<string, number>;
}

/**
 * The pytest scope of one function's THM run: the user's options, then the tests that reached it
 * in the reach pass. A test file stands whole when all of its tests reached the function, or when
 * the module itself called it while being imported (then every test of it fails) — unless the
 * user's scope named single tests (`file::test`): then the pass did not run every test of a file,
 * and the file would widen the scope past what the user asked for. Otherwise its
 * tests are listed one by one, in the order they ran (pytest runs arguments in the order given,
 * and a module-scoped fixture or an order-dependent test must see the same sequence). Files are
 * sorted, so equal inputs give equal arguments.
 */
export function scopeArgs(
  options: readonly string[],
  reachedBy: Iterable<string>,
  runs: TestRuns,
  userPositional: readonly string[] = [],
): string[] {
  const filesMayStandWhole = !userPositional.some((arg) => arg.includes('::'));
  const byFile = new Map<string, Set<string>>();
  const wholeFiles = new Set<string>();
  for (const nodeid of reachedBy) {
    const file = testFile(nodeid);
    if (file === nodeid) wholeFiles.add(file);
    const ids = byFile.get(file) ?? new Set<string>();
    ids.add(nodeid);
    byFile.set(file, ids);
  }
  const position = (nodeid: string) => runs.order.get(nodeid) ?? Infinity;
  const scope: string[] = [];
  for (const file of [...byFile.keys()].sort()) {
    const ids = byFile.get(file)!;
    if (wholeFiles.has(file) || (filesMayStandWhole && ids.size >= (runs.perFile.get(file) ?? Infinity)))
      scope.push(file);
    else scope.push(...[...ids].sort((a, b) => position(a) - position(b) || (a < b ? -1 : a > b ? 1 : 0)));
  }
  return [...options, ...scope];
}

/** RepoCod's `relavent_test_path`: the one test file every failing test is in, else their deepest common folder. */
export function relevantTestPath(failing: readonly string[]): string {
  const files = [...new Set(failing.map(testFile))].sort();
  if (files.length <= 1) return files[0] ?? '';
  const dirs = files.map((file) => posix.dirname(file).split('/'));
  const common: string[] = [];
  for (let i = 0; dirs.every((d) => d[i] !== undefined && d[i] === dirs[0]![i]); i++) common.push(dirs[0]![i]!);
  const folder = common.join('/');
  return folder && folder !== '.' ? folder : '.';
}
