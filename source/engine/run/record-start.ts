import { createHash } from 'node:crypto';
import { TenetError } from '../errors';
import { describeSandbox } from '../sandbox/sandbox-spec';
import type { TaskRun } from './run-context';

export const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

/**
 * The session's first event, with every setting that changes what the run does. Resuming, it was
 * recorded already: the target's file must still be the one the session started from. A plan's
 * start names it by `label` (its file and number of targets).
 */
export function recordStart(run: TaskRun, label?: string): void {
  const { options, task, resume } = run;
  const originalSha1 = sha1(task.target.originalText);
  if (resume?.start) {
    if (resume.start.config.originalSha1 !== originalSha1) {
      throw new TenetError(
        `${task.target.file} changed in the checkout since the session started; resuming would build on different code.`,
        'restore the file, or start a new session with `tenet run`',
      );
    }
    return;
  }
  run.emit({
    type: 'session.start',
    sessionId: run.sessionId,
    target: label ?? task.target.id,
    mode: task.target.mode,
    strategy: options.strategy,
    model: options.model.settings.model,
    modelLabel: options.model.model.label,
    provider: options.model.settings.provider,
    repo: task.repoDir,
    config: {
      ...options.model.settings,
      ...options.record,
      ...(run.instructions
        ? { instructions: run.instructions }
        : options.instructions === 'off'
          ? { instructions: 'off' as const }
          : {}),
      budget: options.budget,
      ...(options.limits?.maxCostUsd !== undefined || options.limits?.maxTokens !== undefined
        ? { limits: options.limits }
        : {}),
      ...(run.tdd ? { tddBudget: options.tddBudget } : {}),
      select: options.select,
      testStage: options.testStage,
      ablations: options.ablations,
      T: Number.isFinite(options.T) ? options.T : 'all',
      testArgs: options.testArgs,
      jobs: options.jobs,
      onePass: options.onePass,
      caller: options.caller,
      ...(options.reach === false ? { reach: false as const } : {}),
      testTimeoutSec: options.testTimeoutSec,
      python: task.python.asked,
      sandbox: describeSandbox(options.sandbox ?? { kind: 'local' }),
      workspace: task.workspace.root,
      originalSha1,
    },
  });
}
