import { basename, resolve } from 'node:path';
import { prepareTarget } from '../task/prepare-target';
import { resolveTarget } from '../task/resolve-target';
import type { MakeEvent } from './make-tasks';
import { tryCandidate, type CandidateOptions } from './make-tasks';
import { testFile } from '../thm/node-ids';
import { taskId, taskTarget, taskTestArgs, type BenchTask } from './task';

export interface FromRowsOptions extends CandidateOptions {
  /** The checkout of the rows' repository. */
  repo: string;
  /** RepoCod rows (readTasks); rows of other repositories are passed over. */
  rows: readonly BenchTask[];
  /** The rows' `repository` this checkout is (default: the folder's name). */
  name?: string;
  emit?: (event: MakeEvent) => void;
  onTask: (made: {
    task: BenchTask;
    report: NonNullable<Awaited<ReturnType<typeof tryCandidate>>['report']>;
  }) => Promise<void> | void;
}

export interface FromRowsSummary {
  repository: string;
  repo: string;
  rows: number;
  /** Rows of other repositories, not tried. */
  otherRepositories: number;
  tasks: number;
  skipped: { task: string; why: string }[];
  durationMs: number;
}

/**
 * `tenet bench make --from FILE`: RepoCod's own rows made into tenet tasks. Each row's target is
 * checked against the checkout first (RepoCod pins a commit: a checkout at another one has another
 * function, and the row's `full_function` would no longer be the ground truth), then blanked and
 * run through THM over the row's tests (its `relavent_test_path`: a path, or RepoCod's list of node
 * ids); the row keeps its fields and gains tenet's part, THM's report included.
 */
export async function makeFromRows(options: FromRowsOptions): Promise<FromRowsSummary> {
  const started = Date.now();
  const repoDir = resolve(options.repo);
  const repository = options.name ?? basename(repoDir);
  const emit = options.emit ?? (() => undefined);
  const mine = options.rows.filter((row) => row.repository === repository);
  const summary: FromRowsSummary = {
    repository,
    repo: repoDir,
    rows: options.rows.length,
    otherRepositories: options.rows.length - mine.length,
    tasks: 0,
    skipped: [],
    durationMs: 0,
  };
  let run = 0;
  for (const row of mine) {
    run++;
    const target = taskTarget(row);
    const scope = taskTestArgs(row, repoDir);
    emit({ type: 'thm.start', run, candidates: mine.length, target, tests: scope.length, scope });
    const runStarted = Date.now();
    const skip = (why: string, failing = 0) => {
      summary.skipped.push({ task: taskId(row), why });
      emit({
        type: 'thm.done',
        run,
        target,
        failing,
        taskIndex: null,
        skipped: why,
        durationMs: Date.now() - runStarted,
      });
    };
    const mismatch = await groundTruthMismatch(repoDir, row);
    if (mismatch) {
      skip(mismatch);
      continue;
    }
    const outcome = await tryCandidate(options, repoDir, target, scope, new Set(scope.map(testFile)).size);
    if (outcome.skipped !== null) {
      skip(outcome.skipped, outcome.report?.failing.length ?? 0);
      continue;
    }
    const failing = outcome.report.failing.map((f) => f.nodeid);
    const task: BenchTask = { ...row, tenet: { repo: repoDir, target, testArgs: scope, failing } };
    await options.onTask({ task, report: outcome.report });
    emit({
      type: 'thm.done',
      run,
      target,
      failing: failing.length,
      taskIndex: summary.tasks++,
      skipped: null,
      durationMs: Date.now() - runStarted,
    });
  }
  summary.durationMs = Date.now() - started;
  return summary;
}

/** Why the checkout's function is not the row's ground truth, or undefined when it is. */
async function groundTruthMismatch(repoDir: string, row: BenchTask): Promise<string | undefined> {
  let groundTruth: string | undefined;
  try {
    groundTruth = (await prepareTarget(await resolveTarget(repoDir, taskTarget(row)), 'blank')).groundTruth;
  } catch (error) {
    return `cannot open the target: ${(error as Error).message.split('\n')[0]}`;
  }
  if (!row.full_function.trim()) return undefined;
  return sameCode(groundTruth ?? '', row.full_function)
    ? undefined
    : "the checkout's function is not the row's full_function (is the checkout at RepoCod's commit?)";
}

/** Equal up to indentation and blank lines: RepoCod's rows indent methods as the file does, tenet's ground truth starts at `def`. */
function sameCode(a: string, b: string): boolean {
  const lines = (text: string) =>
    text
      .split('\n')
      .map((line) => line.trim())
      .filter(Boolean);
  const [x, y] = [lines(a), lines(b)];
  return x.length === y.length && x.every((line, i) => line === y[i]);
}
