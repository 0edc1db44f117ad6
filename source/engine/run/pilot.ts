import type { RunResult } from '../events';
import type { CommandDecision, DeveloperMessage, PatchAnswer, RequestPreview } from '../protocol/decisions';
import type { ThmReport } from '../protocol/thm-report';
import type { DebuggerSession } from '../tools/debugger/session';
import type { MessageFile } from './message-file';

/** What the pilot can reach once the tools exist: the live debugger session, the tests. */
export interface Attachment {
  debugger: DebuggerSession;
  selectedTests: string[];
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
  acceptPatch(result: RunResult): Promise<PatchAnswer>;
  /** Called once the toolbox exists. */
  attach?(attachment: Attachment): void;
  /** Asked before each shell command the model sends to a local sandbox; absent means allowed. */
  approveCommand?(command: string): Promise<CommandDecision>;
  /** A signal for the next model call, so a developer can cancel it (Esc). */
  callSignal?(): AbortSignal | undefined;
  /** After a cancelled call: make it again, or stop the agent. */
  afterCancelledCall?(): Promise<'retry' | 'stop'>;
  /**
   * Before each model call (after a takeover's note): the messages the developer wrote for the
   * model since the last call. Each is recorded and goes with this request, marked as theirs.
   */
  beforeRequest?(preview: RequestPreview): Promise<DeveloperMessage[]>;
}

/** What a headless run takes from the developer beside its flags: lines written to `--message-file`. */
export interface HeadlessSteering {
  messageFile?: MessageFile;
}

/**
 * No human at the keys: THM's proposal stands; the patch is kept in the session, or applied when
 * asked for (`--apply`) and the run passed — a failed run's patch only with `--apply-failing`.
 * With `--message-file`, the lines written to it go to the model with its next request.
 */
export function headlessPilot(apply: boolean, applyFailing = false, steering: HeadlessSteering = {}): Pilot {
  const { messageFile } = steering;
  return {
    approveTests: async (report) => ({ chosen: report.selected, by: 'auto' }),
    ...(messageFile ? { beforeRequest: async () => messageFile.take().map((text) => ({ text, via: 'file' as const })) } : {}),
    acceptPatch: async (result) => {
      if (!apply && !applyFailing) return 'save';
      if (result.pass || applyFailing) return 'accept';
      return { refused: `the run did not pass (${result.stopReason}); --apply applies a passing result only (--apply-failing applies this one)` };
    },
  };
}
