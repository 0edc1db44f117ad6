import { posix } from 'node:path';
import { TenetError } from '../errors';
import { EXIT } from '../exit-codes';
import { importRoots } from '../python-source/import-roots';
import type { Sandbox } from '../sandbox/sandbox';
import type { PythonInfo } from '../task/interpreter';
import type { PluginEvent } from '../thm/plugin-lines';
import { runPytestPass } from '../thm/pytest-pass';
import { scopeFix } from '../thm/scope-fix';
import { shardCount } from '../thm/run-thm';
import { confinedCopy } from '../thm/confined-copy';
import type { ScannedFunction } from './make-functions';
import { instrumentCandidates } from './make-instrument';
import { testFile } from '../thm/node-ids';

/** What source/python/_tenet_reach.py adds to the THM plugin's events. */
type ReachEvent =
  | { e: 'reachargs'; positional: string[] }
  /** `position`: the test's index in the collected run (none for a module's import). */
  | { e: 'reach'; nodeid: string; fns: number[]; collect?: boolean; position?: number | null }
  | { e: 'reachoutside'; fn: number };

export interface ReachOptions {
  repoDir: string;
  python?: string;
  /** The candidates; a function's id in the pass is its index here. */
  functions: readonly ScannedFunction[];
  testArgs: string[];
  jobs: number | 'auto';
  testTimeoutSec: number;
  signal?: AbortSignal;
  /** Each test as it finishes: how many so far, out of how many collected (0 until known). */
  onTest?: (done: number, total: number) => void;
}

export interface ReachResult {
  /** Function index → the tests (node ids) and test modules (paths, for calls at their import) that called it. */
  reachedBy: Map<number, Set<string>>;
  /** Functions called while another module of the workspace was imported, or outside every test. */
  outside: Set<number>;
  /** Tests the pass ran per test file, and the place in pytest's order of each that reached a candidate. */
  runs: { perFile: Map<string, number>; order: Map<string, number> };
  /** The user's positional pytest arguments, as pytest parsed them. */
  positional: string[];
  collected: number;
  tests: number;
  python: PythonInfo;
  shards: number;
  problems: string[];
  durationMs: number;
}

/**
 * The reach pass: the scope runs once in a scratch copy of the repository whose candidate
 * functions carry a probe, and every test's calls of them are recorded (see
 * source/python/_tenet_reach.py). It
 * runs through THM's pytest pass, so shards, per-test timeouts, hangs and crashed interpreters are
 * handled as in THM.
 */
export async function runReachPass(options: ReachOptions): Promise<ReachResult> {
  const started = Date.now();
  const { workspace, sandbox, python } = await confinedCopy(options.repoDir, {
    ...(options.python ? { python: options.python } : {}),
  });
  try {
    await instrumentCandidates(workspace, options.functions);
    const shards = shardCount(options.jobs, workspace.stats.testFiles);
    const result: ReachResult = {
      reachedBy: new Map(),
      outside: new Set(),
      runs: { perFile: new Map(), order: new Map() },
      positional: [],
      collected: 0,
      tests: 0,
      python,
      shards,
      problems: [],
      durationMs: 0,
    };
    const pass = await runPytestPass({
      sandbox,
      workspace,
      python: python.executable,
      env: {
        ...reachEnv(sandbox, workspace.root, options.functions),
        TENET_ROOT: sandbox.workdir,
        // No target: the THM plugin only reports tests. A path no module has keeps its checks quiet.
        TENET_TARGET_FILE: posix.join(sandbox.workdir, '.tenet', 'no-target.py'),
      },
      testArgs: ['-p', '_tenet_reach', ...options.testArgs],
      shards,
      testTimeoutSec: options.testTimeoutSec,
      mode: 'record',
      label: 'reach',
      ...(options.signal ? { signal: options.signal } : {}),
      onEvent: (raw) => {
        const event = raw as PluginEvent | ReachEvent;
        switch (event.e) {
          case 'reachargs':
            result.positional = event.positional;
            break;
          case 'reach':
            if (typeof event.position === 'number') result.runs.order.set(event.nodeid, event.position);
            for (const fn of event.fns) {
              const tests = result.reachedBy.get(fn) ?? new Set<string>();
              tests.add(event.nodeid);
              result.reachedBy.set(fn, tests);
            }
            break;
          case 'reachoutside':
            result.outside.add(event.fn);
            break;
          case 'collected':
            result.collected = event.total;
            break;
          case 'test': {
            const file = testFile(event.nodeid);
            result.runs.perFile.set(file, (result.runs.perFile.get(file) ?? 0) + 1);
            result.tests++;
            options.onTest?.(result.tests, result.collected);
            break;
          }
        }
      },
    });
    if (pass.aborted) throw new TenetError('tenet bench make was cancelled.', undefined, EXIT.interrupted);
    if (pass.collected === 0 && pass.collectErrors.length === 0 && pass.problems.length) {
      throw new TenetError(
        `pytest could not run the tests:\n${pass.problems.join('\n')}`,
        scopeFix(workspace.root, pass.problems),
      );
    }
    result.problems = pass.problems;
    result.durationMs = Date.now() - started;
    return result;
  } finally {
    await sandbox.dispose();
    await workspace.dispose();
  }
}

/**
 * PYTHONPATH as THM sets it for one target (source/engine/python-source/pytest-env.ts), with the import
 * roots of every candidate's module, so the tests import the workspace copy of each.
 */
function reachEnv(sandbox: Sandbox, root: string, functions: readonly ScannedFunction[]): Record<string, string> {
  const roots = new Set<string>();
  for (const file of new Set(functions.map((f) => f.file))) for (const rel of importRoots(root, file)) roots.add(rel);
  // The root last, as importRoots puts it: a package folder must win over a same-named folder at the root.
  const ordered = [...[...roots].filter((rel) => rel), ''];
  const paths = ordered.map((rel) => (rel ? posix.join(sandbox.workdir, rel) : sandbox.workdir));
  const inherited = sandbox.env.PYTHONPATH;
  return {
    PYTHONPATH: [sandbox.helpersDir, ...paths, ...(inherited ? [inherited] : [])].join(':'),
    PYTHONIOENCODING: 'utf-8',
  };
}
