import type { Conversation } from '../agent/conversation';
import { renderPrompt } from '../agent/prompts';
import { START, TDD_START, type Position, type TddPosition } from '../agent/positions';
import { runTddStrategy } from '../agent/tdd-strategy';
import { cancelled, runTenetStrategy } from '../agent/tenet-strategy';
import type { EventSink, RunResult, TestRun } from '../events';
import type { Budget, Strategy, TddBudget } from '../protocol/settings';
import { AST_TOOLS, TOOLS } from '../tools/registry';

/** Tools for the TENET strategy; `--no-apis` keeps SpecRover's AST search and the submission. */
export function tenetTools(noApis: boolean): string[] {
  if (noApis) return [...AST_TOOLS, 'submit_implementation', 'run_tests'];
  return TOOLS.map((t) => t.name).filter((name) => name !== 'submit_tests' && name !== 'finish');
}

/** TDD-Agent's lightweight toolset: the directory viewer, the file reader, AST search, the submitters, the runner, finish. */
const TDD_TOOLS = [
  'view_directory',
  'read_file',
  ...AST_TOOLS,
  'submit_tests',
  'submit_implementation',
  'run_tests',
  'finish',
];
const IMPLEMENTING = new Set(['submit_implementation', 'run_tests', 'finish']);

/** The tools of each phase: writing the tests first (nothing that implements or runs), then the rest. */
export function strategyTools(strategy: Strategy, noApis: boolean): { setup: string[]; main: string[] } {
  if (strategy === 'tenet') return { setup: [], main: tenetTools(noApis) };
  const main = strategy === 'tdd' ? TDD_TOOLS : [...tenetTools(noApis), 'submit_tests'];
  return { setup: main.filter((name) => !IMPLEMENTING.has(name)), main };
}

export interface StrategyRun {
  strategy: Strategy;
  conversation: Conversation;
  emit: EventSink;
  budget: Budget;
  tddBudget: TddBudget;
  noApis: boolean;
  rrw: boolean;
  /** Validation (TENET strategies): the selected tests, and the agent's own in tenet+tdd. */
  validate(): Promise<TestRun>;
  /** The agent's tests, run by tenet when the model did not (TDD). */
  runOwnTests(): Promise<TestRun>;
  takeRun(): TestRun | undefined;
  testsPath(): string | undefined;
  /** The tests the agent was given, in order. */
  selectedTests: readonly string[];
  implemented: boolean;
  /** RQ5 ablations for the TENET strategies (see run-task.ts). */
  validation?: boolean;
  beforeValidation?: () => Promise<void>;
  signal?: AbortSignal;
  from?: { position: Position; tdd: TddPosition };
  /** Where the strategy stands as it runs (see newProgress). */
  progress: StrategyProgress;
}

/**
 * Where a strategy stands as it runs, kept by the strategy itself: what a run reports as its
 * rounds, whether the strategy ends or a spend limit, the script's end or a cancel stops it midway.
 */
export interface StrategyProgress {
  tenet: Position;
  tdd: TddPosition;
  /** tenet+tdd: the rounds of its tests-first step. */
  tddSetup: number;
}

/** At the start, or where a resumed session stood. */
export const newProgress = (from?: StrategyRun['from']): StrategyProgress => ({
  tenet: { ...(from?.position ?? START) },
  tdd: { ...(from?.tdd ?? TDD_START) },
  tddSetup: from?.tdd.setupUsed ?? 0,
});

/** A run's rounds, by phase, from where its strategy stands; `total` counts the rounds the model answered. */
export function roundsOf(
  strategy: Strategy,
  progress: StrategyProgress,
  conversation: Conversation,
): RunResult['rounds'] {
  const total = conversation.totals.modelCalls;
  if (strategy === 'tdd')
    return {
      pregen: 0,
      rrwAttempts: 0,
      total,
      tddSetup: progress.tdd.setupUsed,
      tddIterations: progress.tdd.iteration,
    };
  return {
    pregen: progress.tenet.pregenUsed,
    rrwAttempts: progress.tenet.attempt,
    total,
    ...(strategy === 'tenet+tdd' ? { tddSetup: progress.tddSetup } : {}),
  };
}

export interface StrategyResult {
  submitted: boolean;
  stopReason: RunResult['stopReason'];
  rounds: RunResult['rounds'];
}

/**
 * Runs the chosen strategy. tenet+tdd is the TENET pipeline with test-first reasoning: the agent
 * writes its tests before any code (as in TDD-Agent), then pre-generation, validation on THM's
 * selection and its own tests, and the Reflective Refinement Workflow, where a revision of its
 * tests alone is validated too (dual track).
 */
export async function runStrategy(run: StrategyRun): Promise<StrategyResult> {
  const tools = strategyTools(run.strategy, run.noApis);
  const signal = run.signal ? { signal: run.signal } : {};
  if (run.strategy === 'tdd') {
    const outcome = await runTddStrategy({
      conversation: run.conversation,
      emit: run.emit,
      budget: run.tddBudget,
      setupTools: tools.setup,
      tools: tools.main,
      testsPath: run.testsPath,
      takeRun: run.takeRun,
      runTests: run.runOwnTests,
      implemented: run.implemented,
      ...signal,
      ...(run.from ? { from: run.from.tdd } : {}),
      position: run.progress.tdd,
    });
    return {
      submitted: outcome.submitted,
      stopReason: outcome.stopReason,
      rounds: roundsOf(run.strategy, run.progress, run.conversation),
    };
  }
  const progress = run.progress;
  if (run.strategy === 'tenet+tdd' && (!run.from || run.from.tdd.phase === 'setup')) {
    // Step 1 of TDD-Agent, with TENET's tools: the tests before any code.
    run.emit({ type: 'agent.phase', phase: 'tdd-setup', rounds: run.tddBudget.setupRounds });
    for (; !run.testsPath() && progress.tddSetup < run.tddBudget.setupRounds; progress.tddSetup++) {
      cancelled(run.signal);
      const round = await run.conversation.round(tools.setup);
      if (!run.testsPath() && round.textOnly)
        run.conversation.say(renderPrompt('tdd-nudge', { next: 'submit_tests with your test module' }));
    }
    if (run.testsPath())
      run.conversation.say(renderPrompt('tdd-then-tenet', { path: run.testsPath()!, rounds: run.budget.pregenRounds }));
  }
  const outcome = await runTenetStrategy({
    conversation: run.conversation,
    emit: run.emit,
    budget: run.budget,
    tools: tools.main,
    rrw: run.rrw,
    validate: run.validate,
    selectedTests: run.selectedTests,
    revalidateOnTests: run.strategy === 'tenet+tdd',
    ...(run.validation === false ? { validation: false } : {}),
    ...(run.beforeValidation ? { beforeValidation: run.beforeValidation } : {}),
    ...signal,
    // A resumed session goes on from its position (a submission awaiting validation included);
    // tenet+tdd only once its tests-first step is over (else that step ran again just above).
    ...(run.from && (run.strategy === 'tenet' || run.from.tdd.phase !== 'setup') ? { from: run.from.position } : {}),
    position: progress.tenet,
  });
  return {
    submitted: outcome.submitted,
    stopReason: outcome.stopReason,
    rounds: roundsOf(run.strategy, progress, run.conversation),
  };
}
