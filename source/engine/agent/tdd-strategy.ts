import type { EventSink, TestRun } from '../events';
import type { TddBudget } from '../protocol/settings';
import type { Conversation } from './conversation';
import { renderPrompt } from './prompts';
import { cancelled } from './tenet-strategy';
import { TDD_START, type TddPosition } from './positions';

export const TDD_PAPER_BUDGET: TddBudget = { setupRounds: 15, iterations: 10, roundsPerIteration: 15 };

export interface TddInput {
  conversation: Conversation;
  emit: EventSink;
  budget: TddBudget;
  /** Tools of phase 1: inspection and submit_tests, nothing that implements or runs. */
  setupTools: readonly string[];
  /** Tools of phase 2. */
  tools: readonly string[];
  /** Where the agent's tests are once written. */
  testsPath(): string | undefined;
  /** The run the model's last run_tests call made, taken once (undefined when it made none). */
  takeRun(): TestRun | undefined;
  /** tenet runs the tests itself when an iteration's rounds end without the model doing it. */
  runTests(): Promise<TestRun>;
  /** Whether an implementation is in place (a resumed session may already have one). */
  implemented: boolean;
  signal?: AbortSignal;
  from?: TddPosition;
  /** Where the strategy keeps its position as it moves: the caller's, read when a limit or a cancel stops it midway. */
  position?: TddPosition;
}

export interface TddOutcome {
  testsWritten: boolean;
  submitted: boolean;
  stopReason: 'finished' | 'budget' | 'no-implementation' | 'no-tests';
  setupRounds: number;
  iterations: number;
  lastRun?: TestRun;
}

/** What the model hears when it calls finish with no implementation in place: the work is not done, and budget remains. */
const FINISH_FIRST =
  'tenet did not finish: there is no implementation yet. Submit one with submit_implementation first, then run your tests; finish once they pass.';

/**
 * The TDD-Agent workflow. Phase 1, test-first specification: the model inspects the repository and
 * writes executable tests before any implementation. Phase 2, dual-track co-refinement: it
 * implements, runs its tests, and on a red run revises the code, the tests or both; on a green run
 * it strengthens the tests or finishes. At most `iterations` test runs; the repository's own tests
 * stay hidden until the evaluation.
 */
export async function runTddStrategy(input: TddInput): Promise<TddOutcome> {
  const { conversation, emit, budget } = input;
  const at: TddPosition = Object.assign(input.position ?? { ...TDD_START }, input.from ?? TDD_START);
  let submitted = input.implemented;
  let lastRun: TestRun | undefined;
  const outcome = (stopReason: TddOutcome['stopReason']): TddOutcome => ({
    testsWritten: !!input.testsPath(),
    submitted,
    stopReason: submitted ? stopReason : input.testsPath() ? 'no-implementation' : 'no-tests',
    setupRounds: at.setupUsed,
    iterations: at.iteration,
    ...(lastRun ? { lastRun } : {}),
  });

  if (at.phase === 'setup') {
    emit({ type: 'agent.phase', phase: 'tdd-setup', rounds: budget.setupRounds });
    while (!input.testsPath() && at.setupUsed < budget.setupRounds) {
      cancelled(input.signal);
      const round = await conversation.round(input.setupTools);
      at.setupUsed++;
      if (!input.testsPath() && round.textOnly && at.setupUsed < budget.setupRounds)
        conversation.say(renderPrompt('tdd-nudge', { next: 'submit_tests with your test module' }));
    }
    if (!input.testsPath()) return outcome('no-tests');
    at.phase = 'refine';
    conversation.say(renderPrompt('tdd-implement', { path: input.testsPath()!, iterations: budget.iterations }));
  }

  // A session resumed right after its tests were written still needs the step-2 prompt.
  if (input.from?.phase === 'refine' && input.from.iteration === 0 && !input.from.open) {
    conversation.say(
      renderPrompt('tdd-implement', { path: input.testsPath() ?? 'your test file', iterations: budget.iterations }),
    );
  }
  while (at.iteration < budget.iterations || at.open) {
    // A resumed iteration goes on where it was; otherwise the next one starts.
    if (!at.open) {
      at.iteration++;
      at.iterationUsed = 0;
      at.open = true;
    }
    emit({ type: 'agent.phase', phase: 'tdd', round: at.iteration, rounds: budget.iterations });
    conversation.markStageBoundary();
    let run: TestRun | undefined;
    while (!run && at.iterationUsed < budget.roundsPerIteration) {
      cancelled(input.signal);
      // A finish before any code would end the task as no-implementation with budget left: refused.
      const round = await conversation.round(input.tools, {
        refuse: (name, now) => (name !== 'finish' || submitted || now ? undefined : FINISH_FIRST),
      });
      at.iterationUsed++;
      submitted ||= round.submitted;
      run = input.takeRun();
      if (round.finished) {
        lastRun = run ?? lastRun;
        return outcome('finished');
      }
      if (!run && round.textOnly)
        conversation.say(
          renderPrompt('tdd-nudge', {
            next: submitted ? 'run_tests, submit_tests, submit_implementation or finish' : 'submit_implementation',
          }),
        );
    }
    if (!run) {
      // The model never ran its tests this iteration: tenet does, so the iteration has its feedback.
      run = await input.runTests();
      conversation.say(`tenet ran your tests:\n\n${run.report}`);
    }
    lastRun = run;
    at.open = false;
    if (at.iteration >= budget.iterations) break;
    const values = { iteration: at.iteration, iterations: budget.iterations, passed: run.passed, total: run.total };
    conversation.say(renderPrompt(run.total > 0 && run.passed === run.total ? 'tdd-green' : 'tdd-red', values));
  }
  return outcome('budget');
}
