import type { EngineEvent, EventSink } from '../events';
import type { ModelChoice } from '../model/create-model';
import type { ProjectInstructions, RecordedExtras } from '../protocol/settings';
import type { SandboxSpec } from '../sandbox/create-sandbox';
import type { ThmReport } from '../protocol/thm-report';
import type { SessionState } from '../session/fold';
import type { Pilot } from './pilot';
import type { RunSettings } from './run-settings';

/** One task to run: the function and its repository, how to run it, who decides, where the events go. */
export interface RunOptions extends RunSettings {
  repo: string;
  target: string;
  blank: boolean;
  python?: string;
  /** Where Python runs (default: this machine). */
  sandbox?: SandboxSpec;
  testArgs: string[];
  model: ModelChoice;
  pilot: Pilot;
  emit: EventSink;
  signal?: AbortSignal;
  sessionId?: string;
  /** Extra settings to record with the session (e.g. the model script's file). */
  record?: RecordedExtras;
  /** Go on with an interrupted session, from the state its log describes. */
  resume?: SessionState;
  /** The sessions folder: should it be inside the checkout, its changes are tenet's own (see evaluatePristine). */
  sessionsRoot?: string;
  /** THM's report as a parent session made it (a fork): THM does not run again. */
  thmReport?: ThmReport;
  /** The repository's instructions: these (a rerun's recorded ones), none (`off`: --no-project-instructions), or, absent, read from the repository. */
  instructions?: ProjectInstructions | 'off';
  /** A plan (see plan-run.ts): every `--target` as given (a file, a class, functions); `target` is then the first. */
  plan?: string[];
  /** `--plan-stop-on-fail`: the plan stops at its first target that does not pass. */
  planStopOnFail?: boolean;
  /** A resumed plan: the session's log so far (each target's run is folded from its own part of it). */
  resumeEvents?: readonly EngineEvent[];
}
