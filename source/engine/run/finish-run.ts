import type { Conversation } from '../agent/conversation';
import { applyToCheckout, unifiedPatch } from '../eval/patch';
import { secretsInPatch } from '../eval/patch-secrets';
import type { RunResult, TestRun } from '../events';
import { TenetError } from '../errors';
import { harnessReach, reachWords } from '../python-source/harness-reach';
import {
  evaluatePristine,
  type CheckoutAtStart,
  type Evaluation,
  type EvaluationInput,
} from '../eval/pristine-evaluation';
import { submittedModule, targetIsStub } from '../eval/submitted-module';
import { resultUsage } from '../model/usage-sums';
import { writeTarget } from '../tools/submit';
import { classifyFailure, measureTestQuality } from '../quality/test-quality';
import { runTests } from '../tools/run-tests';
import type { AgentTools } from './agent-tools';
import type { TestPlan } from './choose-tests';
import { decideThenEnd } from './patch-decision';
import { agentTestsToKeep } from './keep-tests';
import type { StrategyResult } from './strategies';
import type { TaskRun } from './run-context';

/** Stop reasons that outrank a passing evaluation: the run did not end by itself. */
const STOPPED = new Set<RunResult['stopReason']>(['cancelled', 'cost-limit', 'token-limit']);

/**
 * Why a judged run stopped: unverified when tenet could not judge, `passed` when every test passed
 * and the run ended by itself, else why the agent's part ended (a stop outranks a pass).
 */
export function verdictReason(
  judgement: Pick<Judgement, 'evaluation' | 'pass'>,
  agentStop: RunResult['stopReason'],
): RunResult['stopReason'] {
  if (!judgement.evaluation) return 'unverified';
  return judgement.pass && !STOPPED.has(agentStop) ? 'passed' : agentStop;
}

/** A failing entry passes: a test that passed, or a module (THM's import failure) all of whose tests pass. */
export function entryPassed(id: string, outcomes: Record<string, string>): boolean {
  if (id.includes('::')) return outcomes[id] === 'passed';
  const inside = Object.entries(outcomes).filter(([nodeid]) => nodeid.startsWith(`${id}::`));
  return inside.length > 0 && inside.every(([, outcome]) => outcome === 'passed');
}

/** What the evaluation found of a run's submissions (see judgeSubmissions). */
export interface Judgement {
  judged: Evaluation;
  /** The evaluation's tests run; undefined when the verdict is unverified. */
  evaluation?: TestRun;
  outcomes: Record<string, string>;
  /** Every failing test passed, and tenet could judge it. */
  pass: boolean;
  /** The module the submissions make (undefined: nothing was submitted), and what the evaluation ran. */
  submitted?: string;
  finalText: string;
  selectedTests: { passed: number; total: number };
  hiddenTests: { passed: number; total: number };
}

/**
 * The evaluation of a run's submissions on every failing test THM found, the hidden ones back in
 * place, in a fresh copy of the checkout (see evaluatePristine). `otherModules`: a plan's other
 * files, as its kept targets leave them.
 */
export async function judgeSubmissions(
  run: TaskRun,
  plan: TestPlan,
  tools: AgentTools,
  outcome: Pick<StrategyResult, 'stopReason'>,
  checkoutAtStart: CheckoutAtStart,
  otherModules?: EvaluationInput['otherModules'],
): Promise<Judgement> {
  const { options, task, emit } = run;
  const { failing, selected } = plan;
  emit({ type: 'agent.phase', phase: 'evaluate', stopReason: outcome.stopReason });
  // The agent's workspace gets the final module and the hidden tests back: what the TDD
  // strategies measure below runs there. The verdict does not: see evaluatePristine.
  await plan.hidden.restore();
  const submitted = await submittedModule(task.target.originalText, task.target, run.submissions);
  if (submitted !== undefined) await writeTarget(tools.ctx, submitted);
  // What the evaluation ran; the patch is the submissions' module against the original (none: no patch).
  const finalText = submitted ?? task.target.startText;
  const judged = await evaluatePristine({
    task,
    moduleText: finalText,
    ...(otherModules ? { otherModules } : {}),
    tests: failing,
    developerFiles: run.developerFiles,
    testArgs: options.testArgs,
    testTimeoutSec: options.testTimeoutSec,
    jobs: options.jobs,
    session: run.sessionId,
    checkoutAtStart,
    ...(options.sessionsRoot ? { skip: new Set([options.sessionsRoot]) } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const evaluation = 'run' in judged ? judged.run : undefined;
  const outcomes = evaluation?.outcomes ?? {};
  if (evaluation)
    emit({
      type: 'tests.run',
      purpose: 'evaluate',
      report: evaluation.report,
      outcomes,
      passed: evaluation.passed,
      total: evaluation.total,
    });
  else emit({ type: 'warning', message: `The verdict is unverified: ${unverifiedReason(judged)}.` });
  const passedIn = (ids: string[]) => ids.filter((id) => entryPassed(id, outcomes)).length;
  const hiddenIds = failing.filter((id) => !selected.includes(id));
  return {
    judged,
    ...(evaluation ? { evaluation } : {}),
    outcomes,
    pass: !!evaluation && failing.every((id) => entryPassed(id, outcomes)),
    ...(submitted !== undefined ? { submitted } : {}),
    finalText,
    selectedTests: { passed: passedIn(selected), total: selected.length },
    hiddenTests: { passed: passedIn(hiddenIds), total: hiddenIds.length },
  };
}

/**
 * The end of a run: the evaluation on every failing test THM found, the hidden ones back in
 * place; for the TDD strategies, how good the agent's tests are and why a failed task failed; the
 * result, and what the pilot decides about the patch.
 */
export async function finishRun(
  run: TaskRun,
  plan: TestPlan,
  tools: AgentTools,
  conversation: Conversation,
  outcome: StrategyResult,
  startedAt: number,
  checkoutAtStart: CheckoutAtStart,
): Promise<RunResult> {
  const { options, task, emit } = run;
  const { ctx } = tools;
  const { judged, evaluation, outcomes, pass, submitted, finalText, selectedTests, hiddenTests } =
    await judgeSubmissions(run, plan, tools, outcome, checkoutAtStart);
  const patch = submitted === undefined ? '' : unifiedPatch(task.target.file, task.target.originalText, submitted);
  // The submission the evaluation judged, read for what reaches toward the harness (the judge decided; this says so).
  const last = run.submissions.at(-1);
  const flagged = last === undefined ? [] : await harnessReach(last).catch(() => []);
  const patchSecrets =
    submitted === undefined ? [] : secretsInPatch(task.target.file, task.target.originalText, submitted);
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
      failure = await classifyFailure({
        ctx,
        ownTestsGreen,
        ...(testQuality ? { quality: testQuality } : {}),
        finalOutcomes: own.outcomes,
        testVersions: run.ownTestVersions,
        finalText,
      });
    }
  }
  const result: RunResult = {
    type: 'result',
    sessionId: run.sessionId,
    target: task.target.id,
    strategy: options.strategy,
    pass,
    // A run stopped by the developer or by a spend limit says so, whatever the evaluation found;
    // one tenet could not judge says that above all.
    stopReason: verdictReason({ evaluation, pass }, outcome.stopReason),
    ...(evaluation ? {} : { message: unverifiedReason(judged) }),
    ...(flagged.length ? { flagged: reachWords(flagged) } : {}),
    ...(patchSecrets.length ? { patchSecrets } : {}),
    selectedTests,
    hiddenTests,
    tests: outcomes,
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
  const testCode =
    run.tdd && ctx.agentTestFile
      ? await ctx.workspace.read(ctx.agentTestFile).then(
          (b) => b.toString('utf8'),
          () => undefined,
        )
      : undefined;
  const agentTests =
    testCode !== undefined ? agentTestsToKeep(task.repoDir, ctx.agentTestFile!, testCode, emit) : undefined;
  return decideThenEnd(
    options.pilot,
    result,
    async () => {
      // A verdict tenet could not check never reaches the developer's code, whoever accepts it.
      if (!evaluation)
        throw new TenetError(
          `The verdict is unverified (${unverifiedReason(judged)}); the patch was not applied. It is kept in the session (tenet show ${run.sessionId}).`,
        );
      // A stub (the model submitted `raise NotImplementedError`) is never written over the developer's code.
      if (await targetIsStub(submitted!, task.target))
        throw new TenetError(`The submitted ${task.target.qualname} is still a stub; the patch was not applied.`);
      applyToCheckout(task.repoDir, task.target.file, task.target.source, submitted!);
      return undefined;
    },
    emit,
    agentTests ? { agentTests } : {},
  );
}

export const unverifiedReason = (judged: Evaluation): string => ('unverified' in judged ? judged.unverified : '');
