import type { AgentPhase, EventHandlers, RrwStage, RunResult } from '../../engine/events';
import type { UsageSums } from '../../engine/model/usage-sums';
import type { SpendLimits } from '../../engine/protocol/settings';
import type { Writer } from '../../engine/protocol/debugger';
import type { ThmReport } from '../../engine/protocol/thm-report';
import type { PlanTarget } from '../../engine/protocol/plan';
import type { PlanMark } from '../../engine/phrase-book';

/** A plan (several stubs, one at a time): its targets, their order and status, the one running, each end in words. */
export interface PlanView {
  targets: PlanTarget[];
  order: string[];
  skipped: string[];
  why: string[];
  status: Record<string, PlanMark>;
  current?: { target: string; index: number; total: number };
  ends: Record<string, string>;
  final: boolean;
}

/**
 * What the screens show, folded from engine events by a pure reducer: the same function serves a
 * live session and a replay, and tests call it without rendering anything.
 */
export type TranscriptItem =
  | { id: number; kind: 'model'; text: string; tokensIn: number; tokensOut: number; costUsd: number }
  /** `edited`: the developer changed the model's arguments (`original`) before it ran with `args`. */
  | {
      id: number;
      kind: 'tool';
      callId: string;
      name: string;
      args: string;
      result?: { ok: boolean; text: string; durationMs: number };
      edited?: { original: string };
    }
  | {
      id: number;
      kind: 'tests';
      purpose: 'validate' | 'evaluate' | 'agent';
      outcomes: Record<string, string>;
      passed: number;
      total: number;
    }
  /**
   * A submission of the code (every strategy) or of the agent's tests (TDD), as a line diff against
   * what it replaced: the code's first against the function as the agent got it (the stub, or the
   * blanked body), each later one against the one before. `diff`: every line, prefixed `+`, `-` or
   * a space (`@@` lines between hunks of long code); `iteration`: the TDD test run it came in.
   */
  | {
      id: number;
      kind: 'revision';
      side: 'tests' | 'code';
      number: number;
      against: string;
      ok: boolean;
      iteration?: number;
      diff: string;
      added: number;
      removed: number;
    }
  | { id: number; kind: 'phase'; text: string }
  | { id: number; kind: 'note'; text: string; tone: 'info' | 'warning' | 'human' };

export interface TddView {
  setupRounds: number;
  iteration: number;
  iterations: number;
  testFile?: { path: string; code: string; versions: number };
  /** The agent's tests' latest outcomes (its own run_tests). */
  outcomes: Record<string, string>;
  /** Which side each revision touched, by iteration (0: the tests written first). */
  revisions: { iteration: number; side: 'tests' | 'code' }[];
}

/** What was done with the patch (the patch.decision event). */
export interface PatchDecision {
  decision: 'accept' | 'reject' | 'save';
  applied: boolean;
  reason?: string;
  /** Where a saved patch was written. */
  file?: string;
}

export interface DebuggerLine {
  /** Who typed the line (tenet: the pdb it starts for a takeover), or the program's output. */
  who: Writer | 'output';
  text: string;
  /** Output whose line the program has not ended yet: the next chunk goes on with it. */
  open?: true;
}

export interface ViewState {
  /** `limits`: what the session may spend on its model (the footer shows what is left). */
  session?: {
    id: string;
    target: string;
    mode: 'stub' | 'blank';
    strategy: string;
    modelLabel: string;
    provider: string;
    repo: string;
    limits?: SpendLimits;
    /** Which sandbox ran, in words (`local (bubblewrap)`). */
    sandbox: string;
  };
  thm: {
    phase: 'probe' | 'original' | 'blank' | null;
    total: number;
    done: number;
    failing: number;
    /** When the run began (recorded time in a replay). */
    startedAt: number;
    /** While pytest collects: test modules imported and tests found so far. */
    collecting?: { files: number; tests: number };
    /** The last tests of the pass still running, and since when: what a full bar waits for. */
    running: { nodeid: string; since: number }[];
    report?: ThmReport;
    approval?: { proposed: string[]; chosen: string[]; by: string };
    /** The developer's tests so far: those that count (they are in `report`), and those kept out, with why. */
    developer?: { accepted: string[]; rejected: { nodeid: string; reason: string }[] };
  };
  agent: {
    phase: AgentPhase | null;
    /** When the current phase began: the quality phase has no events of its own to show it moving. */
    phaseAt: number;
    pregenRounds: number;
    round: number;
    attempt: number;
    attempts: number;
    stage: RrwStage | null;
    /** Model text streaming in now. */
    live: string;
    items: TranscriptItem[];
    /** The selected tests' latest outcomes (validation). */
    tests: Record<string, string>;
    /** The model call in flight: when it began, and how much it has streamed (text and tool arguments, in characters). */
    call?: { since: number; chars: number };
    /** Tool calls of the answer streaming in, by their place in it: the code grows on screen as it is written. */
    streaming: { index: number; name: string; args: string }[];
    /** A failed attempt of the call: why, which retry comes, and when. */
    retry?: { reason: string; attempt: number; of: number; at: number };
    /** TDD strategies: the agent's test file, its latest outcomes, and what each iteration revised. */
    tdd?: TddView;
    /** The function as the agent got it (from the task prompt), and its latest accepted submission, with how many there were. */
    starting?: string;
    code?: string;
    submissions: number;
    /** The latest request's size against the model's context window (the footer's `ctx 61%`), when tenet knows the window. */
    context?: { tokens: number; window: number };
  };
  totals: UsageSums & { modelCalls: number; toolCalls: number };
  /** `running`: the command sent last, and since when, until its prompt comes back (a `sleep(60)` is not idle). */
  debugger: { lines: DebuggerLine[]; mode: 'shell' | 'pdb' | null; running?: { input: string; since: number } };
  result?: RunResult;
  /** The evaluation's report: how each failing test failed (the result screen shows it on Enter). */
  evaluation?: { report: string };
  /** Where the agent's tests were written in the checkout, when the developer kept them. */
  keptTests?: string;
  patch?: PatchDecision;
  warnings: string[];
  /** A plan's targets and where it stands (see view/plan-events.ts). */
  plan?: PlanView;
  /** A fork: how many of its model answers were its parent's, and the model that answers after them. */
  fork?: { recorded: number; live: string };
  /**
   * The session's running time over its parts (a resumed session has several; the time it lay
   * stopped between them does not count): the finished parts' total, when the current part began,
   * how many parts, and the last event's time. The result's wallMs is the last part's alone.
   */
  clock: { done: number; partStart: number; parts: number; last: number };
  /** Sequence of the last event applied (replay positions). */
  applied: number;
  /** When the last event applied happened: a replay's clock is the recording's, not the wall's. */
  at: number;
}

/**
 * What each event does to the view (mutating `state`, the copy reduceView made). Each family of
 * events (ui/view/*.ts) decides for its own types; view-state.ts joins them, and the whole map
 * must name every event type.
 */
export type ViewHandlers = EventHandlers<[state: ViewState, now: number]>;
