import type { EventSink } from '../events';
import { TenetError } from '../errors';
import type { ModelChoice } from '../model/create-model';
import { newSessionId } from '../run/run-task';
import type { RunSettings } from '../run/run-settings';
import type { SandboxSpec } from '../sandbox/create-sandbox';
import { SessionRecorder } from '../session/recorder';
import {
  appendResult,
  endTornLine,
  readManifest,
  readResults,
  sessionsOf,
  writeManifest,
  type RunManifest,
  type TaskResult,
} from './run-dir';
import { runOneTask } from './run-one';
import { taskId, type BenchTask } from './task';

export interface BenchRunOptions {
  tasks: BenchTask[];
  tasksFile: string;
  runDir: string;
  label: string;
  /** What is recorded as the configuration (compared on restart: a run folder holds one configuration). */
  config: Record<string, unknown>;
  /** The same for every task of the run. */
  settings: RunSettings;
  /** A model for one task (a scripted model gets the task's own script). */
  modelFor(task: BenchTask): ModelChoice;
  /** Where each task's Python runs when the task runs here: local, or a Docker engine. */
  sandbox: SandboxSpec;
  /**
   * Runs a task elsewhere instead (`--on swarm`): its session must end up in `sessions`, and its
   * result come back. Without it, tasks run in this process.
   */
  runElsewhere?: (task: BenchTask, sessions: string) => Promise<TaskResult>;
  parallel: number;
  reposRoot?: string;
  /** Run again the tasks that ended in an error (not the ones that failed). */
  retryErrors?: boolean;
  signal?: AbortSignal;
  onProgress?: (progress: BenchProgress) => void;
  /** Every engine event of every task, with its task (verbose output). */
  onEvent?: (task: BenchTask, event: Parameters<EventSink>[0]) => void;
}

export interface BenchProgress {
  total: number;
  done: number;
  passed: number;
  errors: number;
  costUsd: number;
  running: string[];
  /** Milliseconds since this invocation started, and how many tasks it finished (for the ETA). */
  elapsedMs: number;
  doneHere: number;
  last?: TaskResult;
}

/** Settings a run folder made by an earlier tenet may lack: not compared then. */
const ADDED_LATER = new Set(['scriptSha256']);

/** The settings in which this run's configuration differs from the one its folder holds, in words. */
function differences(held: Record<string, unknown>, asked: Record<string, unknown>): string[] {
  const shown = (value: unknown) => {
    const text = value === undefined ? 'none' : JSON.stringify(value);
    return text.length > 80 ? `${text.slice(0, 79)}…` : text;
  };
  return [...new Set([...Object.keys(held), ...Object.keys(asked)])]
    .filter(
      (key) => JSON.stringify(held[key]) !== JSON.stringify(asked[key]) && !(ADDED_LATER.has(key) && !(key in held)),
    )
    .map((key) =>
      key === 'scriptSha256' ? "the script's content" : `${key}: ${shown(held[key])} there, ${shown(asked[key])} now`,
    );
}

/** Where a sandbox runs, for results and progress. */
function sandboxName(spec: SandboxSpec): string {
  return spec.kind === 'local' ? 'local' : (spec.host ?? process.env.DOCKER_HOST ?? 'docker');
}

/**
 * `tenet bench run`: every task as a normal saved session (in the run folder's sessions/), N at a
 * time, here or on a swarm (`runElsewhere`: a run past one machine). A restart with the same folder skips the tasks it finished; its configuration must
 * be the same, since a run folder is one row of a report.
 */
export async function runBench(options: BenchRunOptions): Promise<TaskResult[]> {
  let manifest: RunManifest;
  try {
    manifest = readManifest(options.runDir);
    const differ = differences(manifest.config, options.config);
    if (differ.length) {
      throw new TenetError(
        `${options.runDir} holds a run with other settings (${manifest.label}); they differ in ${differ.join('; ')}.`,
        'a run folder is one configuration: resume it with the same flags, or pass another --out',
      );
    }
  } catch (error) {
    if (error instanceof TenetError && /holds a run with other settings/.test(error.message)) throw error;
    manifest = {
      format: 'tenet-bench-run',
      version: 1,
      label: options.label,
      tasksFile: options.tasksFile,
      createdAt: new Date().toISOString(),
      config: options.config,
    };
  }
  // The tasks of the run: this invocation's added to those of earlier ones.
  manifest = { ...manifest, tasks: [...new Set([...(manifest.tasks ?? []), ...options.tasks.map(taskId)])] };
  writeManifest(options.runDir, manifest);
  endTornLine(options.runDir);
  const finished = new Map(readResults(options.runDir).map((r) => [r.taskId, r]));
  const todo = options.tasks.filter((task) => {
    const previous = finished.get(taskId(task));
    return !previous || (options.retryErrors && previous.error);
  });
  const results = new Map(finished);
  for (const task of todo) results.delete(taskId(task));
  const started = Date.now();
  const running = new Set<string>();
  let doneHere = 0;
  const progress = (last?: TaskResult) => {
    const all = [...results.values()];
    options.onProgress?.({
      total: options.tasks.length,
      done: all.length,
      passed: all.filter((r) => r.pass).length,
      errors: all.filter((r) => r.error).length,
      costUsd: all.reduce((sum, r) => sum + r.costUsd, 0),
      running: [...running],
      elapsedMs: Date.now() - started,
      doneHere,
      ...(last ? { last } : {}),
    });
  };
  progress();

  const sessions = sessionsOf(options.runDir);
  const slots = Math.max(1, Math.min(options.parallel, todo.length || 1));
  let next = 0;
  const worker = async () => {
    for (let index = next++; index < todo.length; index = next++) {
      if (options.signal?.aborted) return;
      const task = todo[index]!;
      const id = taskId(task);
      running.add(id);
      progress();
      const result = options.runElsewhere
        ? await options.runElsewhere(task, sessions)
        : await runHere(task, options.sandbox, sessions, options);
      running.delete(id);
      if (options.signal?.aborted && result.stopReason === 'cancelled') return; // unfinished: runs again on restart
      appendResult(options.runDir, result);
      results.set(id, result);
      doneHere++;
      progress(result);
    }
  };
  await Promise.all(Array.from({ length: slots }, () => worker()));
  return options.tasks.map((task) => results.get(taskId(task))).filter((r): r is TaskResult => !!r);
}

/** A task run here, its session recorded in the run folder as it happens. */
async function runHere(
  task: BenchTask,
  sandbox: SandboxSpec,
  sessions: string,
  options: BenchRunOptions,
): Promise<TaskResult> {
  const sessionId = newSessionId();
  let recorder: SessionRecorder | undefined;
  try {
    return await runOneTask(task, sandbox, sessionId, {
      settings: options.settings,
      // The recorder opens once the model is made, as before: a task whose model cannot be made has no session.
      modelFor: (t) => {
        const model = options.modelFor(t);
        recorder = SessionRecorder.open(sessions, sessionId);
        return model;
      },
      ...(options.reposRoot ? { reposRoot: options.reposRoot } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      host: sandboxName(sandbox),
      emit: (event) => {
        recorder?.record(event);
        options.onEvent?.(task, event);
      },
    });
  } finally {
    recorder?.close();
  }
}
