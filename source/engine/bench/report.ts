import { existsSync, statSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';
import { TenetError } from '../errors';
import { readManifest, readResults, type TaskResult } from './run-dir';
import { readTasks, taskId } from './task';

/**
 * The figures of one set of tasks, as the TENET paper reports them (Tables I, II, IV, VI).
 *
 * Definitions, so that two reports compare:
 * - Pass@1 = passed / finished. A finished task is one with a line in `results.jsonl`; a task
 *   that ended in an `error` (crash, unusable repository, provider failure) is finished and counts
 *   as a failure, so that a configuration cannot look better by crashing on its hard tasks.
 *   Tasks not run yet are left out: a partial run reports on what it finished.
 * - Every average is over the finished tasks, errored ones included with whatever they spent, so
 *   that cost and Pass@1 have the same denominator.
 * - Cost-of-Pass (CoP) = average cost per task / Pass@1 (the paper's definition, after Erol et
 *   al.), which with one denominator is total cost / tasks passed. With no pass it is infinite:
 *   null here, ∞ in the tables.
 * - Cached share = input tokens read from the prompt cache / all input tokens, summed over the
 *   finished tasks that counted the cache (results written before tenet did have no cache counts
 *   and are left out of it; with none, null). Saved by caching = the average over the same tasks
 *   of what each would have cost with every input token at the input price, less its cost.
 */
export interface Figures {
  /** Tasks the configuration was given (its tasks file, plus any result not in it). */
  tasks: number;
  /** Tasks with a result: evaluated, or stopped by an error. */
  finished: number;
  /** Finished tasks that carry an error; they count as failures. */
  errors: number;
  passed: number;
  /** passed / finished as a fraction in [0, 1]; null when nothing finished. */
  passAt1: number | null;
  avgInputTokens: number | null;
  avgOutputTokens: number | null;
  avgCostUsd: number | null;
  /** Input tokens read from the prompt cache / input tokens, over the tasks that counted the cache; null when none did. */
  cachedShare: number | null;
  /** Average saving of the prompt cache per task that counted it (USD); null when none did. */
  avgCacheSavedUsd: number | null;
  /** avgCostUsd / passAt1; null when nothing finished or nothing passed (infinite). */
  costOfPass: number | null;
  /** Model (API) calls per task. */
  avgModelCalls: number | null;
  avgToolCalls: number | null;
  avgWallMs: number | null;
}

/** One run folder: one configuration. */
export interface ConfigurationReport {
  /** The manifest's label, made unique among the report's configurations. */
  label: string;
  runDir: string;
  config: Record<string, unknown>;
  overall: Figures;
  /** By repository name, sorted. */
  repositories: Record<string, Figures>;
  /** Tasks whose verdict tenet could not check (they count as failures), with why, by task id. */
  unverified: UnverifiedTask[];
}

/** A task of a run that ended UNVERIFIED: not a pass, and the reason in words. */
export interface UnverifiedTask {
  taskId: string;
  repository: string;
  reason: string;
}

export interface BenchReport {
  format: 'tenet-bench-report';
  version: 1;
  configurations: ConfigurationReport[];
}

/** What the figures are computed from: a run folder's contents, already read. */
export interface RunData {
  runDir: string;
  label: string;
  config: Record<string, unknown>;
  results: TaskResult[];
  /** Every task of the run (id and repository); null when the tasks file could not be read. */
  planned: { id: string; repository: string }[] | null;
}

/** Results come from a file: a field an older writer left out counts as zero rather than NaN. */
function num(value: unknown): number {
  return typeof value === 'number' && Number.isFinite(value) ? value : 0;
}

function average(results: TaskResult[], pick: (result: TaskResult) => unknown): number | null {
  if (!results.length) return null;
  return results.reduce((sum, result) => sum + num(pick(result)), 0) / results.length;
}

/** The cache figures, over the results that counted the cache. */
function cacheFigures(results: TaskResult[]): Pick<Figures, 'cachedShare' | 'avgCacheSavedUsd'> {
  const counted = results.filter((result) => typeof result.usage?.cacheReadTokens === 'number');
  const input = counted.reduce((sum, result) => sum + num(result.usage.inputTokens), 0);
  const read = counted.reduce((sum, result) => sum + num(result.usage.cacheReadTokens), 0);
  return {
    cachedShare: input > 0 ? read / input : null,
    avgCacheSavedUsd: average(counted, (result) => result.cacheSavedUsd),
  };
}

export function computeFigures(results: TaskResult[], tasks: number): Figures {
  const passed = results.filter((result) => result.pass === true && !result.error).length;
  const passAt1 = results.length ? passed / results.length : null;
  const avgCostUsd = average(results, (result) => result.costUsd);
  return {
    tasks,
    finished: results.length,
    errors: results.filter((result) => !!result.error).length,
    passed,
    passAt1,
    avgInputTokens: average(results, (result) => result.usage?.inputTokens),
    avgOutputTokens: average(results, (result) => result.usage?.outputTokens),
    avgCostUsd,
    ...cacheFigures(results),
    costOfPass: passAt1 && avgCostUsd !== null ? avgCostUsd / passAt1 : null,
    avgModelCalls: average(results, (result) => result.usage?.modelCalls),
    avgToolCalls: average(results, (result) => result.usage?.toolCalls),
    avgWallMs: average(results, (result) => result.wallMs),
  };
}

function computeConfiguration(run: RunData): ConfigurationReport {
  // Every task id with its repository: the planned ones, and results the tasks file no longer has.
  const repositoryOf = new Map<string, string>();
  for (const task of run.planned ?? []) repositoryOf.set(task.id, task.repository);
  for (const result of run.results)
    if (!repositoryOf.has(result.taskId)) repositoryOf.set(result.taskId, result.repository);
  const names = [...new Set(repositoryOf.values())].sort();
  const repositories: Record<string, Figures> = {};
  for (const name of names) {
    const tasks = [...repositoryOf.values()].filter((repository) => repository === name).length;
    repositories[name] = computeFigures(
      run.results.filter((result) => repositoryOf.get(result.taskId) === name),
      tasks,
    );
  }
  const unverified = run.results
    .filter((result) => result.stopReason === 'unverified')
    .map((result) => ({
      taskId: result.taskId,
      repository: result.repository,
      reason: result.unverified ?? 'not recorded (a run from before tenet kept the reason)',
    }))
    .sort((a, b) => a.taskId.localeCompare(b.taskId));
  return {
    label: run.label,
    runDir: run.runDir,
    config: run.config,
    overall: computeFigures(run.results, repositoryOf.size),
    repositories,
    unverified,
  };
}

/** Two runs with one label would be two indistinguishable columns: the repeats get their folder. */
function uniqueLabels(runs: RunData[]): RunData[] {
  const count = new Map<string, number>();
  for (const run of runs) count.set(run.label, (count.get(run.label) ?? 0) + 1);
  return runs.map((run) => (count.get(run.label)! > 1 ? { ...run, label: `${run.label} (${run.runDir})` } : run));
}

function computeReport(runs: RunData[]): BenchReport {
  return { format: 'tenet-bench-report', version: 1, configurations: uniqueLabels(runs).map(computeConfiguration) };
}

/**
 * The run's tasks file, for the count of tasks not finished yet. A relative path is tried against
 * the run folder, then the current folder; a moved or unreadable file only costs that count.
 */
function readPlanned(runDir: string, tasksFile: string, warnings: string[], selected?: string[]): RunData['planned'] {
  const candidates = isAbsolute(tasksFile) ? [tasksFile] : [resolve(runDir, tasksFile), resolve(tasksFile)];
  const file = candidates.find((candidate) => existsSync(candidate));
  if (!tasksFile || !file) {
    warnings.push(
      `${runDir}: its tasks file ${tasksFile || '(none recorded)'} is not there; tasks are counted from the finished ones.`,
    );
    return null;
  }
  try {
    // A run of a subset (--task, --limit) records which tasks it was given: those are its tasks.
    const chosen = selected ? new Set(selected) : undefined;
    return readTasks(file)
      .filter((task) => !chosen || chosen.has(taskId(task)))
      .map((task) => ({ id: taskId(task), repository: task.repository }));
  } catch (error) {
    warnings.push(`${runDir}: ${(error as Error).message}; tasks are counted from the finished ones.`);
    return null;
  }
}

/** Reads one run folder; problems that leave the figures intact go to `warnings`. */
function readRun(runDir: string, warnings: string[]): RunData {
  if (!existsSync(runDir) || !statSync(runDir).isDirectory()) {
    throw new TenetError(`${runDir} is not a folder.`, 'pass the folders `tenet bench run --out` made');
  }
  let manifest;
  try {
    manifest = readManifest(runDir);
  } catch (error) {
    if (error instanceof TenetError) throw error;
    throw new TenetError(
      `${runDir}/run.json cannot be read: ${(error as Error).message}`,
      'pass a folder `tenet bench run --out` made',
    );
  }
  return {
    runDir,
    label: manifest.label || runDir,
    config: manifest.config ?? {},
    results: readResults(runDir),
    planned: readPlanned(runDir, manifest.tasksFile, warnings, manifest.tasks),
  };
}

export function buildReport(runDirs: string[]): { report: BenchReport; warnings: string[] } {
  if (!runDirs.length) throw new TenetError('No run folder given.', 'tenet bench report RUN_DIR...');
  const warnings: string[] = [];
  const runs = runDirs.map((runDir) => readRun(runDir, warnings));
  return { report: computeReport(runs), warnings };
}
