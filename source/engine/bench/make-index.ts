import { buildReachIndex } from '../thm/reach-build';
import { reachIndexFile, loadReachIndex, type ReachIndex } from '../thm/reach-index';
import { optionsOf } from '../thm/reach-use';
import { testFile } from '../thm/node-ids';
import { lanesForCores, shardCount } from '../thm/thm-options';
import type { ReachOptions, ReachResult } from './make-reach';

/** How bench make came by the reach index it used: kept as it was, refreshed, or recorded. */
export interface IndexUse {
  how: 'kept' | 'refreshed' | 'recorded';
  file: string;
  /** Tests recorded again (refreshed: the stale ones; recorded: all). */
  ran: number;
  /** Why the kept index was recorded anew, when it was. */
  whole?: string;
}

/**
 * bench make's reach pass from the reach index (issue 44): the index of the scope is recorded when
 * there is none, refreshed when it is stale or was recorded for another scope, and kept as it is
 * otherwise, so a second `bench make` on the same repository runs no reach pass at all. What it
 * records is what the pass's probes would (each test's calls, calls at a module's import, calls
 * outside every test), for every function of the repository: the candidates are read from it.
 */
export async function reachFromIndex(
  options: ReachOptions,
): Promise<Omit<ReachResult, 'python'> & { index: IndexUse }> {
  const started = Date.now();
  const file = reachIndexFile(options.repoDir, optionsOf(options.repoDir, options.testArgs));
  const kept = loadReachIndex(file);
  // Tests of this scope the kept index may not know: the refresh collects them.
  const otherScope = kept !== undefined && kept.testArgs.join('\0') !== options.testArgs.join('\0');
  const built = await buildReachIndex({
    repo: options.repoDir,
    testArgs: options.testArgs,
    jobs: options.jobs,
    testTimeoutSec: options.testTimeoutSec,
    ...(options.python ? { python: options.python } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onTest ? { onTest: options.onTest } : {}),
    beforeRun: (fresh) => !fresh || !!fresh.whole || fresh.stale.size > 0 || otherScope,
  });
  const how = built.kept ? 'kept' : built.refreshed !== undefined ? 'refreshed' : 'recorded';
  const positional = positionalArgs(options.repoDir, options.testArgs);
  return {
    ...reachedBy(built.index, options.functions, positional),
    positional,
    // The lanes the recorder ran in (none when the kept index served).
    shards: built.kept ? 0 : options.jobs === 'auto' ? lanesForCores() : shardCount(options.jobs, 0),
    problems: built.problems,
    durationMs: Date.now() - started,
    index: {
      how,
      file: built.file,
      ran: built.kept ? 0 : built.index.lastRun.tests,
      ...(built.whole ? { whole: built.whole } : {}),
    },
  };
}

/** The scope's paths and node ids: its arguments less its options (see optionsOf). */
function positionalArgs(repo: string, testArgs: readonly string[]): string[] {
  // The options are the arguments less some, in their order: what the walk does not match is positional.
  const options = optionsOf(repo, testArgs);
  let at = 0;
  return testArgs.filter((arg) => {
    if (options[at] !== arg) return true;
    at++;
    return false;
  });
}

/** Whether a test of the index is in the scope its positional arguments name (all of them without any). */
function inScope(nodeid: string, positional: readonly string[]): boolean {
  if (!positional.length) return true;
  const file = testFile(nodeid);
  return positional.some((arg) => {
    const path = arg.replace(/^\.\//, '').replace(/\/$/, '');
    return nodeid === path || nodeid.startsWith(`${path}::`) || file === path || file.startsWith(`${path}/`);
  });
}

/** The pass's answer read from the index: which candidates each test and test module called, in the scope. */
function reachedBy(
  index: ReachIndex,
  functions: ReachOptions['functions'],
  positional: readonly string[],
): Pick<ReachResult, 'reachedBy' | 'outside' | 'runs' | 'collected' | 'tests'> {
  // Index function → candidate ids (a candidate is its file, qualname and first line).
  const candidateOf = new Map(functions.map((fn, id) => [`${fn.file}::${fn.qualname}@${fn.startLine}`, id]));
  const ids = index.functions.map((fn) => candidateOf.get(`${fn.file}::${fn.qualname}@${fn.line}`));
  const reached = new Map<number, Set<string>>();
  const add = (fns: readonly number[], by: string) => {
    for (const fn of fns) {
      const id = ids[fn];
      if (id === undefined) continue;
      const tests = reached.get(id) ?? new Set<string>();
      tests.add(by);
      reached.set(id, tests);
    }
  };
  const perFile = new Map<string, number>();
  const order = new Map<string, number>();
  let tests = 0;
  for (const [nodeid, test] of Object.entries(index.tests)) {
    if (!inScope(nodeid, positional)) continue;
    tests++;
    const file = testFile(nodeid);
    perFile.set(file, (perFile.get(file) ?? 0) + 1);
    order.set(nodeid, test.order);
    add(test.fns, nodeid);
  }
  for (const [module, fns] of Object.entries(index.modules)) if (perFile.has(module)) add(fns, module);
  // Left out as candidates, as the reach pass leaves them: what a package, a conftest.py or a helper
  // called as it was imported, and what pytest's hooks called. The index's `outside` also holds what
  // test modules called as they were imported during collection (an import counts for the context
  // around it); those calls are keyed to their module above, and THM runs such a module blank.
  const byTestModules = new Set(Object.values(index.modules).flat());
  const outside = new Set<number>();
  for (const fn of index.atImport) if (ids[fn] !== undefined) outside.add(ids[fn]!);
  for (const fn of index.outside) if (ids[fn] !== undefined && !byTestModules.has(fn)) outside.add(ids[fn]!);
  return { reachedBy: reached, outside, runs: { perFile, order }, collected: tests, tests };
}
