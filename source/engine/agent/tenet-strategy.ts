import type { EventSink, TestRun } from '../events';
import type { Budget } from '../protocol/settings';
import type { Conversation } from './conversation';
import { renderPrompt } from './prompts';
import { START, STAGES, type Position } from './positions';

export const PAPER_BUDGET: Budget = { pregenRounds: 15, rrwAttempts: 5, rrwRounds: 15 };

export interface StrategyInput {
  conversation: Conversation;
  emit: EventSink;
  budget: Budget;
  /** Tools offered to the model. */
  tools: readonly string[];
  /** The Reflective Refinement Workflow; false is the `--no-rrw` ablation (test feedback only). */
  rrw: boolean;
  /** Runs the session's tests on the workspace as it is. */
  validate(): Promise<TestRun>;
  /** The tests the agent was given, in order: failure identification suggests pdb on one that fails (see pdbTest). */
  selectedTests: readonly string[];
  /** tenet+tdd: in refinement, a revision of the agent's own tests alone is validated too. */
  revalidateOnTests?: boolean;
  /** RQ5 ablations: false when the tests take no part after the first submission (`--test-stage none|pregen`). */
  validation?: boolean;
  /** Before the first validation (`--test-stage postgen` puts the selected tests back then). */
  beforeValidation?: () => Promise<void>;
  signal?: AbortSignal;
  /** Go on from here instead of the start (a resumed session). */
  from?: Position;
  /** Where the strategy keeps its position as it moves: the caller's, read when a limit or a cancel stops it midway. */
  position?: Position;
}

export interface StrategyOutcome {
  submitted: boolean;
  passed: boolean;
  /** `submitted`: the configuration has no validation, the first submission is the answer. */
  stopReason: 'passed' | 'budget' | 'no-implementation' | 'submitted';
  pregenRounds: number;
  rrwAttempts: number;
  lastRun?: TestRun;
}

/**
 * The test failure identification suggests running under pdb: the first selected test that failed
 * (or errored) in the latest validation, else the first that did not pass; the first selected test
 * only when no outcome is known (a session resumed mid-attempt). A passing test under pdb shows the
 * model nothing, and a model follows the example it is given.
 */
export function pdbTest(selected: readonly string[], outcomes: Record<string, string> | undefined): string {
  const known = outcomes ?? {};
  return (
    selected.find((t) => known[t] === 'failed' || known[t] === 'error') ??
    selected.find((t) => t in known && known[t] !== 'passed') ??
    selected[0] ??
    ''
  );
}

const STAGE_PROMPTS = {
  'failure-identification': 'rrw-failure',
  'context-review': 'rrw-context',
  'code-refinement': 'rrw-refine',
} as const;
const LAST_STAGE = STAGES.length - 1;
/** What the analysing stages may not call: they end in an answer, only code refinement submits. */
const SUBMITTERS = new Set(['submit_implementation', 'submit_tests']);

/**
 * The attempt's rounds after which stage `stage` ends at the latest: the rounds are shared, but
 * every later stage keeps one, so an analysis that never ends still leaves a round to submit.
 */
export function stageEnd(stage: number, rrwRounds: number): number {
  return rrwRounds - (LAST_STAGE - stage);
}

/** Why a submitter is refused in an analysing stage, in words the model can act on. */
export function stageRefusal(name: string, stage: (typeof STAGES)[number]): string {
  const number = STAGES.indexOf(stage) + 1;
  return `${name} is not available in stage ${number} (${stage.replace(/-/g, ' ')}): the refinement workflow takes submissions in stage 3 (code refinement). Answer without a tool call to end this stage.`;
}

/** Strategies check this before each model call: a cancel must not wait for a model that ignores its signal. */
export function cancelled(signal?: AbortSignal): void {
  if (signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
}

/**
 * The TENET pipeline after THM: pre-generation (the model explores with its tools and submits),
 * validation on the selected tests, then bounded refinement until the selected tests pass or the
 * budget is spent. With the Reflective Refinement Workflow each attempt goes through its three
 * stages in order, enforced: failure identification and context review may use every tool but the
 * submitters (refused if called) and end when the model answers without a tool call or their
 * rounds are used up; code refinement submits. Every stage is offered the same tool list: the
 * tools head the prompt both providers cache, so a list that changed with the stage would make
 * each stage pay its whole conversation again, uncached (Anthropic: at 1.25 times the price). The attempt's rounds are shared
 * by its stages. `--no-rrw` is plain test feedback, any tool at any round.
 */
export async function runTenetStrategy(input: StrategyInput): Promise<StrategyOutcome> {
  const { conversation, emit, budget } = input;
  const at: Position = Object.assign(input.position ?? { ...START }, input.from ?? START);
  // The prompts follow the tool list: with --no-apis there is no debugger to point the model at.
  const prompt = { tools: input.tools };
  // Whether the model's last answer was text only. A resumed session may stop right after one: what
  // followed it (a reminder, the next stage's prompt) was said but never sent, so not logged, and
  // is decided again below.
  const last = conversation.messages.at(-1);
  let answered = !!input.from && last?.role === 'assistant' && !last.toolCalls?.length;
  const nudge = () => conversation.say(renderPrompt('nudge', {}, prompt));
  const stageEvent = () => {
    conversation.markStageBoundary();
    emitStage();
  };
  const emitStage = () =>
    emit({
      type: 'agent.phase',
      phase: 'rrw',
      attempt: at.attempt,
      attempts: budget.rrwAttempts,
      stage: input.rrw ? STAGES[at.stage]! : 'naive',
    });
  // The latest validation: its failures open the next attempt, and name the test to debug.
  let run: TestRun | undefined;
  const stagePrompt = () => {
    const stage = STAGES[at.stage]!;
    return renderPrompt(
      STAGE_PROMPTS[stage],
      stage === 'failure-identification' ? { test: pdbTest(input.selectedTests, run?.outcomes) } : {},
      prompt,
    );
  };
  /** A new refinement attempt opens with the failures it must fix, in its first stage that has rounds. */
  const openAttempt = () => {
    at.phase = 'rrw';
    at.attempt++;
    at.stage = 0;
    at.attemptUsed = 0;
    answered = false;
    if (!input.rrw) {
      conversation.say(renderPrompt('naive-refine', { report: at.report ?? '' }, prompt));
      return;
    }
    // A budget of fewer rounds than stages goes to the later stages: code refinement first.
    while (at.stage < LAST_STAGE && at.attemptUsed >= stageEnd(at.stage, budget.rrwRounds)) at.stage++;
    conversation.say(
      `${renderPrompt('rrw-attempt', { attempt: at.attempt, attempts: budget.rrwAttempts, report: at.report ?? '' }, prompt)}\n\n${stagePrompt()}`,
    );
  };

  if (at.phase === 'pregen') {
    emit({ type: 'agent.phase', phase: 'pregen', rounds: budget.pregenRounds });
    let submitted = false;
    while (!submitted && at.pregenUsed < budget.pregenRounds) {
      if (answered) nudge();
      cancelled(input.signal);
      const outcome = await conversation.round(input.tools);
      at.pregenUsed++;
      submitted = outcome.submitted;
      answered = outcome.textOnly;
    }
    if (!submitted)
      return {
        submitted: false,
        passed: false,
        stopReason: 'no-implementation',
        pregenRounds: at.pregenUsed,
        rrwAttempts: 0,
      };
    if (input.validation === false)
      return { submitted: true, passed: false, stopReason: 'submitted', pregenRounds: at.pregenUsed, rrwAttempts: 0 };
    at.phase = 'validate';
  }
  await input.beforeValidation?.();

  for (;;) {
    if (at.phase === 'validate') {
      emit({ type: 'agent.phase', phase: 'validate', ...(at.attempt ? { attempt: at.attempt } : {}) });
      run = await input.validate();
      if (run.passed === run.total)
        return {
          submitted: true,
          passed: true,
          stopReason: 'passed',
          pregenRounds: at.pregenUsed,
          rrwAttempts: at.attempt,
          lastRun: run,
        };
      at.report = run.report;
      if (at.attempt >= budget.rrwAttempts) break;
      openAttempt();
    }
    stageEvent();
    let submitted = false;
    while (!submitted && at.attemptUsed < budget.rrwRounds) {
      if (input.rrw && at.stage < LAST_STAGE && (answered || at.attemptUsed >= stageEnd(at.stage, budget.rrwRounds))) {
        // The stage's answer (or its last round) closes it: on to the next.
        at.stage++;
        conversation.say(stagePrompt());
        stageEvent();
      } else if (answered) {
        nudge();
      }
      cancelled(input.signal);
      const analysing = input.rrw && at.stage < LAST_STAGE;
      const stage = STAGES[at.stage]!;
      const outcome = analysing
        ? await conversation.round(input.tools, {
            refuse: (name) => (SUBMITTERS.has(name) ? stageRefusal(name, stage) : undefined),
          })
        : await conversation.round(input.tools);
      at.attemptUsed++;
      submitted = outcome.submitted || (!!input.revalidateOnTests && outcome.testsSubmitted);
      answered = outcome.textOnly;
    }
    if (submitted) {
      at.phase = 'validate';
      continue;
    }
    // The attempt's rounds ran out without a submission: the next attempt starts from the same failures.
    if (at.attempt >= budget.rrwAttempts) break;
    openAttempt();
  }
  return {
    submitted: true,
    passed: false,
    stopReason: 'budget',
    pregenRounds: at.pregenUsed,
    rrwAttempts: at.attempt,
    ...(run ? { lastRun: run } : {}),
  };
}
