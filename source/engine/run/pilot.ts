import type { RunResult } from '../events';
import type { CommandDecision, DeveloperMessage, PatchAnswer, RequestPreview } from '../protocol/decisions';
import type { ToolCall } from '../protocol/messages';
import type { PlanDecision, PlanTarget } from '../protocol/plan';
import type { ThmReport } from '../protocol/thm-report';
import type { DebuggerSession } from '../tools/debugger/session';
import type { MessageFile } from './message-file';
import type { GivenTestFile, TestDesk } from './test-desk';

/** A plan as tenet proposes it: its targets, the order, and why the order is so. */
export interface PlanProposal {
  targets: PlanTarget[];
  order: string[];
  why: string[];
}

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
  /**
   * THM's proposal: the tests to validate against; `T` when the developer changed THM's budget
   * before choosing. On `desk` the developer may write tests of their own first (the THM review's
   * `n` and `e`): those that fail on the stub join the report (`desk.report`) and the selection.
   */
  approveTests(
    report: ThmReport,
    desk?: TestDesk,
  ): Promise<{ chosen: string[]; by: 'auto' | 'human'; T?: number | null }>;
  /**
   * A plan, before its first THM: the targets in the order proposed, and why; the order to run
   * them in, the ones to skip, or stop. Absent: the proposal stands.
   */
  approvePlan?(proposal: PlanProposal): Promise<PlanDecision>;
  /** A plan's target run starts: its `k`-th (0 the first; a deferred target started again counts again). */
  startTarget?(k: number): void;
  /** Before THM's proposal is approved (whatever the strategy): tests written ahead (`--add-tests`, a recorded session's) go on the desk. */
  addTests?(desk: TestDesk): Promise<void>;
  /**
   * Awaited before each model call, and again after step mode's pause before it (a takeover may
   * happen at the pause); resolves with a note for the model after a takeover, if any.
   */
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
  /**
   * Before each model call (after a takeover's note): the messages the developer wrote for the
   * model since the last call. Each is recorded and goes with this request, marked as theirs.
   */
  beforeRequest?(preview: RequestPreview): Promise<DeveloperMessage[]>;
  /**
   * Step mode is on: the engine records a pause before each model call and each tool call, and the
   * pilot holds the agent in `beforeRequest` / `beforeToolCall` until the developer goes on.
   */
  stepping?(at: StepAt): boolean;
  /** Before each tool call: the developer's arguments when they changed the model's (recorded as their edit), else undefined. */
  beforeToolCall?(call: ToolCall): Promise<string | undefined>;
  /**
   * Once the agent's part is over: the messages the developer wrote that no model call took (the
   * agent finished first). The engine says so and records it, so none is lost without a word.
   */
  unreadMessages?(): DeveloperMessage[];
}

/** Where step mode would hold the agent: before model call `round`, or before a tool call. */
export type StepAt = { before: 'model'; round: number } | { before: 'tool'; call: ToolCall };

/**
 * Step mode without a TUI (`--step --headless`): something that shows each pause and waits for the
 * developer's answer (see commands/line-stepper.ts, which reads them from stdin).
 */
export interface Stepper {
  /** Still on (the developer may turn it off, or the input end). */
  on(): boolean;
  /** Before a model call: waits until the developer goes on. */
  pauseBeforeRequest(preview: RequestPreview): Promise<void>;
  /** Before a tool call: waits; the developer's arguments if they changed them. */
  pauseBeforeTool(call: ToolCall): Promise<string | undefined>;
  /** The messages written in pauses since the last call: they go with the next model call. */
  take(): DeveloperMessage[];
}

/** What a headless run takes from the developer beside its flags: lines written to `--message-file`, step mode's answers, `--add-tests`. */
export interface HeadlessSteering {
  messageFile?: MessageFile;
  stepper?: Stepper;
  /** `--add-tests`: the files. */
  addTests?: GivenTestFile[];
}

/**
 * No human at the keys: THM's proposal stands; the patch is kept in the session, or applied when
 * asked for (`--apply`) and the run passed — a failed run's patch only with `--apply-failing`.
 * With `--message-file`, the lines written to it go to the model with its next request; with
 * `--step`, the stepper holds each step until the developer answers.
 */
export function headlessPilot(apply: boolean, applyFailing = false, steering: HeadlessSteering = {}): Pilot {
  const { messageFile, stepper, addTests } = steering;
  return {
    // The developer's tests that fail on the stub join THM's proposal: choosing them is theirs.
    approveTests: async (report, desk) =>
      desk?.added.length
        ? { chosen: [...new Set([...report.selected, ...desk.added])], by: 'human' }
        : { chosen: report.selected, by: 'auto' },
    ...(addTests?.length ? { addTests: async (desk) => void (await desk.addGiven(addTests)) } : {}),
    ...(messageFile || stepper
      ? {
          beforeRequest: async (preview) => {
            if (stepper?.on()) await stepper.pauseBeforeRequest(preview);
            return [
              ...(stepper?.take() ?? []),
              ...(messageFile?.take() ?? []).map((text) => ({ text, via: 'file' as const })),
            ];
          },
        }
      : {}),
    // Lines written after the agent's last model call: said and recorded (see run-agent.ts), not dropped.
    ...(messageFile
      ? { unreadMessages: () => messageFile.take().map((text) => ({ text, via: 'file' as const })) }
      : {}),
    ...(stepper
      ? {
          stepping: () => stepper.on(),
          beforeToolCall: async (call) => (stepper.on() ? stepper.pauseBeforeTool(call) : undefined),
        }
      : {}),
    acceptPatch: async (result) => {
      if (!apply && !applyFailing) return 'save';
      if (result.pass || applyFailing) return 'accept';
      return {
        refused: `the run did not pass (${result.stopReason}); --apply applies a passing result only (--apply-failing applies this one)`,
      };
    },
  };
}
