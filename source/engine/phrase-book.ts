import type { EventOf, RrwStage, RunResult, ThmPhase } from './events';
import type { SessionConfig } from './protocol/settings';
import type { Writer } from './protocol/debugger';
import { plural } from './util/plural';

/**
 * How tenet words what happens in a session. The headless printer, `tenet show`'s transcript,
 * the TUI and the progress lines each lay the words out their own way (capitals, separators,
 * Markdown); the words themselves are chosen here once, so that the four cannot drift apart.
 */

/** A test outcome that counts as failing: what THM clusters and the test grid shows red. */
const FAILED_OUTCOMES: ReadonlySet<string> = new Set(['failed', 'error', 'crashed']);

export const isFailure = (outcome: string | undefined): boolean => FAILED_OUTCOMES.has(outcome ?? '');

/**
 * `5 failing (1 unreached, 1 of them a module)`: THM's failing count (failingTestCounts) and what
 * it holds besides tests that reached the target. A test module whose import fails with the
 * target blank is one entry, outside the tests in scope; said, the counts add up. The headless
 * line always says the unreached (`0 unreached`), the TUI only when there are some; `tenet thm`'s
 * text spells both out, in the words of its mode (`spelledOut`).
 */
export function failingWords(
  shown: { failing: number; unreached: number; modules: number },
  how: { alwaysUnreached?: boolean; spelledOut?: 'stub' | 'blank' } = {},
): string {
  const long = how.spelledOut;
  const modules =
    shown.modules === 1
      ? long
        ? 'a test module that fails'
        : 'a module'
      : long
        ? 'test modules that fail'
        : 'modules';
  const notes = [
    ...(shown.unreached || how.alwaysUnreached
      ? [`${shown.unreached} ${long ? 'never reached the target' : 'unreached'}`]
      : []),
    ...(shown.modules
      ? [`${shown.modules} of them ${modules}${long ? ` to import ${long === 'blank' ? 'blank' : 'stubbed'}` : ''}`]
      : []),
  ];
  return `${shown.failing} failing${notes.length ? ` (${notes.join(long ? '; ' : ', ')})` : ''}`;
}

/**
 * Stub mode: `3 failing for another reason`, the failing tests that are not the target's (they
 * never reached it); '' when there are none, or in benchmark mode.
 */
export const otherFailureWords = (report: { otherFailures?: readonly unknown[] | undefined }): string =>
  report.otherFailures?.length ? `${report.otherFailures.length} failing for another reason` : '';

/**
 * Where a test that is not the target's stopped: `stops in pkg/geo.py::perimeter (line 14)`; a
 * crash or a hang, which leave no traceback, as such.
 */
export function stoppedWords(failure: {
  stoppedAt: { name: string; line: number } | null;
  timedOut: boolean;
  crashed: boolean;
}): string {
  if (failure.stoppedAt) return `stops in ${failure.stoppedAt.name} (line ${failure.stoppedAt.line})`;
  if (failure.timedOut) return 'timed out without reaching the target';
  if (failure.crashed) return 'crashed its process without reaching the target';
  return 'never reaches the target';
}

/** Dollars: four decimals under a dollar (a call costs fractions of a cent), else two. */
export const money = (usd: number): string => `$${usd.toFixed(usd < 1 ? 4 : 2)}`;

const whole = (n: number): string => n.toLocaleString('en');

/**
 * `12,345 tokens in (80% from cache, 1,200 written to it)`: every input token, the share read
 * from the provider's prompt cache and what was written to it. A usage without cache counts (a
 * session recorded before tenet counted the cache, a scripted model) says nothing about the cache.
 */
export function tokensIn(usage: {
  inputTokens: number;
  cacheReadTokens?: number | undefined;
  cacheWriteTokens?: number | undefined;
}): string {
  const text = `${whole(usage.inputTokens)} tokens in`;
  if (usage.cacheReadTokens === undefined) return text;
  const parts = [
    ...(usage.inputTokens > 0 ? [`${Math.round((100 * usage.cacheReadTokens) / usage.inputTokens)}% from cache`] : []),
    ...(usage.cacheWriteTokens ? [`${whole(usage.cacheWriteTokens)} written to it`] : []),
  ];
  return parts.length ? `${text} (${parts.join(', ')})` : text;
}

/** `12,345 tokens in (80% from cache) / 500 out`. */
export const tokensInOut = (usage: {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number | undefined;
  cacheWriteTokens?: number | undefined;
}): string => `${tokensIn(usage)} / ${whole(usage.outputTokens)} out`;

/** A cost and what the prompt cache did to it: `$0.0123 (caching saved $0.0301)`; the cost alone when nothing is known or nothing changed. */
export function costText(costUsd: number, cacheSavedUsd?: number): string {
  if (!cacheSavedUsd || Math.abs(cacheSavedUsd) < 0.00005) return money(costUsd);
  return cacheSavedUsd > 0
    ? `${money(costUsd)} (caching saved ${money(cacheSavedUsd)})`
    : `${money(costUsd)} (cache writes added ${money(-cacheSavedUsd)})`;
}

/** Why a run that did not pass stopped, where the stop reason's name alone would not say it. */
const STOPPED: Partial<Record<RunResult['stopReason'], string>> = {
  budget: "the agent's attempts were used up",
  'no-implementation': 'no submission was accepted',
  'no-tests': 'no test to validate against',
  // The agent's part ends cancelled only when the developer stopped it (x, or Esc then x).
  cancelled: 'stopped by you',
  error: 'an error stopped it',
  'script-ended': 'the model script ran out',
};

/** A run's outcome; the counts are missing where only the verdict is kept (a benchmark's task results). */
type Verdict = Pick<RunResult, 'pass'> & { stopReason: string } & Partial<
    Pick<RunResult, 'selectedTests' | 'hiddenTests' | 'patch' | 'message' | 'rounds'>
  >;

/** The verdict's word, wherever one is printed or shown: PASS, FAIL, or UNVERIFIED where tenet could not check it. */
export const verdictWord = (result: Pick<Verdict, 'pass' | 'stopReason'>): 'PASS' | 'FAIL' | 'UNVERIFIED' =>
  result.stopReason === 'unverified' ? 'UNVERIFIED' : result.pass ? 'PASS' : 'FAIL';

/**
 * A run that used up its budget, in counts (never "the budget", which reads as money): the
 * refinement attempts (tenet), the pre-generation rounds (no refinement), or TDD's test runs.
 */
function budgetWords(rounds: RunResult['rounds'] | undefined): string | undefined {
  if (!rounds) return undefined;
  const [n, what] =
    rounds.rrwAttempts > 0
      ? [rounds.rrwAttempts, 'refinement attempt']
      : rounds.pregen > 0
        ? [rounds.pregen, 'pre-generation round']
        : [rounds.tddIterations ?? 0, 'co-refinement test run'];
  return n > 0 ? `the ${plural(n, what)} ${n === 1 ? 'was' : 'were'} used up` : undefined;
}

/**
 * A run that failed although the agent stopped because its selected tests passed (stop reason
 * `passed`): the evaluation on the hidden tests failed it, or the selected tests failed there
 * after passing validation. Undefined for any other run.
 */
function failedAfterValidation(result: Verdict): string | undefined {
  if (result.pass || result.stopReason !== 'passed') return undefined;
  if (!result.selectedTests || !result.hiddenTests) return 'the selected tests passed but the evaluation failed';
  const selectedFailed = result.selectedTests.passed < result.selectedTests.total;
  const hiddenFailed = result.hiddenTests.passed < result.hiddenTests.total;
  if (!selectedFailed)
    return hiddenFailed
      ? 'the selected tests passed but hidden tests failed'
      : 'the selected tests passed but the evaluation failed';
  return `the selected tests passed validation but not the evaluation${hiddenFailed ? ', and hidden tests failed' : ''}`;
}

/**
 * Why a run that did not pass stopped, in words (the TUI's verdict says it after the counts):
 * `the 5 refinement attempts were used up`, `stopped by you`, `the selected tests passed but hidden tests failed`. Undefined for a
 * passing run, and for reasons that need no words. A run with no implementation says `no
 * submission was accepted` (every one was rejected, a syntax error). Where the caller counted the
 * submissions (`submissions`, rejected ones included) and there were none, the words say so: the
 * counts are then the stub's, not a wrong answer's (`nothing was submitted`, `cancelled before
 * anything was submitted`: `x` at the first model call).
 */
export const stopWords = (result: Verdict, submissions?: number): string | undefined => {
  if (result.pass) return undefined;
  if (result.stopReason === 'unverified') return result.message || 'a check of the verdict could not be completed';
  if (result.stopReason === 'no-implementation' && submissions === 0) return 'nothing was submitted';
  const why =
    failedAfterValidation(result) ??
    (result.stopReason === 'budget' ? budgetWords(result.rounds) : undefined) ??
    STOPPED[result.stopReason as RunResult['stopReason']];
  // (A patch is a submission the count did not see.)
  return why && submissions === 0 && !result.patch ? `${why} before anything was submitted` : why;
};

/**
 * The stop reason next to PASS or FAIL in printed lines (`tenet run`'s last line, `tenet show`,
 * the session page, `bench run`'s line per task): its name as `--json` has it (`FAIL (cancelled)`), except for a failed run
 * whose selected tests passed, which says what happened instead of a contradictory `FAIL (passed)`,
 * an unverified one, which says why it could not be checked, and a run that used up its budget
 * where its rounds are known, which counts them (`FAIL (the 5 refinement attempts were used up)`:
 * "budget" alone reads as money).
 */
export const stopLabel = (result: Verdict): string =>
  (result.stopReason === 'unverified' && result.message ? result.message : undefined) ??
  failedAfterValidation(result) ??
  (result.stopReason === 'budget' ? budgetWords(result.rounds) : undefined) ??
  result.stopReason;

/**
 * PASS or FAIL with its stop reason, as printed lines begin (`tenet run`'s last line, `tenet show`):
 * `FAIL (budget)`, and `PASS` alone for a run that passed because its tests passed (`PASS (passed)`
 * said it twice); a run that passed otherwise names how (`PASS (finished)`).
 */
export const verdictLabel = (result: Verdict & { flagged?: string }): string => {
  if (result.stopReason === 'unverified')
    return `UNVERIFIED (${result.message || 'a check of the verdict could not be completed'})`;
  const label =
    result.pass && result.stopReason === 'passed' ? 'PASS' : `${result.pass ? 'PASS' : 'FAIL'} (${stopLabel(result)})`;
  return result.flagged ? `${label} (flagged: ${result.flagged})` : label;
};

export const modeName = (mode: 'stub' | 'blank'): string => (mode === 'blank' ? 'benchmark mode' : 'stub mode');

/** What each of THM's pytest passes is doing. */
export const THM_PHASES: Record<ThmPhase, string> = {
  probe: 'running the suite against the unimplemented target',
  original: 'checking the failing tests on the original code',
  blank: 'running blank the tests twin mode could not decide',
};

export const stageName = (stage: RrwStage | undefined): string => stage?.replace(/-/g, ' ') ?? '';

/**
 * A phase of the agent: what it is, and what goes with it (the budget, the stage). Validation
 * and the end have no words of their own: their test runs and the result speak for them.
 */
export function phaseWords(event: EventOf<'agent.phase'>): { title: string; detail?: string } | undefined {
  switch (event.phase) {
    case 'pregen':
      return { title: 'pre-generation', detail: `up to ${plural(event.rounds ?? 0, 'round')}` };
    case 'rrw':
      return { title: `refinement attempt ${event.attempt}/${event.attempts}`, detail: stageName(event.stage) };
    case 'tdd-setup':
      return {
        title: 'tests first',
        detail: `inspect the repository and write tests, up to ${plural(event.rounds ?? 0, 'round')}`,
      };
    case 'tdd':
      return { title: 'co-refinement', detail: `test run ${event.round}/${event.rounds}` };
    case 'evaluate':
      return { title: 'evaluation on every failing test' };
    case 'quality':
      return { title: "measuring the agent's tests", detail: 'pass rate, coverage, mutation score' };
    default:
      return undefined;
  }
}

export const capitalized = (text: string): string => text.charAt(0).toUpperCase() + text.slice(1);

/** A phase as a heading: `Refinement attempt 1/5: failure identification`. */
export function phaseHeading(event: EventOf<'agent.phase'>): string | undefined {
  const words = phaseWords(event);
  return words && `${capitalized(words.title)}${words.detail ? `: ${words.detail}` : ''}`;
}

/** Which tests a run ran: tenet's validation, the agent's own run_tests (tenet runs them for a TDD agent), or the evaluation. */
export const TEST_RUNS: Record<EventOf<'tests.run'>['purpose'], string> = {
  validate: 'selected tests',
  agent: 'run_tests',
  evaluate: 'every failing test',
};

/** The developer chose other tests than THM proposed. */
export const overridden = (event: EventOf<'thm.approval'>): boolean => event.chosen.join() !== event.proposed.join();

/** Whose tests the agent got, and why; `config` (the session's start) names the ablation. */
export function approvalWords(event: EventOf<'thm.approval'>, config?: SessionConfig): string {
  switch (event.by) {
    case 'strategy':
      return "none of the repository's (TDD: the agent writes its own)";
    case 'human':
      return overridden(event)
        ? "chosen by the developer instead of THM's proposal"
        : "THM's proposal, approved by the developer";
    case 'ablation':
      if (config?.ablations.noThm) return 'every failing test (--no-thm)';
      if (config?.testStage === 'none') return 'none (--test-stage none)';
      return config?.select && config.select !== 'thm'
        ? `chosen by --select ${config.select}`
        : 'chosen by an ablation';
    default:
      return "THM's proposal, approved automatically";
  }
}

/**
 * The failing tests the agent was not given, counted as the result counts its hidden tests (every
 * one of them): `3 other failing tests hidden from the agent until the evaluation`; and when some
 * of them stay in view all the same (`visible`: their files could not be taken out), how many.
 * The page said `2 … hidden` where the result said `hidden tests 31/31` (issue 46.10): one count.
 */
export function hiddenWords(event: { hidden: readonly string[]; visible?: number | undefined }): string {
  const visible = event.visible ?? 0;
  const total = event.hidden.length + visible;
  if (!visible) return `${plural(total, 'other failing test')} hidden from the agent until the evaluation`;
  const one = visible === 1;
  const why = `${one ? 'its function serves' : 'their functions serve'} a test the agent gets, or tenet could not find ${one ? 'it' : 'them'}`;
  const given = `${plural(total, 'other failing test')} not given to the agent (the evaluation's hidden tests)`;
  return event.hidden.length
    ? `${given}: ${event.hidden.length} out of its view until the evaluation, ${visible} still in view (${why})`
    : `${given}: ${one ? 'it stays' : 'all stay'} in view (${why})`;
}

export const COMMAND_DECISIONS: Record<EventOf<'command.approval'>['decision'], string> = {
  approved: 'approved',
  'approved-session': 'approved for the session',
  denied: 'denied',
  stopped: 'refused and the agent stopped',
};

/** Where a developer's message to the model was written (the TUI's box needs no words). */
export const MESSAGE_SOURCES: Record<EventOf<'developer.message'>['via'], string> = {
  tui: '',
  file: 'from the message file',
  fork: 'when the session was forked',
  stdin: 'at a step pause',
};

/** Whose a line in the debugger session is (tenet's: the pdb it starts for a developer's takeover). */
export const WRITERS: Record<Writer, string> = {
  agent: 'typed by the agent',
  human: 'typed by the developer',
  tenet: "started by tenet for the developer's takeover",
};

/** Where step mode held the agent: `before model call 3`, `before the search_class call`. */
export const pauseWords = (event: EventOf<'step.pause'>): string =>
  event.before === 'model' ? `before model call ${event.round}` : `before the ${event.name} call`;

/** The developer's tests, in a line: `2 join THM's failing tests; 1 kept out` (the details follow it). */
export function addedWords(event: EventOf<'tests.added'>): string {
  const parts = [
    event.accepted.length
      ? `${event.accepted.length} join${event.accepted.length === 1 ? 's' : ''} THM's failing tests`
      : 'none joins',
    ...(event.rejected.length ? [`${event.rejected.length} kept out`] : []),
    ...(event.removed.length ? [`${event.removed.length} no longer fail${event.removed.length === 1 ? 's' : ''}`] : []),
  ];
  return `the developer's tests (${event.files.map((f) => f.path).join(', ')}): ${parts.join('; ')}`;
}

/** Where a resumed session goes on from, and with which model: `resumed pre-generation, after 2 rounds with openai/gpt-4o`. */
export function resumedWords(event: EventOf<'session.resumed'>): string {
  return `resumed ${event.position}${event.provider ? ` with ${event.provider}/${event.model}` : ''}`;
}

/** A fork's parentage: `forked from session X at its event 41: its first 3 model answers are X's (no cost), then openai/gpt-4o answers live`. */
export function forkWords(event: EventOf<'session.forked'>): string {
  const answers = event.recorded === 1 ? 'its first model answer is' : `its first ${event.recorded} model answers are`;
  return `forked from session ${event.parent} at its event ${event.at}: ${event.recorded ? `${answers} that session's (no cost), then ` : ''}${event.provider}/${event.model} answers live`;
}

/** A spend limit met: `the session's cost limit is reached ($1.02 of $1.00)`. */
export function limitWords(event: EventOf<'limit.reached'>): string {
  const amount =
    event.limit === 'cost'
      ? `${money(event.spent)} of ${money(event.max)}`
      : `${whole(event.spent)} of ${whole(event.max)} tokens`;
  return `the session's ${event.limit === 'cost' ? 'cost' : 'token'} limit is reached (${amount}): no more model calls; the evaluation and the patch go on with what there is`;
}

/** What is left of a session's limits, for the footer: `$0.42 of $1.00 left · 120,000 of 500,000 tokens left`. */
export function remainingWords(
  limits: { maxCostUsd?: number; maxTokens?: number },
  left: { costUsd?: number; tokens?: number },
): string {
  return [
    left.costUsd !== undefined && limits.maxCostUsd !== undefined
      ? `${money(left.costUsd)} of ${money(limits.maxCostUsd)} left`
      : '',
    left.tokens !== undefined && limits.maxTokens !== undefined
      ? `${whole(left.tokens)} of ${whole(limits.maxTokens)} tokens left`
      : '',
  ]
    .filter(Boolean)
    .join(' · ');
}

/** `area` for `geo/shapes.py::area`: what a plan's lines call a target. */
export const planTargetName = (target: string): string => target.slice(target.indexOf('::') + 2);

/** A plan's target as a status mark: ✓ passed, ✗ did not, ⏭ skipped (never ran), ○ still to run, ◐ running. */
export const PLAN_MARKS = { waiting: '○', running: '◐', passed: '✓', failed: '✗', skipped: '⏭' } as const;
export type PlanMark = keyof typeof PLAN_MARKS;

/** The plan in a line: `plan: 3 targets in geo/shapes.py · describe, area, perimeter (1 skipped)`. */
export function planWords(event: EventOf<'plan'>): string {
  if (event.stopped) return `plan of ${plural(event.targets.length, 'target')} stopped before it began`;
  const skipped = event.skipped.length ? ` (skipped: ${event.skipped.map(planTargetName).join(', ')})` : '';
  const mine = event.by === 'human' && event.order.join() !== event.proposed.join() ? ', as the developer ordered' : '';
  return `plan: ${plural(event.order.length, 'target')} · ${event.order.map(planTargetName).join(', ')}${mine}${skipped}`;
}

/** `target 2/3 · area`, and why it comes now when it waited for others. */
export const planTargetWords = (event: EventOf<'plan.target'>): string =>
  `target ${event.index}/${event.total} · ${planTargetName(event.target)}${event.why ? ` (${event.why})` : ''}`;

/** A target's end: `area: PASS · selected 2/2, hidden 1/1`, or why it waits. */
export function planEndWords(event: EventOf<'plan.target.end'>): string {
  if (event.after) return event.why ?? `${planTargetName(event.target)} waits for ${planTargetName(event.after)}`;
  const name = planTargetName(event.target);
  if (event.stopReason === 'no-tests') return `${name}: FAIL (${event.message ?? 'no test reaches it'})`;
  return `${name}: ${event.pass ? 'PASS' : 'FAIL'} · selected ${event.selectedTests.passed}/${event.selectedTests.total}, hidden ${event.hiddenTests.passed}/${event.hiddenTests.total}${event.pass ? '' : ` (${event.stopReason})`}${event.kept ? '' : ' · its stub stays'}`;
}

/** `the plan's final evaluation: 3 targets' code together, against 6 tests`. */
export const planFinalWords = (event: EventOf<'plan.final'>): string =>
  `the plan's final evaluation: ${event.targets.length === 1 ? "1 target's code" : `${event.targets.length} targets' code together`}, against ${plural(event.tests, 'test')}`;

/** Each target's verdict on a line: `✓ area  selected 2/2 · hidden 0/0`. */
export function targetVerdictLines(targets: NonNullable<RunResult['targets']>): string[] {
  return targets.map(
    (t) =>
      `${t.pass ? PLAN_MARKS.passed : t.stopReason === 'skipped' ? PLAN_MARKS.skipped : PLAN_MARKS.failed} ${planTargetName(t.target)}  ${t.stopReason === 'skipped' ? 'skipped' : `selected ${t.selectedTests.passed}/${t.selectedTests.total} · hidden ${t.hiddenTests.passed}/${t.hiddenTests.total}${t.pass ? '' : ` · ${t.message ?? t.stopReason}`}`}`,
  );
}
