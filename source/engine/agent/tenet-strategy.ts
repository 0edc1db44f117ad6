import type { EventSink, RrwStage } from '../events';
import type { TestRun } from '../tools/run-tests';
import type { Conversation } from './conversation';
import { renderPrompt } from './prompts';

export interface Budget {
  /** Model calls before the first submission (the paper: 15). */
  pregenRounds: number;
  /** Refinement attempts after a failing validation (the paper: 5). */
  rrwAttempts: number;
  /** Model calls per refinement attempt (the paper: 15). */
  rrwRounds: number;
}

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
  /** A test to suggest for pdb in the failure-identification stage. */
  firstTest: string;
  signal?: AbortSignal;
}

export interface StrategyOutcome {
  submitted: boolean;
  passed: boolean;
  stopReason: 'passed' | 'budget' | 'no-implementation';
  pregenRounds: number;
  rrwAttempts: number;
  lastRun?: TestRun;
}

const STAGES: RrwStage[] = ['failure-identification', 'context-review', 'code-refinement'];
const STAGE_PROMPTS = { 'context-review': 'rrw-context', 'code-refinement': 'rrw-refine' } as const;

/** Model rounds until one submits; a text-only answer gets `next` (or the nudge) as the reply. */
async function roundsUntilSubmission(
  input: StrategyInput,
  rounds: number,
  onTextOnly: () => void,
): Promise<{ submitted: boolean; used: number }> {
  for (let used = 1; used <= rounds; used++) {
    if (input.signal?.aborted) throw Object.assign(new Error('cancelled'), { name: 'AbortError' });
    const outcome = await input.conversation.round(input.tools);
    if (outcome.submitted) return { submitted: true, used };
    if (outcome.textOnly && used < rounds) onTextOnly();
  }
  return { submitted: false, used: rounds };
}

/**
 * The TENET pipeline after THM: pre-generation (the model explores with its tools and submits),
 * validation on the selected tests, then bounded refinement — the Reflective Refinement Workflow's
 * three prompted stages per attempt, or plain test feedback with `--no-rrw` — until the selected
 * tests pass or the budget is spent.
 */
export async function runTenetStrategy(input: StrategyInput): Promise<StrategyOutcome> {
  const { conversation, emit, budget } = input;
  const nudge = () => conversation.say(renderPrompt('nudge'));
  emit({ type: 'agent.phase', phase: 'pregen', rounds: budget.pregenRounds });
  const pregen = await roundsUntilSubmission(input, budget.pregenRounds, nudge);
  const pregenRound = pregen.used;
  if (!pregen.submitted) return { submitted: false, passed: false, stopReason: 'no-implementation', pregenRounds: pregenRound, rrwAttempts: 0 };

  emit({ type: 'agent.phase', phase: 'validate' });
  let run = await input.validate();
  if (run.passed === run.total) return { submitted: true, passed: true, stopReason: 'passed', pregenRounds: pregenRound, rrwAttempts: 0, lastRun: run };

  for (let attempt = 1; attempt <= budget.rrwAttempts; attempt++) {
    let stage = 0;
    const enter = () => emit({ type: 'agent.phase', phase: 'rrw', attempt, attempts: budget.rrwAttempts, stage: input.rrw ? STAGES[stage]! : 'naive' });
    if (input.rrw) {
      conversation.say(renderPrompt('rrw-failure', { attempt, attempts: budget.rrwAttempts, report: run.report, test: input.firstTest }));
    } else {
      conversation.say(renderPrompt('naive-refine', { report: run.report }));
    }
    enter();
    const refined = await roundsUntilSubmission(input, budget.rrwRounds, () => {
      // A text answer closes a stage: the failure analysis, then the context review.
      if (input.rrw && stage < STAGES.length - 1) {
        stage++;
        conversation.say(renderPrompt(STAGE_PROMPTS[STAGES[stage] as keyof typeof STAGE_PROMPTS]));
        enter();
      } else {
        nudge();
      }
    });
    if (!refined.submitted) continue;
    emit({ type: 'agent.phase', phase: 'validate', attempt });
    run = await input.validate();
    if (run.passed === run.total) return { submitted: true, passed: true, stopReason: 'passed', pregenRounds: pregenRound, rrwAttempts: attempt, lastRun: run };
  }
  return { submitted: true, passed: false, stopReason: 'budget', pregenRounds: pregenRound, rrwAttempts: budget.rrwAttempts, lastRun: run };
}
