import type { EventSink } from '../events';
import type { ModelChoice } from '../model/create-model';
import type { Ablations, Budget, RecordedExtras, Selection, Strategy, TddBudget, TestStage } from '../protocol/settings';
import type { SandboxSpec } from '../sandbox/create-sandbox';
import type { SessionState } from '../session/fold';
import type { Pilot } from './pilot';

export interface RunOptions {
  repo: string;
  target: string;
  blank: boolean;
  python?: string;
  /** Where Python runs (default: this machine). */
  sandbox?: SandboxSpec;
  testArgs: string[];
  T: number;
  jobs: number | 'auto';
  fork: boolean;
  testTimeoutSec: number;
  thmTimeoutSec: number;
  budget: Budget;
  /** `tenet` (default), `tdd` or `tenet+tdd`. */
  strategy?: Strategy;
  tddBudget?: TddBudget;
  /** TDD strategies: measure the generated tests (coverage, mutation score); on by default. */
  measureTests?: boolean;
  /** RQ4 ablation: how the tests the agent gets are chosen (default THM's clusters). */
  select?: Selection;
  /** RQ5 ablation: when the tests take part: not at all, before the first submission only, after it only, or both (default). */
  testStage?: TestStage;
  ablations: Ablations;
  model: ModelChoice;
  pilot: Pilot;
  emit: EventSink;
  signal?: AbortSignal;
  sessionId?: string;
  /** Extra settings to record with the session (e.g. the model script's file). */
  record?: RecordedExtras;
  /** Go on with an interrupted session, from the state its log describes. */
  resume?: SessionState;
}
