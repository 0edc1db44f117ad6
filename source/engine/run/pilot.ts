import type { RunResult } from '../events';
import type { CommandDecision, PatchAnswer } from '../protocol/decisions';
import type { ThmReport } from '../protocol/thm-report';
import type { DebuggerSession } from '../tools/debugger/session';

/** What the pilot can reach once the tools exist: the live debugger session, the tests. */
export interface Attachment {
  debugger: DebuggerSession;
  selectedTests: string[];
}

/**
 * After a TDD run, the agent's own tests, which the developer may keep: where they would be
 * written in the checkout (a free name beside the repository's tests), their text, and the write
 * (which records a tests.kept event and returns where they went).
 */
export interface AgentTests {
  path: string;
  code: string;
  keep(): Promise<string>;
}

/** What else the pilot can do while it decides about the patch. */
export interface PatchExtras {
  agentTests?: AgentTests;
}

/**
 * Every place a human may decide is one awaited call. The TUI answers with keys, headless runs
 * with defaults and flags, replays with what was recorded.
 */
export interface Pilot {
  /** THM's proposal; the tests the session validates against (the proposal, or an override). */
  /** The tests to validate against; `T` when the developer changed THM's budget before choosing. */
  approveTests(report: ThmReport): Promise<{ chosen: string[]; by: 'auto' | 'human'; T?: number | null }>;
  /** Awaited before each model call; resolves with a note for the model after a takeover, if any. */
  beforeModelCall?(): Promise<string | undefined>;
  /** The finished run: apply the patch to the checkout or not (`true` is accept, `false` reject). */
  acceptPatch(result: RunResult, extras?: PatchExtras): Promise<PatchAnswer>;
  /** Called once the toolbox exists. */
  attach?(attachment: Attachment): void;
  /** Asked before each shell command the model sends to a local sandbox; absent means allowed. */
  approveCommand?(command: string): Promise<CommandDecision>;
  /** A signal for the next model call, so a developer can cancel it (Esc). */
  callSignal?(): AbortSignal | undefined;
  /** After a cancelled call: make it again, or stop the agent. */
  afterCancelledCall?(): Promise<'retry' | 'stop'>;
}

/**
 * No human: THM's proposal stands; the patch is kept in the session, or applied when asked for
 * (`--apply`) and the run passed — a failed run's patch only with `--apply-failing`.
 */
export function headlessPilot(apply: boolean, applyFailing = false): Pilot {
  return {
    approveTests: async (report) => ({ chosen: report.selected, by: 'auto' }),
    acceptPatch: async (result) => {
      if (!apply && !applyFailing) return 'save';
      if (result.pass || applyFailing) return 'accept';
      return { refused: `the run did not pass (${result.stopReason}); --apply applies a passing result only (--apply-failing applies this one)` };
    },
  };
}
