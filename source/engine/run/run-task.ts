import { createHash, randomBytes } from 'node:crypto';
import { Conversation } from '../agent/conversation';
import { renderPrompt } from '../agent/prompts';
import { proposeFor } from '../thm/propose';
import { moduleContext, testsSection } from '../agent/task-context';
import { TDD_PAPER_BUDGET } from '../agent/tdd-strategy';
import type { Ablations, Budget, RecordedExtras, Selection, Strategy, TddBudget, TestStage } from '../protocol/settings';
import { TenetError } from '../errors';
import { applyToCheckout, unifiedPatch } from '../eval/patch';
import { submittedModule, targetIsStub } from '../eval/submitted-module';
import type { EventSink, RunResult, TestRun } from '../events';
import type { ModelChoice } from '../model/create-model';
import type { SandboxSpec } from '../sandbox/create-sandbox';
import { describeSandbox } from '../sandbox/sandbox-spec';
import type { SessionState } from '../session/fold';
import { hideTests } from '../task/hide-tests';
import { selectWith } from '../thm/alt-selection';
import { openTask } from '../task/open-task';
import { runThm, THM_DEFAULTS } from '../thm/run-thm';
import type { ThmReport } from '../protocol/thm-report';
import { classifyFailure, measureTestQuality } from '../quality/test-quality';
import { runTests } from '../tools/run-tests';
import { applyTests, writeTarget } from '../tools/submit';
import { openToolbox } from '../tools/toolbox';
import { commandApproval, settlePatch } from './patch-decision';
import type { Pilot } from './pilot';
import { runStrategy, strategyTools, type StrategyResult } from './strategies';

export interface RunOptions {
  repo: string;
  target: string;
  blank: boolean;
  python?: string;
  /** Where Python runs (default: this machine). */
  sandbox?: SandboxSpec;
  testArgs: string[];
  T: number;
  jobs: number | 'auto';
  fork: boolean;
  testTimeoutSec: number;
  thmTimeoutSec: number;
  budget: Budget;
  /** `tenet` (default), `tdd` or `tenet+tdd`. */
  strategy?: Strategy;
  tddBudget?: TddBudget;
  /** TDD strategies: measure the generated tests (coverage, mutation score); on by default. */
  measureTests?: boolean;
  /** RQ4 ablation: how the tests the agent gets are chosen (default THM's clusters). */
  select?: Selection;
  /** RQ5 ablation: when the tests take part: not at all, before the first submission only, after it only, or both (default). */
  testStage?: TestStage;
  ablations: Ablations;
  model: ModelChoice;
  pilot: Pilot;
  emit: EventSink;
  signal?: AbortSignal;
  sessionId?: string;
  /** Extra settings to record with the session (e.g. the model script's file). */
  record?: RecordedExtras;
  /** Go on with an interrupted session, from the state its log describes. */
  resume?: SessionState;
}

export function newSessionId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

/** A failing entry passes: a test that passed, or a module (THM's import failure) all of whose tests pass. */
export function entryPassed(id: string, outcomes: Record<string, string>): boolean {
  if (id.includes('::')) return outcomes[id] === 'passed';
  const inside = Object.entries(outcomes).filter(([nodeid]) => nodeid.startsWith(`${id}::`));
  return inside.length > 0 && inside.every(([, outcome]) => outcome === 'passed');
}

export const sha1 = (text: string) => createHash('sha1').update(text).digest('hex');

async function approve(report: ThmReport, options: RunOptions, workspaceRoot: string): Promise<{ chosen: string[]; by: 'auto' | 'human' | 'ablation' | 'strategy'; T?: number | null }> {
  // TDD-Agent: the repository's tests stay hidden until the evaluation, as in the paper.
  if (options.strategy === 'tdd') return { chosen: [], by: 'strategy' };
  if (options.ablations.noThm) return { chosen: report.failing.map((f) => f.nodeid), by: 'ablation' };
  if (options.testStage === 'none') return { chosen: [], by: 'ablation' };
  if (options.select && options.select !== 'thm') return { chosen: await selectWith(options.select, report, options.T, { workspaceRoot }), by: 'ablation' };
  return options.pilot.approveTests(report);
}

/**
 * One task end to end: THM, the developer's approval of the tests, the agent with its tools, and
 * the evaluation on every failing test THM found, the ones the agent never saw included. With
 * `resume`, the steps the log shows as done are taken from it: THM's report and the approval, the
 * conversation, the last submission (re-applied to a fresh workspace), and the strategy's place.
 */
export async function runTask(options: RunOptions): Promise<RunResult> {
  const started = Date.now();
  const resume = options.resume;
  const sessionId = options.sessionId ?? resume?.start?.sessionId ?? newSessionId();
  // What the failure analysis of a TDD session needs: each version of the agent's tests.
  const ownTestVersions: string[] = [...(resume?.testVersions ?? [])];
  // The result is built from these, applied to the original file (see submittedModule).
  const submissions: string[] = [...(resume?.submissions ?? [])];
  const emit: EventSink = (event) => {
    if (event.type === 'tests.submission' && event.ok) ownTestVersions.push(event.code);
    if (event.type === 'submission' && event.ok) submissions.push(event.code);
    options.emit(event);
  };
  const task = await openTask({
    repo: options.repo,
    target: options.target,
    blank: options.blank,
    session: sessionId,
    ...(options.python ? { python: options.python } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
  const strategy: Strategy = options.strategy ?? 'tenet';
  const tddBudget = options.tddBudget ?? TDD_PAPER_BUDGET;
  const tdd = strategy !== 'tenet';
  let toolbox: Awaited<ReturnType<typeof openToolbox>> | undefined;
  try {
    const originalSha1 = sha1(task.target.originalText);
    if (resume?.start) {
      if (resume.start.config.originalSha1 !== originalSha1) {
        throw new TenetError(`${task.target.file} changed in the checkout since the session started; resuming would build on different code.`, 'restore the file, or start a new session with `tenet run`');
      }
    } else {
      emit({
        type: 'session.start',
        sessionId,
        target: task.target.id,
        mode: task.target.mode,
        strategy,
        model: options.model.settings.model,
        modelLabel: options.model.model.label,
        provider: options.model.settings.provider,
        repo: task.repoDir,
        config: {
          ...options.model.settings,
          ...options.record,
          budget: options.budget,
          ...(tdd ? { tddBudget } : {}),
          select: options.select ?? 'thm',
          testStage: options.testStage ?? 'all',
          ablations: options.ablations,
          T: Number.isFinite(options.T) ? options.T : 'all',
          testArgs: options.testArgs,
          jobs: options.jobs,
          fork: options.fork,
          testTimeoutSec: options.testTimeoutSec,
          python: task.python.executable,
          sandbox: describeSandbox(options.sandbox ?? { kind: 'local' }),
          workspace: task.workspace.root,
          originalSha1,
        },
      });
    }

    let report = resume?.thm;
    if (!report) {
      report = await runThm(task, { ...THM_DEFAULTS, T: options.T, testArgs: options.testArgs, testTimeoutSec: options.testTimeoutSec, timeoutSec: options.thmTimeoutSec, jobs: options.jobs, fork: options.fork, emit, ...(options.signal ? { signal: options.signal } : {}) });
      emit({ type: 'thm.report', report });
    }
    const failing = report.failing.map((f) => f.nodeid);
    if (!failing.length) {
      throw new TenetError(
        `No test fails against ${task.target.id} as it is, so there is nothing to generate it against.`,
        task.target.mode === 'stub' ? 'write tests that call the function, or pass --blank if it already has a body' : 'widen the scope with --tests',
      );
    }
    let chosen = resume?.approval?.chosen;
    if (!chosen) {
      const decision = await approve(report, options, task.workspace.root);
      chosen = decision.chosen;
      // Measured against THM's proposal for the T the developer settled on: a new T alone is no override.
      const T = decision.T ?? report.T;
      emit({ type: 'thm.approval', proposed: proposeFor(report, T), chosen, by: decision.by, T });
    }
    const stage: TestStage = strategy === 'tenet' ? (options.testStage ?? 'all') : 'all';
    if (!chosen.length && strategy !== 'tdd' && stage !== 'none') throw new TenetError('No test was chosen to validate against.', 'keep at least one test selected');
    const selected = chosen;
    // Before the first submission the agent sees the selected tests unless the stage is postgen.
    const visibleFirst = stage === 'postgen' ? [] : selected;

    let hidden = await hideTests(task.workspace, task.sandbox, failing.filter((id) => !visibleFirst.includes(id)), visibleFirst);
    if (hidden.hidden.length && !resume?.approval) emit({ type: 'tests.hidden', hidden: hidden.hidden, files: hidden.files });
    toolbox = await openToolbox(task, { selectedTests: visibleFirst, testTimeoutSec: options.testTimeoutSec });
    emit({ type: 'index.ready', files: toolbox.indexStats.files, parsed: toolbox.indexStats.parsed, ms: toolbox.indexStats.ms });
    const ctx = toolbox.ctx;
    // Every run_tests the model makes is recorded; TDD's loop reads the latest.
    let agentRun: TestRun | undefined;
    const recordRun = (run: TestRun, purpose: 'agent' | 'validate') => emit({ type: 'tests.run', purpose, report: run.report, outcomes: run.outcomes, passed: run.passed, total: run.total });
    ctx.onTestRun = (run) => {
      agentRun = run;
      recordRun(run, 'agent');
    };
    if (options.pilot.approveCommand && task.sandbox.kind === 'local') {
      // Every answer is recorded: replays and transcripts show who allowed or refused what.
      ctx.approveCommand = async (command) => {
        const decision = await options.pilot.approveCommand!(command);
        emit(commandApproval(command, decision));
        return decision;
      };
    }
    options.pilot.attach?.({ debugger: ctx.debugger(), selectedTests: selected });
    if (submissions.length) await writeTarget(ctx, (await submittedModule(task.target.originalText, task.target, submissions))!);
    if (resume?.testVersions.length) await applyTests(ctx, resume.testVersions.at(-1)!);
    const debuggerEvents = ctx.debugger().onEvent((event) => {
      if (event.type === 'input') emit({ type: 'debugger.input', who: event.who, input: event.input, mode: event.mode });
      else if (event.type === 'output') emit({ type: 'debugger.output', chunk: event.chunk });
      else if (event.type === 'entry') emit({ type: 'debugger.entry', entry: event.entry });
    });

    // Prompts may only name tools the model is offered (an ablation takes some away).
    const offered = { tools: strategyTools(strategy, options.ablations.noApis).main };
    const conversation = new Conversation({
      model: options.model.model,
      system: resume?.system ?? renderPrompt(tdd ? 'tdd-system' : 'system', {}, offered),
      ctx,
      emit,
      price: options.model.price,
      temperature: options.model.settings.temperature,
      maxTokens: options.model.settings.maxTokens,
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.pilot.beforeModelCall ? { beforeModelCall: () => options.pilot.beforeModelCall!() } : {}),
      ...(options.pilot.callSignal ? { callSignal: () => options.pilot.callSignal!() } : {}),
      ...(options.pilot.afterCancelledCall ? { afterCancelledCall: () => options.pilot.afterCancelledCall!() } : {}),
    });
    if (resume?.messages.length) {
      conversation.restore(resume.messages, resume.totals);
      // Tool calls cut off by the interruption run now; their results go with the next request.
      if (resume.unansweredCalls.length) await conversation.runTools(resume.unansweredCalls, strategyTools(strategy, options.ablations.noApis).main);
    } else {
      const chosenTests = report.failing.filter((f) => visibleFirst.includes(f.nodeid));
      const testsText = chosenTests.length
        ? renderPrompt('tests', { count: chosenTests.length, tests: await testsSection(task.workspace.root, chosenTests) })
        : tdd
          ? "The repository's tests for it are hidden until the end: your tests are the specification."
          : 'No tests are shown before your first submission.';
      conversation.say(
        renderPrompt(tdd ? 'tdd-task' : 'task', {
          qualname: task.target.qualname,
          file: task.target.file,
          signature: task.target.prompt.trimEnd(),
          context: moduleContext(task.target),
          tests: testsText,
          rounds: tdd ? tddBudget.setupRounds : options.budget.pregenRounds,
        }, offered),
      );
    }
    // Validation runs the selected tests, and in tenet+tdd the agent's own as well.
    const ownFile = () => ctx.agentTestFile;
    const validate = async () => {
      const run = await runTests(ctx, [...selected, ...(strategy === 'tenet+tdd' && ownFile() ? [ownFile()!] : [])], 'validate');
      recordRun(run, 'validate');
      return run;
    };
    const runOwnTests = async () => {
      const run = await runTests(ctx, [...selected, ...(ownFile() ? [ownFile()!] : [])], 'agent');
      recordRun(run, 'agent');
      return run;
    };

    let outcome: StrategyResult;
    try {
      if (resume?.evaluating) {
        outcome = { submitted: submissions.length > 0, stopReason: 'budget', rounds: { pregen: resume.position.pregenUsed, rrwAttempts: resume.position.attempt, total: conversation.totals.rounds } };
      } else {
        outcome = await runStrategy({
          strategy,
          conversation,
          emit,
          budget: options.budget,
          tddBudget,
          noApis: options.ablations.noApis,
          rrw: !options.ablations.noRrw,
          validate,
          runOwnTests,
          takeRun: () => {
            const run = agentRun;
            agentRun = undefined;
            return run;
          },
          testsPath: ownFile,
          firstTest: selected[0] ?? '',
          implemented: submissions.length > 0,
          ...(stage === 'none' || stage === 'pregen' ? { validation: false } : {}),
          ...(stage === 'postgen'
            ? {
                // The selected tests come back for validation and refinement.
                beforeValidation: async () => {
                  await hidden.restore();
                  hidden = await hideTests(task.workspace, task.sandbox, failing.filter((id) => !selected.includes(id)), selected);
                  ctx.selectedTests = selected;
                },
              }
            : {}),
          ...(options.signal ? { signal: options.signal } : {}),
          ...(resume ? { from: { position: resume.position, tdd: resume.tdd } } : {}),
        });
      }
    } catch (error) {
      if ((error as Error).name !== 'AbortError' && !options.signal?.aborted) throw error;
      outcome = { submitted: false, stopReason: 'cancelled', rounds: { pregen: conversation.totals.rounds, rrwAttempts: 0, total: conversation.totals.rounds } };
    } finally {
      debuggerEvents();
    }
    const stopReason = outcome.stopReason;

    // Evaluation: every failing test THM found, with the hidden ones back in place, on the module
    // the submissions make (whatever a command did to the target's file since is undone).
    emit({ type: 'agent.phase', phase: 'evaluate' });
    await hidden.restore();
    const submitted = await submittedModule(task.target.originalText, task.target, submissions);
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
    // TDD strategies: how good the agent's own tests are, and why a failed task failed.
    let testQuality: RunResult['testQuality'];
    let failure: RunResult['failure'];
    if (tdd && ctx.agentTestFile && stopReason !== 'cancelled') {
      // The agent's own last run may predate its final code (code and finish in one round): the
      // taxonomy rests on its tests run now, on the code that was evaluated.
      const own = await runTests(ctx, [ctx.agentTestFile], 'agent');
      recordRun(own, 'agent');
      emit({ type: 'agent.phase', phase: 'quality' });
      if (options.measureTests !== false) testQuality = await measureTestQuality({ ctx, testFile: ctx.agentTestFile, finalText });
      if (!pass) {
        const ownTestsGreen = own.total > 0 && own.passed === own.total;
        failure = await classifyFailure({ ctx, ownTestsGreen, ...(testQuality ? { quality: testQuality } : {}), finalOutcomes: own.outcomes, testVersions: ownTestVersions, finalText });
      }
    }
    const result: RunResult = {
      type: 'result',
      sessionId,
      target: task.target.id,
      strategy,
      pass,
      stopReason: pass && stopReason !== 'cancelled' ? 'passed' : stopReason,
      selectedTests: { passed: passedIn(selected), total: selected.length },
      hiddenTests: { passed: passedIn(hiddenIds), total: hiddenIds.length },
      tests: evaluation.outcomes,
      usage: { inputTokens: totals.inputTokens, outputTokens: totals.outputTokens, modelCalls: totals.modelCalls, toolCalls: totals.toolCalls },
      rounds: outcome.rounds,
      costUsd: totals.costUsd,
      ...(totals.unpriced ? { costUnpriced: true } : {}),
      ...(totals.estimatedTokens ? { tokensEstimated: true } : {}),
      costOfPass: pass ? totals.costUsd : null,
      wallMs: Date.now() - started,
      patch,
      model: options.model.settings.model,
      applied: false,
      ...(testQuality ? { testQuality } : {}),
      ...(failure ? { failure } : {}),
    };
    result.applied = await settlePatch(
      options.pilot,
      result,
      async () => {
        // A stub (the model submitted `raise NotImplementedError`) is never written over the developer's code.
        if (await targetIsStub(submitted!, task.target)) throw new TenetError(`The submitted ${task.target.qualname} is still a stub; the patch was not applied.`);
        applyToCheckout(task.repoDir, task.target.file, task.target.source, submitted!);
      },
      emit,
    );
    emit(result);
    return result;
  } finally {
    toolbox?.dispose();
    await task.dispose();
  }
}
