import type { RunResult } from '../engine/events';
import type { CommandDecision, PatchAnswer, RequestPreview } from '../engine/protocol/decisions';
import type { ToolCall } from '../engine/protocol/messages';
import type { ThmReport } from '../engine/protocol/thm-report';
import type { AgentTests, PlanProposal } from '../engine/run/pilot';
import type { PlanDecision } from '../engine/protocol/plan';
import type { TestDesk } from '../engine/run/test-desk';
import type { ViewState } from './view/types';

/** A decision the engine is waiting for, shown by the screen that owns it. */
export type Prompt =
  /** `desk`: where the developer writes tests of their own before choosing (`n`, `e`). */
  | {
      kind: 'approve-tests';
      report: ThmReport;
      desk?: TestDesk;
      resolve(choice: { chosen: string[]; by: 'auto' | 'human'; T?: number | null }): void;
    }
  | { kind: 'approve-command'; command: string; resolve(decision: CommandDecision): void }
  /** A plan of several stubs, before its first THM: the order, the targets skipped, or stop. */
  | { kind: 'approve-plan'; proposal: PlanProposal; resolve(decision: PlanDecision): void }
  | { kind: 'cancelled-call'; resolve(choice: 'retry' | 'stop'): void }
  /** `true` accept, `false` reject; or say which (save keeps the patch in the session only; saveTo writes it to a file). */
  | { kind: 'accept-patch'; result: RunResult; agentTests?: AgentTests; resolve(choice: PatchAnswer): void }
  /** Step mode, before a model call: what the request adds; resolve goes on. */
  | { kind: 'step-model'; preview: RequestPreview; resolve(): void }
  /**
   * Step mode, before a tool call: resolve runs it, with the developer's arguments if they give
   * some. `edited`: their arguments so far, kept here so a viewer or `?` over the pause keeps them.
   */
  | { kind: 'step-tool'; call: ToolCall; edited?: string; resolve(args?: string): void };

/**
 * The debugger's owner: the agent (`off`), the developer once the agent's step ends (`requested`),
 * the developer (`active`), or the agent once the command the developer left running ends
 * (`returning`: handed back, the agent waits for it).
 */
export type Takeover = 'off' | 'requested' | 'active' | 'returning';

/** What the live screens draw: the view folded from the events, and the controller's own state around it. */
export interface UiState {
  view: ViewState;
  prompt?: Prompt;
  takeover: Takeover;
  /** A short message in the footer (e.g. "press Ctrl+C again to quit"). */
  notice?: string;
  /** Messages the developer wrote that wait for the agent's next model call. */
  queued: number;
  /** Step mode: the agent stops before every model call and tool call. */
  step: boolean;
}
