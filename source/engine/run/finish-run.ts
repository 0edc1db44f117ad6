import type { Conversation } from '../agent/conversation';
import { applyToCheckout, unifiedPatch } from '../eval/patch';
import type { RunResult } from '../events';
import { TenetError } from '../errors';
import { digestTree, undoAgentChanges, type TreeDigest, type UndoneChanges } from '../eval/agent-changes';
import { onShutdown } from '../lifecycle';
import { submittedModule, targetIsStub } from '../eval/submitted-module';
import { resultUsage } from '../model/usage-sums';
import { writeTarget } from '../tools/submit';
import { classifyFailure, measureTestQuality } from '../quality/test-quality';
import { runTests } from '../tools/run-tests';
import type { AgentTools } from './agent-tools';
import type { TestPlan } from './choose-tests';
import { settlePatch } from './patch-decision';
import { agentTestsToKeep } from './keep-tests';
import type { StrategyResult } from './strategies';
import type { TaskRun } from './task-run';

/** Stop reasons that outrank a passing evaluation: the run did not end by itself. */
const STOPPED = new Set<RunResult['stopReason']>(['cancelled', 'cost-limit', 'token-limit']);

/** A failing entry passes: a test that passed, or a module (THM's import failure) all of whose tests pass. */
export function entryPassed(id: string, outcomes: Record<string, string>): boolean {
  if (id.includes('::')) return outcomes[id] === 'passed';
  const inside = Object.entries(outcomes).filter(([nodeid]) => nodeid.startsWith(`${id}::`));
  return inside.length > 0 && inside.every(([, outcome]) => outcome === 'passed');
}

/**
 * The end of a run: the evaluation on every failing test THM found, the hidden ones back in
 * place; for the TDD strategies, how good the agent's tests are and why a failed task failed; the
 * result, and what the pilot decides about the patch.
 */
export async function finishRun(run: TaskRun, plan: TestPlan, tools: AgentTools, conversation: Conversation, outcome: StrategyResult, startedAt: number, guard?: AgentChangesGuard): Promise<RunResult> {
  const { options, task, emit } = run;
  const { ctx } = tools;
  const { failing, selected } = plan;
  // The evaluation runs on the module the submissions make (whatever a command did to the
  // target's file since is undone), with the hidden tests back in place, and the rest of the
  // repository as it was when the agent started.
  emit({ type: 'agent.phase', phase: 'evaluate', stopReason: outcome.stopReason });
  await plan.hidden.restore();
  if (guard) await undoWhatTheAgentChanged(run, tools, plan, guard);
  const submitted = await submittedModule(task.target.originalText, task.target, run.submissions);
  if (submitted !== undefined) await writeTarget(ctx, submitted);
  const evaluation = await runTests(ctx, failing, 'evaluate');
  emit({ type: 'tests.run', purpose: 'evaluate', report: evaluation.report, outcomes: evaluation.outcomes, passed: evaluation.passed, total: evaluation.total });
  const passedIn = (ids: string[]) => ids.filter((id) => entryPassed(id, evaluation.outcomes)).length;
  const hiddenIds = failing.filter((id) => !selected.includes(id));
  const pass = failing.every((id) => entryPassed(id, evaluation.outcomes));

  // What the evaluation ran; the patch is the submissions' module against the original (none: no patch).
  const finalText = submitted ?? task.target.startText;
  const patch = submitted === undefined ? '' : unifiedPatch(task.target.file, task.target.originalText, submitted);
  const totals = conversation.totals;
  let testQuality: RunResult['testQuality'];
  let failure: RunResult['failure'];
  if (run.tdd && ctx.agentTestFile && outcome.stopReason !== 'cancelled') {
    // The agent's own last run may predate its final code (code and finish in one round): the
    // taxonomy rests on its tests run now, on the code that was evaluated.
    const own = await runTests(ctx, [ctx.agentTestFile], 'agent');
    tools.recordRun(own, 'agent');
    emit({ type: 'agent.phase', phase: 'quality' });
    if (options.measureTests) testQuality = await measureTestQuality({ ctx, testFile: ctx.agentTestFile, finalText });
    if (!pass) {
      const ownTestsGreen = own.total > 0 && own.passed === own.total;
      failure = await classifyFailure({ ctx, ownTestsGreen, ...(testQuality ? { quality: testQuality } : {}), finalOutcomes: own.outcomes, testVersions: run.ownTestVersions, finalText });
    }
  }
  const result: RunResult = {
    type: 'result',
    sessionId: run.sessionId,
    target: task.target.id,
    strategy: options.strategy,
    pass,
    // A run stopped by the developer or by a spend limit says so, whatever the evaluation found.
    stopReason: pass && !STOPPED.has(outcome.stopReason) ? 'passed' : outcome.stopReason,
    selectedTests: { passed: passedIn(selected), total: selected.length },
    hiddenTests: { passed: passedIn(hiddenIds), total: hiddenIds.length },
    tests: evaluation.outcomes,
    ...resultUsage(totals, totals.modelCalls, totals.toolCalls),
    rounds: outcome.rounds,
    ...(totals.unpriced ? { costUnpriced: true } : {}),
    ...(totals.estimatedTokens ? { tokensEstimated: true } : {}),
    costOfPass: pass ? totals.costUsd : null,
    wallMs: Date.now() - startedAt,
    patch,
    model: options.model.settings.model,
    applied: false,
    ...(testQuality ? { testQuality } : {}),
    ...(failure ? { failure } : {}),
  };
  // TDD: the agent's tests may be kept beside the repository's, as the developer decides.
  const testCode = run.tdd && ctx.agentTestFile ? await ctx.workspace.read(ctx.agentTestFile).then((b) => b.toString('utf8'), () => undefined) : undefined;
  const agentTests = testCode !== undefined ? agentTestsToKeep(task.repoDir, ctx.agentTestFile!, testCode, emit) : undefined;
  // Stopped while the patch waits for the developer (Ctrl+C on the result screen, a closed
  // terminal): the run is over, so it ends with its own result, the patch not applied.
  const stoppedUndecided = onShutdown(() => {
    emit({ type: 'patch.decision', decision: 'reject', applied: false, reason: 'tenet was stopped before the patch was decided; it is kept in the session (tenet show, tenet export)' });
    emit(result);
  });
  try {
    result.applied = await settlePatch(
      options.pilot,
      result,
      async () => {
        // A stub (the model submitted `raise NotImplementedError`) is never written over the developer's code.
        if (await targetIsStub(submitted!, task.target)) throw new TenetError(`The submitted ${task.target.qualname} is still a stub; the patch was not applied.`);
        applyToCheckout(task.repoDir, task.target.file, task.target.source, submitted!);
      },
      emit,
      agentTests ? { agentTests } : {},
    );
  } finally {
    stoppedUndecided();
  }
  emit(result);
  return result;
}

/** The workspace's files as the agent started, and the files tenet itself writes during the run (see undoAgentChanges). */
export interface AgentChangesGuard {
  before: TreeDigest | undefined;
  /** The files hidden when the agent started (postgen puts some back during the run). */
  hiddenAtStart: readonly string[];
}

const guardContext = (run: TaskRun, tools: AgentTools) => ({ sandbox: tools.ctx.sandbox, workspace: tools.ctx.workspace, python: tools.ctx.python.executable, repoDir: run.task.repoDir });

/** Takes the workspace's digest before the agent starts: its first command may already change a file. */
export async function watchAgentChanges(run: TaskRun, tools: AgentTools, plan: TestPlan): Promise<AgentChangesGuard> {
  const before = await digestTree(guardContext(run, tools)).catch((error: unknown) => {
    run.emit({ type: 'warning', message: `The repository's files could not be listed as the agent started (${(error as Error).message}): the evaluation cannot undo what the agent's commands change in them.` });
    return undefined;
  });
  return { before, hiddenAtStart: [...plan.hidden.files] };
}

/** The evaluation judges the submission against the repository's own code and tests: what the agent's commands changed is undone, and said. */
async function undoWhatTheAgentChanged(run: TaskRun, tools: AgentTools, plan: TestPlan, guard: AgentChangesGuard): Promise<void> {
  const { before } = guard;
  if (!before) return;
  const { ctx } = tools;
  const own = new Set([run.task.target.file, ...(ctx.agentTestFile ? [ctx.agentTestFile] : []), ...plan.hidden.files, ...guard.hiddenAtStart]);
  let undone: UndoneChanges;
  try {
    undone = await undoAgentChanges(guardContext(run, tools), before, own);
  } catch (error) {
    run.emit({ type: 'warning', message: `What the agent's commands changed in the repository could not be checked (${(error as Error).message}): the evaluation runs on the workspace as the agent left it.` });
    return;
  }
  const list = (files: string[]) => `${files.slice(0, 5).join(', ')}${files.length > 5 ? ` and ${files.length - 5} more` : ''}`;
  const parts = [
    ...(undone.restored.length ? [`put back ${list(undone.restored)}`] : []),
    ...(undone.removed.length ? [`removed ${list(undone.removed)}, which it had made`] : []),
  ];
  if (parts.length) run.emit({ type: 'warning', message: `The evaluation runs on the repository's own files: the agent's commands had changed them; tenet ${parts.join(' and ')}.` });
  if (undone.kept.length) run.emit({ type: 'warning', message: `The agent's commands changed ${list(undone.kept)}, and the content it had when the agent started is nowhere to be had (the checkout changed too): the evaluation runs with the agent's version.` });
}
