import type { TranscriptEntry, Writer } from './protocol/debugger';
import type { MessageSource } from './protocol/decisions';
import type { Message, ToolCall, Usage } from './protocol/messages';
import type { ApproveMode, SessionConfig, Strategy } from './protocol/settings';
import type { ThmFailingTest, ThmReport } from './protocol/thm-report';

/**
 * Everything the engine reports, as one discriminated union. The UI, the headless printer and the
 * session log all consume this stream; nothing in the engine renders anything. This file is the
 * spine: it imports nothing of the engine but the protocol types beside it (engine/protocol/), so
 * every part can depend on it without depending on each other.
 */

/**
 * THM's pytest passes: `probe` runs the whole scope; `original` re-runs the failing tests on the
 * original code (two-pass mode); `blank` re-runs, blanked, the few tests fork mode could not decide.
 */
export type ThmPhase = 'probe' | 'original' | 'blank';

/** TENET: pregen → validate → rrw …; TDD: tdd-setup (tests first) → tdd (co-refinement rounds); both end in evaluate (then, TDD, quality: measuring the agent's tests). */
export type AgentPhase = 'pregen' | 'validate' | 'rrw' | 'tdd-setup' | 'tdd' | 'evaluate' | 'quality' | 'done';
export type RrwStage = 'failure-identification' | 'context-review' | 'code-refinement' | 'naive';

export interface TestOutcomes {
  /** node id → passed, failed, error, skipped, not run, … */
  outcomes: Record<string, string>;
  passed: number;
  total: number;
}

/** Some tests run in the workspace as it is: their outcomes and the compact report the model reads. */
export interface TestRun extends TestOutcomes {
  report: string;
  durationMs: number;
}

export interface RunResult {
  type: 'result';
  sessionId: string;
  target: string;
  strategy: string;
  pass: boolean;
  /**
   * Why the run stopped: the tests passed, the budget ran out, no implementation was submitted,
   * cancelled, stopped from outside, the session log reached its size limit (`message` says), a
   * spend limit was reached. `unverified`: a check the verdict rests on could not be completed
   * (`message` says which): the run does not pass and its patch is never applied.
   */
  stopReason: 'passed' | 'budget' | 'no-implementation' | 'no-tests' | 'submitted' | 'cancelled' | 'error' | 'finished' | 'interrupted' | 'log-full' | 'cost-limit' | 'token-limit' | 'script-ended' | 'unverified';
  selectedTests: { passed: number; total: number };
  hiddenTests: { passed: number; total: number };
  tests: Record<string, string>;
  /** inputTokens counts every input token; cacheReadTokens and cacheWriteTokens are those of them read from and written to the prompt cache (absent in sessions recorded before tenet counted the cache). */
  usage: { inputTokens: number; outputTokens: number; modelCalls: number; toolCalls: number; cacheReadTokens?: number; cacheWriteTokens?: number };
  rounds: { pregen: number; rrwAttempts: number; total: number; tddSetup?: number; tddIterations?: number };
  costUsd: number;
  /** What the prompt cache saved: the cost with every input token at the input price, less costUsd (absent in older sessions). */
  cacheSavedUsd?: number;
  /** Some model calls had no known price (an unknown model): costUsd leaves them out. */
  costUnpriced?: boolean;
  /** The server sent no usage for some calls: their tokens are estimated with a tokenizer. */
  tokensEstimated?: boolean;
  /** Cost divided by pass (1 or 0): the cost of a passing task; null when it did not pass. */
  costOfPass: number | null;
  wallMs: number;
  patch: string;
  model: string;
  /** Whether the patch went into the developer's checkout (`--apply`, or accepted in the TUI). */
  applied?: boolean;
  /** A run that failed (stopReason `error`), or whose verdict is `unverified`: what went wrong. */
  message?: string;
  /** TDD strategies: how good the agent's own tests are (see engine/quality). */
  testQuality?: TestQuality;
  /** TDD strategies, a failed task: the paper's failure taxonomy, and credit-assignment hints. */
  failure?: { kind: 'matched' | 'unmatched'; hints: string[] };
}

/** The agent's generated tests, measured against the target (the ground truth in benchmark mode). */
export interface TestQuality {
  file: string;
  tests: number;
  /** What coverage and mutants are measured on: the ground truth (benchmark mode) or the final implementation (stub mode). */
  subject: 'ground truth' | 'final implementation';
  /** Benchmark mode: the generated tests run on the ground-truth implementation. */
  groundTruth?: { passed: number; total: number; failing: string[] };
  coverage?: { lines: { covered: number; total: number }; branches: { covered: number; total: number } };
  mutation?: { killed: number; survived: number; timedOut: number; total: number; score: number; baselinePassed: boolean };
  /** Why a measure is missing (e.g. the tests do not run). */
  problems: string[];
}

export type EngineEvent =
  | { type: 'session.start'; sessionId: string; target: string; mode: 'stub' | 'blank'; strategy: Strategy; model: string; modelLabel: string; provider: string; repo: string; config: SessionConfig }
  | { type: 'thm.start'; target: string; mode: 'stub' | 'blank'; fork: boolean; worlds?: boolean; shards: number; testArgs: string[] }
  | { type: 'thm.phase'; phase: ThmPhase; tests?: number }
  | { type: 'thm.collected'; phase: ThmPhase; total: number }
  /** While pytest collects (before thm.collected): test modules imported and tests found so far. */
  | { type: 'thm.collecting'; phase: ThmPhase; files: number; tests: number }
  /** The last few tests of a pass still running, and since when (epoch ms): what a full bar waits for. */
  | { type: 'thm.running'; phase: ThmPhase; tests: { nodeid: string; since: number }[] }
  | { type: 'thm.test'; phase: ThmPhase; nodeid: string; outcome: string; reached: boolean; durationMs: number }
  | { type: 'thm.report'; report: ThmReport }
  /** `strategy`: the TDD strategy shows the agent none of the repository's tests. */
  | { type: 'thm.approval'; proposed: string[]; chosen: string[]; by: 'auto' | 'human' | 'ablation' | 'strategy'; T: number | null }
  /**
   * Tests the developer wrote or changed before approving (`n` and `e` in the THM review,
   * `--add-tests`): each file as written; the tests that fail on the stub (they join THM's failing
   * tests, and the selection); the ones kept out, and why; earlier failing tests that count no more.
   */
  | { type: 'tests.added'; files: { path: string; content: string }[]; accepted: ThmFailingTest[]; rejected: { nodeid: string; reason: string }[]; removed: string[] }
  /** `visible`: failing tests not given to the agent that stay in view all the same (their function serves a given one, or tenet could not find it). */
  | { type: 'tests.hidden'; hidden: string[]; files: string[]; visible?: number }
  | { type: 'index.ready'; files: number; parsed: number; ms: number }
  /** `stopReason`, with phase evaluate: why the agent's part ended (a resumed evaluation keeps it). */
  | { type: 'agent.phase'; phase: AgentPhase; round?: number; rounds?: number; attempt?: number; attempts?: number; stage?: RrwStage; stopReason?: RunResult['stopReason'] }
  /** `newMessages`: what the conversation gained since the previous request (prompts, tool results); with the responses, the whole conversation. */
  /** `context`: the request's size (o200k_base tokens, before the answer) against the model's window, when tenet knows the window. */
  | { type: 'model.request'; round: number; messages: number; tools: string[]; newMessages: Message[]; system?: string; context?: { tokens: number; window: number } }
  /**
   * tenet condensed the conversation to fit the model's context window, right after the request
   * of `round` was logged and before it was sent (or, `too-long`, before it was sent again after
   * the provider's "too long" answer): each replaced message by its index in the conversation (a
   * resume rebuilds the same), what kinds they were, and the request's size before and after.
   * `why`: past the threshold before a request, at a stage boundary, or the provider's answer.
   */
  | { type: 'context.condensed'; round: number; why: 'threshold' | 'stage' | 'too-long'; level: 1 | 2 | 3; replaced: { index: number; message: Message }[]; kinds: { toolOutputs: number; submissions: number; prompts: number; answers: number }; tokensBefore: number; tokensAfter: number; window?: number }
  /** The developer's message to the model, sent (marked as theirs) with the request of `round`. */
  | { type: 'developer.message'; text: string; round: number; via: MessageSource }
  | { type: 'model.delta'; text: string }
  /** A tool call's arguments streaming in (see ToolDelta): for watching only, never saved (tool.call has them whole). */
  | { type: 'model.tool-delta'; index: number; name: string; arguments: string }
  | { type: 'model.retry'; attempt: number; maxAttempts: number; reason: string; delayMs: number }
  /** `cacheSavedUsd`: what the prompt cache saved on this call (see RunResult); absent in older sessions. */
  | { type: 'model.response'; content: string; toolCalls: ToolCall[]; usage: Usage; costUsd: number; cacheSavedUsd?: number; durationMs: number; model: string; stopReason: string }
  /**
   * A model call that ended without an answer, `failed` (the provider gave up) or `cancelled` (Esc,
   * or the session's cancel), after attempts the provider billed (cut mid-stream, or while
   * streaming): what they used and cost, counted in the totals as a response's are, though not as
   * a model call. Absent in sessions recorded before tenet counted them.
   */
  | { type: 'model.unanswered'; reason: 'failed' | 'cancelled'; usage: Usage; costUsd: number; cacheSavedUsd?: number; durationMs: number }
  | { type: 'tool.call'; id: string; name: string; arguments: string }
  /** Step mode held the agent before a model call (of `round`) or a tool call until the developer let it go on. */
  | { type: 'step.pause'; before: 'model' | 'tool'; round?: number; callId?: string; name?: string }
  /** The developer changed a tool call's arguments before it ran (step mode): it ran with `arguments`; `original` is the model's. */
  | { type: 'tool.edit'; id: string; name: string; original: string; arguments: string }
  | { type: 'tool.result'; id: string; name: string; ok: boolean; text: string; durationMs: number }
  | { type: 'debugger.input'; who: Writer; input: string; mode: 'shell' | 'pdb' }
  | { type: 'debugger.output'; chunk: string }
  | { type: 'debugger.entry'; entry: TranscriptEntry }
  | { type: 'submission'; code: string; ok: boolean; startLine?: number; endLine?: number; message: string }
  /** The agent's own test module, as submitted (TDD strategies). */
  | { type: 'tests.submission'; code: string; ok: boolean; path?: string; message: string }
  /** `agent`: the model called run_tests (or tenet ran them for it, TDD); `validate`: tenet validates a submission; `evaluate`: the final verdict. */
  | ({ type: 'tests.run'; purpose: 'validate' | 'evaluate' | 'agent'; report: string } & TestOutcomes)
  | RunResult
  /** What the developer (or `--apply`) decided about the patch, and whether it went into the checkout; `reason` when it was refused; `file` where a saved patch was written. */
  | { type: 'patch.decision'; decision: 'accept' | 'reject' | 'save'; applied: boolean; reason?: string; file?: string }
  /** After a TDD run, the developer kept the agent's tests: where they were written in the checkout. */
  | { type: 'tests.kept'; file: string }
  /** A shell command of the model: run once, run and allow all for the session, denied (with the developer's reason), or the agent stopped; `by` auto when no one was asked. */
  | { type: 'command.approval'; command: string; decision: 'approved' | 'approved-session' | 'denied' | 'stopped'; by: 'human' | 'auto'; reason?: string }
  | { type: 'session.interrupted'; reason: string }
  /**
   * `provider`, `model`, `baseUrl`: the model settings from here on (resume may override the
   * recorded ones); never keys. `apply`, `applyFailing`: what is done with the patch from here on.
   * `scriptFile`, `scriptFrom`: a scripted model's script from here on, and how many model answers
   * the session had before the script's first turn.
   */
  | { type: 'session.resumed'; fromSeq: number; position: string; provider?: string; model?: string; baseUrl?: string; approve?: ApproveMode; approveAsked?: ApproveMode; apply?: boolean; applyFailing?: boolean; scriptFile?: string; scriptFrom?: number }
  /**
   * This session is a fork of session `parent` from its event `at`: its first `recorded` model
   * answers are the parent's (no cost), then `provider`/`model` answer live. Right after the start.
   */
  | { type: 'session.forked'; parent: string; at: number; recorded: number; provider: string; model: string; baseUrl?: string }
  /** The session's cost or token limit was reached: no more model calls; the evaluation and the patch go on with what it has. */
  | { type: 'limit.reached'; limit: 'cost' | 'tokens'; spent: number; max: number }
  | { type: 'warning'; message: string }
  /** The run failed; `fix` says what to do, where the error knows (a provider's). */
  | { type: 'error'; message: string; fix?: string };

export type EventSink = (event: EngineEvent) => void;

/** The event of one type: `EventOf<'tool.call'>`. */
export type EventOf<T extends EngineEvent['type']> = Extract<EngineEvent, { type: T }>;
