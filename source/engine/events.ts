import * as z from 'zod';
import { debuggerModeSchema, transcriptEntrySchema, writerSchema } from './protocol/debugger';
import { messageSourceSchema } from './protocol/decisions';
import { messageSchema, toolCallSchema, usageSchema } from './protocol/messages';
import { handleWith, type HandlersOf } from './protocol/handlers';
import { APPROVE_MODES, STRATEGIES, type SessionConfig } from './protocol/settings';
import { planTargetSchema, targetVerdictSchema } from './protocol/plan';
import { reachUseSchema, thmFailingTestSchema, thmReportSchema } from './protocol/thm-report';

/**
 * Everything the engine reports, as one discriminated union, defined once: each event type is a
 * zod schema below, and its TypeScript type is inferred from it (`EventOf<'tool.call'>`), so what
 * the session log checks when it is read and what the readers are typed against cannot drift
 * apart. The UI, the headless printer and the session log all consume this stream; nothing in the
 * engine renders anything. This file is the spine: it imports nothing of the engine but the
 * protocol types beside it (engine/protocol/), so every part can depend on it without depending
 * on each other.
 *
 * Extra fields are allowed (a newer tenet may add some); a field that older sessions lack is
 * optional, and says so.
 */

const str = z.string();
const num = z.number();
const bool = z.boolean();
const strings = z.array(str);
const counts = z.object({ passed: num, total: num });

/**
 * THM's pytest passes: `probe` runs the whole scope; `original` re-runs the failing tests on the
 * original code (two-pass mode); `blank` re-runs, blanked, the few tests twin mode could not decide.
 */
const thmPhase = z.enum(['probe', 'original', 'blank']);
export type ThmPhase = z.infer<typeof thmPhase>;

/** TENET: pregen → validate → rrw …; TDD: tdd-setup (tests first) → tdd (co-refinement rounds); both end in evaluate (then, TDD, quality: measuring the agent's tests). */
const agentPhase = z.enum(['pregen', 'validate', 'rrw', 'tdd-setup', 'tdd', 'evaluate', 'quality', 'done']);
export type AgentPhase = z.infer<typeof agentPhase>;
const rrwStage = z.enum(['failure-identification', 'context-review', 'code-refinement', 'naive']);
export type RrwStage = z.infer<typeof rrwStage>;

/**
 * Why the run stopped: the tests passed, the budget ran out, no implementation was submitted,
 * cancelled, stopped from outside, the session log reached its size limit (`message` says), a
 * spend limit was reached. `unverified`: a check the verdict rests on could not be completed
 * (`message` says which): the run does not pass and its patch is never applied.
 */
export const STOP_REASONS = [
  'passed',
  'budget',
  'no-implementation',
  'no-tests',
  'submitted',
  'cancelled',
  'error',
  'finished',
  'interrupted',
  'log-full',
  'cost-limit',
  'token-limit',
  'script-ended',
  'unverified',
] as const;
const stopReason = z.enum(STOP_REASONS);

const testOutcomes = {
  /** node id → passed, failed, error, skipped, not run, … */
  outcomes: z.record(str, str),
  passed: num,
  total: num,
};
export type TestOutcomes = z.infer<z.ZodObject<typeof testOutcomes>>;

/** Some tests run in the workspace as it is: their outcomes and the compact report the model reads. */
export interface TestRun extends TestOutcomes {
  report: string;
  durationMs: number;
  /** A judged run whose outcomes cannot be trusted: the submitted code reached into the harness (and where), or forged its report. */
  unverified?: string;
  /** Where each failing test stopped: the innermost frame of the repository's code in its traceback (`pkg/geo.py::area`). */
  stops?: Record<string, string>;
  /** Lanes the run took (pytest processes side by side, each over its shard), when more than one. */
  lanes?: number;
}

/** The agent's generated tests, measured against the target (the ground truth in benchmark mode). */
const testQuality = z.object({
  file: str,
  tests: num,
  /** What coverage and mutants are measured on: the ground truth (benchmark mode) or the final implementation (stub mode). */
  subject: z.enum(['ground truth', 'final implementation']),
  /** Benchmark mode: the generated tests run on the ground-truth implementation. */
  groundTruth: z.object({ passed: num, total: num, failing: strings }).optional(),
  coverage: z
    .object({ lines: z.object({ covered: num, total: num }), branches: z.object({ covered: num, total: num }) })
    .optional(),
  mutation: z
    .object({ killed: num, survived: num, timedOut: num, total: num, score: num, baselinePassed: bool })
    .optional(),
  /** Why a measure is missing (e.g. the tests do not run). */
  problems: strings,
});
export type TestQuality = z.infer<typeof testQuality>;

/** The recorded settings: typed by protocol/settings.ts; a log is checked only for an object here (the settings' own reader fills what older sessions lack). */
const sessionConfig = z
  .custom<SessionConfig>(
    (value) => typeof value === 'object' && value !== null && !Array.isArray(value),
    'expected an object',
  )
  // What the published JSON Schema says of it (docs/events.schema.json).
  .meta({ type: 'object', description: "The session's settings (source/engine/protocol/settings.ts)." });

const event = <T extends string, S extends z.ZodRawShape>(type: T, shape: S) =>
  z.object({ type: z.literal(type), ...shape });

const result = event('result', {
  sessionId: str,
  target: str,
  strategy: str,
  pass: bool,
  stopReason,
  selectedTests: counts,
  hiddenTests: counts,
  tests: z.record(str, str),
  /** inputTokens counts every input token; cacheReadTokens and cacheWriteTokens are those of them read from and written to the prompt cache (absent in sessions recorded before tenet counted the cache). */
  usage: z.object({
    inputTokens: num,
    outputTokens: num,
    modelCalls: num,
    toolCalls: num,
    cacheReadTokens: num.optional(),
    cacheWriteTokens: num.optional(),
  }),
  rounds: z.object({
    pregen: num,
    rrwAttempts: num,
    total: num,
    tddSetup: num.optional(),
    tddIterations: num.optional(),
  }),
  costUsd: num,
  /** What the prompt cache saved: the cost with every input token at the input price, less costUsd (absent in older sessions). */
  cacheSavedUsd: num.optional(),
  /** Some model calls had no known price (an unknown model): costUsd leaves them out. */
  costUnpriced: bool.optional(),
  /** The server sent no usage for some calls: their tokens are estimated with a tokenizer. */
  tokensEstimated: bool.optional(),
  /** Cost divided by pass (1 or 0): the cost of a passing task; null when it did not pass. */
  costOfPass: num.nullable(),
  wallMs: num,
  patch: str,
  model: str,
  /** Whether the patch went into the developer's checkout (`--apply`, or accepted in the TUI). */
  applied: bool.optional(),
  /** A run that failed (stopReason `error`), or whose verdict is `unverified`: what went wrong. */
  message: str.optional(),
  /** The evaluated submission reaches toward the test harness (the static read; the judge decided the verdict): what, with its lines. */
  flagged: str.optional(),
  /** Strings in the patch shaped like secrets, by file and line (`the patch holds a string shaped like a GitHub token at pkg/x.py:12`): the patch keeps them, its stored and printed copies do not. */
  patchSecrets: strings.optional(),
  /** TDD strategies: how good the agent's own tests are (see engine/quality). */
  testQuality: testQuality.optional(),
  /** TDD strategies, a failed task: the paper's failure taxonomy, and credit-assignment hints. */
  failure: z.object({ kind: z.enum(['matched', 'unmatched']), hints: strings }).optional(),
  /** A plan: each target's verdict, in the plan's order (`pass` is true only when every one passed). */
  targets: z.array(targetVerdictSchema).optional(),
});
export type RunResult = z.infer<typeof result>;

const mode = z.enum(['stub', 'blank']);
const costFields = {
  usage: usageSchema,
  costUsd: num,
  /** What the prompt cache saved on this call (see RunResult); absent in older sessions. */
  cacheSavedUsd: num.optional(),
  durationMs: num,
};

/** Every event type's schema, by its type. */
export const EVENT_SCHEMAS = {
  'session.start': event('session.start', {
    sessionId: str,
    target: str,
    mode,
    strategy: z.enum(STRATEGIES),
    model: str,
    modelLabel: str,
    provider: str,
    repo: str,
    config: sessionConfig,
  }),
  'thm.start': event('thm.start', {
    target: str,
    mode,
    /** Benchmark mode's twin per test (sessions saved before named it `fork`: see session/event-upgrade.ts). */
    twins: bool,
    worlds: bool.optional(),
    shards: num,
    testArgs: strings,
    /** The reach index's plan: of its tests, how many run (absent in older sessions). */
    reach: reachUseSchema.optional(),
  }),
  'thm.phase': event('thm.phase', { phase: thmPhase, tests: num.optional() }),
  'thm.collected': event('thm.collected', { phase: thmPhase, total: num }),
  /** While pytest collects (before thm.collected): test modules imported and tests found so far. */
  'thm.collecting': event('thm.collecting', { phase: thmPhase, files: num, tests: num }),
  /** The last few tests of a pass still running, and since when (epoch ms): what a full bar waits for. */
  'thm.running': event('thm.running', { phase: thmPhase, tests: z.array(z.object({ nodeid: str, since: num })) }),
  'thm.test': event('thm.test', { phase: thmPhase, nodeid: str, outcome: str, reached: bool, durationMs: num }),
  'thm.report': event('thm.report', { report: thmReportSchema }),
  /** `strategy`: the TDD strategy shows the agent none of the repository's tests. */
  'thm.approval': event('thm.approval', {
    proposed: strings,
    chosen: strings,
    by: z.enum(['auto', 'human', 'ablation', 'strategy']),
    T: num.nullable(),
  }),
  /**
   * Tests the developer wrote or changed before approving (`n` and `e` in the THM review,
   * `--add-tests`): each file as written; the tests that fail on the stub (they join THM's failing
   * tests, and the selection); the ones kept out, and why; earlier failing tests that count no more.
   */
  'tests.added': event('tests.added', {
    files: z.array(z.object({ path: str, content: str })),
    accepted: z.array(thmFailingTestSchema),
    rejected: z.array(z.object({ nodeid: str, reason: str })),
    removed: strings,
  }),
  /** `visible`: failing tests not given to the agent that stay in view all the same (their function serves a given one, or tenet could not find it). */
  'tests.hidden': event('tests.hidden', { hidden: strings, files: strings, visible: num.optional() }),
  'index.ready': event('index.ready', { files: num, parsed: num, ms: num }),
  /** `stopReason`, with phase evaluate: why the agent's part ended (a resumed evaluation keeps it). */
  'agent.phase': event('agent.phase', {
    phase: agentPhase,
    round: num.optional(),
    rounds: num.optional(),
    attempt: num.optional(),
    attempts: num.optional(),
    stage: rrwStage.optional(),
    stopReason: stopReason.optional(),
  }),
  /**
   * `newMessages`: what the conversation gained since the previous request (prompts, tool results); with the responses, the whole conversation.
   * `context`: the request's size (o200k_base tokens, before the answer) against the model's window, when tenet knows the window.
   */
  'model.request': event('model.request', {
    round: num,
    messages: num,
    tools: strings,
    newMessages: z.array(messageSchema),
    system: str.optional(),
    context: z.object({ tokens: num, window: num }).optional(),
  }),
  /**
   * tenet condensed the conversation to fit the model's context window, right after the request
   * of `round` was logged and before it was sent (or, `too-long`, before it was sent again after
   * the provider's "too long" answer): each replaced message by its index in the conversation (a
   * resume rebuilds the same), what kinds they were, and the request's size before and after.
   * `why`: past the threshold before a request, at a stage boundary, or the provider's answer.
   */
  'context.condensed': event('context.condensed', {
    round: num,
    why: z.enum(['threshold', 'stage', 'too-long']),
    level: z.union([z.literal(1), z.literal(2), z.literal(3)]),
    replaced: z.array(z.object({ index: num, message: messageSchema })),
    kinds: z.object({ toolOutputs: num, submissions: num, prompts: num, answers: num }),
    tokensBefore: num,
    tokensAfter: num,
    window: num.optional(),
  }),
  /** The developer's message to the model, sent (marked as theirs) with the request of `round`. */
  'developer.message': event('developer.message', { text: str, round: num, via: messageSourceSchema }),
  'model.delta': event('model.delta', { text: str }),
  /** A tool call's arguments streaming in (see ToolDelta): for watching only, never saved (tool.call has them whole). */
  'model.tool-delta': event('model.tool-delta', { index: num, name: str, arguments: str }),
  'model.retry': event('model.retry', { attempt: num, maxAttempts: num, reason: str, delayMs: num }),
  /** `stopReason`: the provider's own word for why the answer ended (`stop`, `tool_calls`, `end_turn`…). */
  'model.response': event('model.response', {
    content: str,
    toolCalls: z.array(toolCallSchema),
    ...costFields,
    model: str,
    stopReason: str,
  }),
  /**
   * A model call that ended without an answer, `failed` (the provider gave up) or `cancelled` (Esc,
   * or the session's cancel), after attempts the provider billed (cut mid-stream, or while
   * streaming): what they used and cost, counted in the totals as a response's are, though not as
   * a model call. Absent in sessions recorded before tenet counted them.
   */
  'model.unanswered': event('model.unanswered', { reason: z.enum(['failed', 'cancelled']), ...costFields }),
  'tool.call': event('tool.call', { id: str, name: str, arguments: str }),
  /** Step mode held the agent before a model call (of `round`) or a tool call until the developer let it go on. */
  'step.pause': event('step.pause', {
    before: z.enum(['model', 'tool']),
    round: num.optional(),
    callId: str.optional(),
    name: str.optional(),
  }),
  /** The developer changed a tool call's arguments before it ran (step mode): it ran with `arguments`; `original` is the model's. */
  'tool.edit': event('tool.edit', { id: str, name: str, original: str, arguments: str }),
  'tool.result': event('tool.result', { id: str, name: str, ok: bool, text: str, durationMs: num }),
  'debugger.input': event('debugger.input', { who: writerSchema, input: str, mode: debuggerModeSchema }),
  'debugger.output': event('debugger.output', { chunk: str }),
  'debugger.entry': event('debugger.entry', { entry: transcriptEntrySchema }),
  submission: event('submission', {
    code: str,
    ok: bool,
    startLine: num.optional(),
    endLine: num.optional(),
    message: str,
  }),
  /** The agent's own test module, as submitted (TDD strategies). */
  'tests.submission': event('tests.submission', { code: str, ok: bool, path: str.optional(), message: str }),
  /** `agent`: the model called run_tests (or tenet ran them for it, TDD); `validate`: tenet validates a submission; `evaluate`: the final verdict. */
  'tests.run': event('tests.run', { purpose: z.enum(['validate', 'evaluate', 'agent']), report: str, ...testOutcomes }),
  result,
  /** What the developer (or `--apply`) decided about the patch, and whether it went into the checkout; `reason` when it was refused; `file` where a saved patch was written. */
  'patch.decision': event('patch.decision', {
    decision: z.enum(['accept', 'reject', 'save']),
    applied: bool,
    reason: str.optional(),
    file: str.optional(),
    /** A plan: the targets whose code was applied (the developer may choose some). */
    targets: strings.optional(),
  }),
  /**
   * A plan of several targets (see docs/plans.md), as the developer approved it before the first
   * THM: every target with what the code shows of it, THM-free; the order proposed and the one
   * chosen, the targets left out, and why the order is what it is. `stopped`: the developer stopped
   * the plan there. `files`: each target file's sha1 as the run found it (resume refuses a changed one).
   */
  plan: event('plan', {
    targets: z.array(planTargetSchema),
    proposed: strings,
    order: strings,
    skipped: strings,
    by: z.enum(['auto', 'human']),
    why: strings,
    stopOnFail: bool,
    stopped: bool.optional(),
    files: z.array(z.object({ path: str, sha1: str })),
  }),
  /** A target of the plan starts (again, after a deferral): the events up to its end are its run; `index` of `total` counts the targets done before it. */
  'plan.target': event('plan.target', { target: str, index: num, total: num, why: str.optional() }),
  /**
   * A target's run ended: its verdict (`kept`: its code stays in the workspace for the next), or,
   * `waitsFor`, deferred: its tests stopped in those targets' stubs, so it goes again after
   * `after`, the last of them, instead of spending its attempts.
   */
  'plan.target.end': event('plan.target.end', {
    ...targetVerdictSchema.shape,
    kept: bool,
    /** The failing tests its verdict is over, and those the agent was given: the final evaluation runs them again. */
    failing: strings,
    selected: strings,
    rounds: z.object({ pregen: num, rrwAttempts: num, total: num }).optional(),
    waitsFor: strings.optional(),
    after: str.optional(),
    why: str.optional(),
  }),
  /** The plan's final evaluation begins: every kept target's code together, against all their failing tests. */
  'plan.final': event('plan.final', { targets: strings, tests: num }),
  /** After a TDD run, the developer kept the agent's tests: where they were written in the checkout. */
  'tests.kept': event('tests.kept', { file: str }),
  /** A shell command of the model: run once, run and allow all for the session, denied (with the developer's reason), or the agent stopped; `by` auto when no one was asked. */
  'command.approval': event('command.approval', {
    command: str,
    decision: z.enum(['approved', 'approved-session', 'denied', 'stopped']),
    by: z.enum(['human', 'auto']),
    reason: str.optional(),
  }),
  'session.interrupted': event('session.interrupted', { reason: str }),
  /**
   * `provider`, `model`, `baseUrl`: the model settings from here on (resume may override the
   * recorded ones); never keys. `apply`, `applyFailing`: what is done with the patch from here on.
   * `scriptFile`, `scriptFrom`: a scripted model's script from here on, and how many model answers
   * the session had before the script's first turn.
   */
  'session.resumed': event('session.resumed', {
    fromSeq: num,
    position: str,
    provider: str.optional(),
    model: str.optional(),
    baseUrl: str.optional(),
    approve: z.enum(APPROVE_MODES).optional(),
    approveAsked: z.enum(APPROVE_MODES).optional(),
    apply: bool.optional(),
    applyFailing: bool.optional(),
    scriptFile: str.optional(),
    scriptFrom: num.optional(),
  }),
  /**
   * This session is a fork of session `parent` from its event `at`: its first `recorded` model
   * answers are the parent's (no cost), then `provider`/`model` answer live. Right after the start.
   */
  'session.forked': event('session.forked', {
    parent: str,
    at: num,
    recorded: num,
    provider: str,
    model: str,
    baseUrl: str.optional(),
  }),
  /** The session's cost or token limit was reached: no more model calls; the evaluation and the patch go on with what it has. */
  'limit.reached': event('limit.reached', { limit: z.enum(['cost', 'tokens']), spent: num, max: num }),
  warning: event('warning', { message: str }),
  /** The run failed; `fix` says what to do, where the error knows (a provider's). */
  error: event('error', { message: str, fix: str.optional() }),
};

export type EventType = keyof typeof EVENT_SCHEMAS;
export type EngineEvent = z.infer<(typeof EVENT_SCHEMAS)[EventType]>;

export type EventSink = (event: EngineEvent) => void;

/** The event of one type: `EventOf<'tool.call'>`. */
export type EventOf<T extends EventType> = Extract<EngineEvent, { type: T }>;

/** A reader's decision for every event type: a handler, or `'ignored'` (see protocol/handlers.ts). */
export type EventHandlers<Args extends unknown[] = [], R = void> = HandlersOf<EngineEvent, Args, R>;

/**
 * Gives an event to its reader's handler. Undefined for an ignored type, and for a type this tenet
 * does not know (a newer tenet wrote it): readers skip those.
 */
export function handleEvent<Args extends unknown[], R>(
  handlers: EventHandlers<Args, R>,
  event: EngineEvent,
  ...args: Args
): R | undefined {
  return handleWith(handlers, event, ...args);
}
