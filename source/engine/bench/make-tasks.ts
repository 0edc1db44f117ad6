import { repositoryFolder } from '../util/checked-paths';
import { basename } from 'node:path';
import { TenetError } from '../errors';
import { EXIT } from '../exit-codes';
import { openTask } from '../task/open-task';
import type { ThmReport } from '../protocol/thm-report';
import { runThm, THM_DEFAULTS } from '../thm/run-thm';
import { MIN_STATEMENTS, scanFunctions, type Exclusion, type ScannedFunction } from './make-functions';
import { spreadOrder } from './make-order';
import { reachFromIndex, type IndexUse } from './make-index';
import { runReachPass, type ReachOptions } from './make-reach';
import { taskRow, targetName } from './make-row';
import { testFile } from '../thm/node-ids';
import { optionArgs, scopeArgs } from './make-scope';
import type { BenchTask } from './task';

export interface MakeOptions {
  repo: string;
  /** pytest arguments of the whole scope (everything after --tests). */
  testArgs: string[];
  /** Tasks to make. */
  count: number;
  /** Failing tests a task needs (THM's, in benchmark mode). */
  minFailing: number;
  seed: number;
  /** RepoCod's `repository` (default: the checkout's folder name). */
  name?: string;
  python?: string;
  minStatements?: number;
  jobs?: number | 'auto';
  /** Per-test limit of THM's runs; the reach pass gets three times as much. */
  testTimeoutSec?: number;
  /**
   * Read who calls each function from the reach index of the scope, recorded or refreshed first
   * when there is none or it is stale (default); false (`--no-reach`): a reach pass of its own,
   * and THM over each candidate's whole scope, the index neither built nor read.
   */
  reach?: boolean;
  signal?: AbortSignal;
  emit?: (event: MakeEvent) => void;
  /** Each task as soon as THM confirmed it, in output order. */
  onTask: (made: MadeTask) => Promise<void> | void;
}

export interface MadeTask {
  /** `tenet.thm` unset: the caller renders `report` into it. */
  task: BenchTask;
  report: ThmReport;
}

export type MakeEvent =
  | {
      type: 'scan';
      files: number;
      testFiles: number;
      functions: number;
      eligible: number;
      excluded: Record<Exclusion, number>;
    }
  | { type: 'reach.start'; functions: number; testArgs: string[]; index: boolean }
  /** How the reach index came to be used: said once. */
  | ({ type: 'reach.index'; durationMs: number } & IndexUse)
  | { type: 'reach.progress'; done: number; total: number }
  | {
      type: 'reach.done';
      tests: number;
      shards: number;
      reached: number;
      outside: number;
      candidates: number;
      durationMs: number;
      problems: string[];
    }
  /** `tests`: how many tests (and test modules) reached the function in the reach pass. */
  | { type: 'thm.start'; run: number; candidates: number; target: string; tests: number; scope: string[] }
  | {
      type: 'thm.done';
      run: number;
      target: string;
      failing: number;
      taskIndex: number | null;
      skipped: string | null;
      durationMs: number;
    };

export interface MakeSummary {
  repository: string;
  repo: string;
  seed: number;
  scan: { files: number; testFiles: number; functions: number; eligible: number; excluded: Record<Exclusion, number> };
  reach: {
    tests: number;
    shards: number;
    reached: number;
    outside: number;
    tooFewTests: number;
    durationMs: number;
    problems: string[];
    /** The reach index it read (absent with --no-reach: a pass of its own). */
    index?: IndexUse;
  };
  candidates: number;
  thm: { runs: number; kept: number; skipped: number; durationMs: number[] };
  tasks: number;
  count: number;
  durationMs: number;
}

/** The reach pass runs the whole scope with probes in every candidate: give each test more time than THM's runs. */
const REACH_TIMEOUT_FACTOR = 3;
/** Scopes with fewer test files than this run THM in one pytest process (see THM's own rule in run-thm.ts). */
const SHARDING_MIN_FILES = 12;

/**
 * `tenet bench make`: RepoCod-style tasks from a repository. Scan the non-test modules for
 * functions worth blanking, learn in one pass with a probe in each which tests call it, then try candidates
 * in a seeded order spread across modules: THM in benchmark mode over the tests that reached the
 * function, kept when at least `minFailing` tests fail blank and pass on the original code.
 *
 * The trade-off of scoping THM to the reaching tests: a test that runs the function only in a
 * subprocess (or a forked child) is not recorded, so it is not in the scope and not among the
 * task's failing tests, where a THM run over the whole suite would list it as failing unreached.
 * Every other test that can fail because of the blank is in the scope; running the whole suite
 * once per candidate instead would cost a full suite run each.
 */
export async function makeTasks(options: MakeOptions): Promise<MakeSummary> {
  const started = Date.now();
  const repoDir = repositoryFolder(options.repo);
  const emit = options.emit ?? (() => undefined);
  const repository = options.name ?? basename(repoDir);
  const testTimeoutSec = options.testTimeoutSec ?? THM_DEFAULTS.testTimeoutSec;

  const scan = await scanFunctions(repoDir, options.minStatements ?? MIN_STATEMENTS);
  emit({
    type: 'scan',
    files: scan.files,
    testFiles: scan.testFiles,
    functions: scan.functions,
    eligible: scan.eligible.length,
    excluded: scan.excluded,
  });

  const useIndex = options.reach !== false;
  emit({ type: 'reach.start', functions: scan.eligible.length, testArgs: options.testArgs, index: useIndex });
  const passOptions: ReachOptions = {
    repoDir,
    ...(options.python ? { python: options.python } : {}),
    functions: scan.eligible,
    testArgs: options.testArgs,
    jobs: options.jobs ?? 'auto',
    testTimeoutSec: testTimeoutSec * REACH_TIMEOUT_FACTOR,
    ...(options.signal ? { signal: options.signal } : {}),
    onTest: (done, total) => emit({ type: 'reach.progress', done, total }),
  };
  const reach = useIndex ? await reachFromIndex(passOptions) : await runReachPass(passOptions);
  const index = 'index' in reach ? reach.index : undefined;
  if (index) emit({ type: 'reach.index', durationMs: reach.durationMs, ...index });
  let reached = 0;
  let outside = 0;
  const candidates: { fn: ScannedFunction; tests: Set<string> }[] = [];
  scan.eligible.forEach((fn, id) => {
    const tests = reach.reachedBy.get(id);
    if (reach.outside.has(id)) {
      reached++;
      outside++;
      return;
    }
    if (!tests) return;
    reached++;
    // A function reached by fewer tests than --min-failing cannot have that many failing ones.
    if (tests.size >= options.minFailing) candidates.push({ fn, tests });
  });
  const summary: MakeSummary = {
    repository,
    repo: repoDir,
    seed: options.seed,
    scan: {
      files: scan.files,
      testFiles: scan.testFiles,
      functions: scan.functions,
      eligible: scan.eligible.length,
      excluded: scan.excluded,
    },
    reach: {
      tests: reach.tests,
      shards: reach.shards,
      reached,
      outside,
      tooFewTests: reached - outside - candidates.length,
      durationMs: reach.durationMs,
      problems: reach.problems,
      ...(index ? { index } : {}),
    },
    candidates: candidates.length,
    thm: { runs: 0, kept: 0, skipped: 0, durationMs: [] },
    tasks: 0,
    count: options.count,
    durationMs: 0,
  };
  emit({
    type: 'reach.done',
    tests: reach.tests,
    shards: reach.shards,
    reached,
    outside,
    candidates: candidates.length,
    durationMs: reach.durationMs,
    problems: reach.problems,
  });

  const userOptions = optionArgs(options.testArgs, reach.positional);
  for (const { fn, tests } of spreadOrder(
    candidates.map((c) => ({ ...c, file: c.fn.file })),
    options.seed,
  )) {
    if (summary.tasks >= options.count) break;
    const run = ++summary.thm.runs;
    const target = targetName(fn);
    const scope = scopeArgs(userOptions, tests, reach.runs, reach.positional);
    emit({ type: 'thm.start', run, candidates: candidates.length, target, tests: tests.size, scope });
    const runStarted = Date.now();
    const outcome = await tryCandidate(options, repoDir, target, scope, new Set([...tests].map(testFile)).size);
    const durationMs = Date.now() - runStarted;
    summary.thm.durationMs.push(durationMs);
    const failing = outcome.report?.failing.length ?? 0;
    if (outcome.skipped !== null) {
      summary.thm.skipped++;
      emit({ type: 'thm.done', run, target, failing, taskIndex: null, skipped: outcome.skipped, durationMs });
      continue;
    }
    const index = summary.tasks++;
    summary.thm.kept++;
    const task = taskRow({
      repository,
      index,
      repoDir,
      fn,
      target: outcome.target,
      testArgs: scope,
      report: outcome.report,
    });
    await options.onTask({ task, report: outcome.report });
    emit({ type: 'thm.done', run, target, failing, taskIndex: index, skipped: null, durationMs });
  }
  summary.durationMs = Date.now() - started;
  return summary;
}

export type Outcome =
  | { skipped: null; report: ThmReport; target: Awaited<ReturnType<typeof openTask>>['target'] }
  | { skipped: string; report?: ThmReport };

export type CandidateOptions = Pick<
  MakeOptions,
  'python' | 'jobs' | 'testTimeoutSec' | 'signal' | 'minFailing' | 'reach'
>;

/** One THM run in benchmark mode; a candidate that cannot become a task says why instead of stopping the whole run. */
export async function tryCandidate(
  options: CandidateOptions,
  repoDir: string,
  target: string,
  scope: string[],
  testFiles: number,
): Promise<Outcome> {
  let task;
  try {
    task = await openTask({
      repo: repoDir,
      target,
      blank: true,
      ...(options.python ? { python: options.python } : {}),
    });
  } catch (error) {
    return { skipped: `cannot open the target: ${firstLine(error)}` };
  }
  try {
    const report = await runThm(task, {
      ...THM_DEFAULTS,
      testArgs: scope,
      testTimeoutSec: options.testTimeoutSec ?? THM_DEFAULTS.testTimeoutSec,
      jobs: options.jobs ?? (testFiles >= SHARDING_MIN_FILES ? 'auto' : 1),
      ...(options.reach === false ? { reach: false } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
    });
    if (report.timedOut) return { skipped: 'THM ran out of time before every test ran', report };
    if (report.failing.length < options.minFailing) {
      return {
        skipped: `${report.failing.length} failing test${report.failing.length === 1 ? '' : 's'} (--min-failing ${options.minFailing})`,
        report,
      };
    }
    return { skipped: null, report, target: task.target };
  } catch (error) {
    if (options.signal?.aborted || (error instanceof TenetError && error.exitCode === EXIT.interrupted)) throw error;
    return { skipped: `THM failed: ${firstLine(error)}` };
  } finally {
    await task.dispose();
  }
}

function firstLine(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
}
