import { existsSync, readFileSync } from 'node:fs';
import { basename, isAbsolute, join, resolve } from 'node:path';
import { TenetError } from '../errors';

/**
 * One benchmark task, one JSON object per line of a tasks file. The first fields are RepoCod's own
 * (its dataset rows have exactly these, `relavent_test_path` spelled as RepoCod spells it), so a
 * RepoCod file and a file `tenet bench make` wrote read the same way; `tenet` holds what tenet
 * adds: where the repository is, the target as tenet names it, the failing tests and THM's report.
 */
export interface BenchTask {
  repository: string;
  repo_id: string;
  /** The target's module, relative to the repository root. */
  target_module_path: string;
  /** Python qualname: `func` or `Class.method`. */
  function_name: string;
  /** Signature and docstring. */
  prompt: string;
  /** The ground truth: the whole function as the repository has it. */
  full_function: string;
  /** RepoCod's pointer to the tests of the task (a file or folder); empty when unknown. */
  relavent_test_path: string;
  tenet?: {
    /** Absolute path of the repository checkout (bench make records it; RepoCod rows lack it). */
    repo?: string;
    /** `file::qualname@line`. */
    target: string;
    /** pytest arguments of the scope THM ran on. */
    testArgs: string[];
    /** The failing tests THM found: the evaluation set. */
    failing: string[];
    /** THM's report when the task was made (the `tenet thm --json` shape). */
    thm?: unknown;
  };
}

/** A task's identity in a run: stable across restarts, unique in a file. */
export function taskId(task: BenchTask): string {
  return `${task.repository}-${task.repo_id}`;
}

/** The repository checkout of a task: its recorded path, else `reposRoot/<repository>`. */
export function taskRepo(task: BenchTask, reposRoot?: string): string {
  if (task.tenet?.repo) return task.tenet.repo;
  if (!reposRoot)
    throw new TenetError(
      `Task ${taskId(task)} does not say where ${task.repository} is checked out.`,
      'pass --repos DIR, the folder that holds a checkout of each repository by name',
    );
  return resolve(reposRoot, task.repository);
}

/** The target as tenet names it. */
export function taskTarget(task: BenchTask): string {
  return task.tenet?.target ?? `${task.target_module_path}::${task.function_name}`;
}

/**
 * The pytest scope of a task: the recorded one; else RepoCod's test path, which is either a test
 * file or folder (a pytest argument) or RepoCod's own list of the task's tests, a
 * `failed_tests_<function>.txt` of node ids that its rows name by where it sits in RepoCod's
 * images (`/usr/src/app/target_test_cases/…`). The list is read from that path, else from the
 * same place under `repoDir`; when it is nowhere, the scope is the project's own configuration
 * (THM then finds the failing tests in the whole suite: slower, same tests).
 */
export function taskTestArgs(task: BenchTask, repoDir?: string): string[] {
  if (task.tenet?.testArgs) return task.tenet.testArgs;
  const path = task.relavent_test_path;
  if (!path) return [];
  if (!path.endsWith('.txt')) return [path];
  const inRepo = repoDir
    ? [
        resolve(repoDir, path.replace(/^\/usr\/src\/app\//, '')),
        join(resolve(repoDir), 'target_test_cases', basename(path)),
      ]
    : [];
  const places = [path, ...inRepo];
  const found = places.find((place) => isAbsolute(place) && existsSync(place));
  if (!found) return [];
  return readFileSync(found, 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
}

const REQUIRED = ['repository', 'repo_id', 'target_module_path', 'function_name'] as const;

/**
 * Reads a tasks file: JSON lines (tenet's and RepoCod's exports), or one JSON array. Each row is
 * checked for RepoCod's fields; a bad row is an error naming its line.
 */
export function readTasks(file: string): BenchTask[] {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new TenetError(
      `Cannot read the tasks file ${file}: ${(error as Error).message}`,
      'pass a JSON-lines file from `tenet bench make`, or a RepoCod export',
    );
  }
  const rows: { row: unknown; line: number }[] = [];
  if (text.trimStart().startsWith('[')) {
    try {
      (JSON.parse(text) as unknown[]).forEach((row, i) => {
        rows.push({ row, line: i + 1 });
      });
    } catch (error) {
      throw new TenetError(`${file} is not valid JSON: ${(error as Error).message}`);
    }
  } else {
    text.split('\n').forEach((line, i) => {
      if (!line.trim()) return;
      try {
        rows.push({ row: JSON.parse(line), line: i + 1 });
      } catch (error) {
        throw new TenetError(`${file}:${i + 1} is not valid JSON: ${(error as Error).message}`);
      }
    });
  }
  const tasks = rows.map(({ row, line }) => {
    const r = row as Record<string, unknown>;
    const missing = REQUIRED.filter((key) => r[key] === undefined || r[key] === null || r[key] === '');
    if (missing.length)
      throw new TenetError(
        `${file}:${line}: the task has no ${missing.join(', ')}.`,
        "each task needs RepoCod's fields: repository, repo_id, target_module_path, function_name",
      );
    return {
      ...r,
      repo_id: String(r.repo_id),
      prompt: String(r.prompt ?? ''),
      full_function: String(r.full_function ?? ''),
      relavent_test_path: String(r.relavent_test_path ?? ''),
    } as BenchTask;
  });
  const seen = new Set<string>();
  for (const task of tasks) {
    const id = taskId(task);
    if (seen.has(id))
      throw new TenetError(`${file}: two tasks are ${id}.`, 'each (repository, repo_id) pair must be unique');
    seen.add(id);
  }
  return tasks;
}
