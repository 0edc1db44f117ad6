import type { EngineEvent } from '../events';
import type { SubmissionDiff } from './page-diffs';

/**
 * What `tenet export --format html` writes into the page for its script (page/*.ts) to draw: the
 * session's events, and what the engine computes for them once so the page needs none of its code
 * (diffs, wordings). The contract between export-html.ts and the page.
 */
export interface SessionPageData {
  format: 'tenet-session-page';
  id: string;
  events: readonly EngineEvent[];
  /** Each submission's diff, by its event's index. */
  diffs: Record<number, SubmissionDiff>;
  /** THM's proposal for the T the developer settled on, by the approval event's index (when T changed). */
  proposals: Record<number, string[]>;
  /** What each result's stop reason says next to its verdict, by the result event's index (the words `tenet show` prints). */
  stops: Record<number, string>;
  /** Each condensation's line, by its event's index: the words of agent/context-words.ts, as the TUI says them. */
  condensed: Record<number, string>;
  /** A plan's events as tenet words them (`target 2/3 · area`), and a plan's result's verdict per target (one line each), by the event's index; absent in pages written before plans. */
  plans?: Record<number, string>;
  /** The developer's edits of a call's code (step mode), as diffs against the model's code, by the `tool.edit` event's index. */
  edits: Record<number, Pick<SubmissionDiff, 'added' | 'removed' | 'hunks'>>;
  generator: string;
}
