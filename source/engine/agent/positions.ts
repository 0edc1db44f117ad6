/**
 * Where each strategy stands, and where it starts: what session/fold.ts rebuilds from a log. A
 * leaf of its own, so that reading a session (the browser, a replay) does not load the strategies,
 * their prompts and the tools behind them.
 */
import type { RrwStage } from '../events';

/**
 * Where the strategy stands, so that an interrupted session can go on from its last completed
 * step (see session/fold.ts, which rebuilds it from the event log).
 */
export interface Position {
  /** pregen: exploring; validate: a submission awaits its test run; rrw: inside a refinement attempt. */
  phase: 'pregen' | 'validate' | 'rrw';
  pregenUsed: number;
  /** The refinement attempt under way (rrw), or the last one that ended (validate); 0 before any. */
  attempt: number;
  /** Index into the three stages. */
  stage: number;
  attemptUsed: number;
  /** The report of the last failing validation, which the next attempt starts from. */
  report?: string;
}

export const START: Position = { phase: 'pregen', pregenUsed: 0, attempt: 0, stage: 0, attemptUsed: 0 };

/** The three stages of a Reflective Refinement Workflow attempt, in order. */
export const STAGES: Exclude<RrwStage, 'naive'>[] = ['failure-identification', 'context-review', 'code-refinement'];

/** Where a TDD session stands (rebuilt from the log by session/fold.ts for resume). */
export interface TddPosition {
  phase: 'setup' | 'refine';
  setupUsed: number;
  /** The iteration under way, or the last one done; 0 before the first. */
  iteration: number;
  /** Whether that iteration is under way (its test run has not happened yet). */
  open: boolean;
  iterationUsed: number;
}

export const TDD_START: TddPosition = { phase: 'setup', setupUsed: 0, iteration: 0, open: false, iterationUsed: 0 };
