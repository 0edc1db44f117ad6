import { hostname } from 'node:os';
import type { EventSink, RunResult } from '../events';
import type { ModelChoice } from '../model/create-model';
import { RunTally } from '../run/failure-result';
import { headlessPilot } from '../run/pilot';
import { runTask } from '../run/run-task';
import type { RunSettings } from '../run/run-settings';
import type { SandboxSpec } from '../sandbox/create-sandbox';
import type { TaskResult } from './run-dir';
import { taskId, taskRepo, taskTarget, taskTestArgs, type BenchTask } from './task';

export interface OneTaskOptions {
  settings: RunSettings;
  modelFor(task: BenchTask): ModelChoice;
  reposRoot?: string;
  /** The task's checkout, when not where the task says (a runner container has it elsewhere). */
  repo?: string;
  signal?: AbortSignal;
  /** Every event of the session, `error` included when the task could not run to its end. */
  emit: EventSink;
  /** Where it runs, for the result. */
  host: string;
}

/**
 * One task of a benchmark as a session, headless, to its result line: the same whether the
 * coordinator runs it here or a runner container runs it on a swarm (where `emit` goes to stdout).
 * A task that fails (the provider gave up) still counts what its model calls used and cost.
 */
export async function runOneTask(
  task: BenchTask,
  sandbox: SandboxSpec,
  sessionId: string,
  options: OneTaskOptions,
): Promise<TaskResult> {
  const started = Date.now();
  const base = {
    taskId: taskId(task),
    repository: task.repository,
    target: taskTarget(task),
    sessionId,
    host: options.host,
    finishedAt: '',
  };
  const tally = new RunTally({ sessionId, target: base.target, strategy: options.settings.strategy, model: '' });
  try {
    const model = options.modelFor(task);
    const repo = options.repo ?? taskRepo(task, options.reposRoot);
    const result: RunResult = await runTask({
      ...options.settings,
      repo,
      target: taskTarget(task),
      blank: true,
      testArgs: taskTestArgs(task, repo),
      model,
      sandbox,
      sessionId,
      record: { benchTask: taskId(task), benchHost: `${hostname()}` },
      pilot: headlessPilot(false),
      ...(options.signal ? { signal: options.signal } : {}),
      emit: (event) => {
        tally.observe(event);
        options.emit(event);
      },
    });
    const unverified =
      result.stopReason === 'unverified' ? { unverified: result.message ?? 'the reason was not given' } : {};
    return {
      ...base,
      pass: result.pass,
      stopReason: result.stopReason,
      ...unverified,
      usage: result.usage,
      costUsd: result.costUsd,
      ...(result.cacheSavedUsd === undefined ? {} : { cacheSavedUsd: result.cacheSavedUsd }),
      wallMs: result.wallMs,
      finishedAt: new Date().toISOString(),
    };
  } catch (error) {
    const message = (error as Error).message;
    options.emit({ type: 'error', message });
    const spent = tally.failed(error);
    return {
      ...base,
      pass: false,
      stopReason: options.signal?.aborted ? 'cancelled' : 'error',
      usage: spent.usage,
      costUsd: spent.costUsd,
      ...(spent.cacheSavedUsd === undefined ? {} : { cacheSavedUsd: spent.cacheSavedUsd }),
      wallMs: Date.now() - started,
      error: message.split('\n')[0]!,
      finishedAt: new Date().toISOString(),
    };
  }
}
