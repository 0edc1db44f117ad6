import { loadConfig } from '../config/config';
import type { EngineEvent, EventSink, RunResult } from '../events';
import { createModel, type ModelChoice, type ModelFlags } from '../model/create-model';
import type { Script } from '../model/scripted';
import type { SandboxSpec } from '../sandbox/create-sandbox';
import { sandboxSpec, type SandboxFlags } from '../sandbox/sandbox-spec';
import type { SessionState } from '../session/fold';
import { sessionsDir } from '../session/paths';
import { SessionRecorder } from '../session/recorder';
import { RunTally } from './failure-result';
import type { Pilot } from './pilot';
import type { RunOptions } from './run-options';
import { resolveSettings, type RunChoices } from './run-settings';
import { newSessionId, runTask } from './run-task';

/** Where an interrupted session goes on from (`tenet resume`). */
export interface ResumePoint {
  id: string;
  state: SessionState;
  /** The last event's sequence number, and the place in words: recorded with the resumption. */
  fromSeq: number;
  position: string;
}

/** A recorded run as `tenet run`, `demo`, the start screen and `resume` ask for it. */
export interface RunRequest {
  repo: string;
  target: string;
  blank?: boolean;
  python?: string;
  /** `--sandbox`, `--image`, `--docker-host` and the limits, as given (the config fills the rest). */
  sandbox?: SandboxFlags;
  /** A sandbox already decided (resume uses the recorded one). */
  sandboxSpec?: SandboxSpec;
  /** pytest arguments for the scope. */
  testArgs: string[];
  settings: RunChoices;
  model: ModelFlags;
  /** The model to use when nothing is configured (the demo's script), and its file (recorded for resume). */
  fallbackScript?: Script;
  fallbackScriptFile?: string;
  sessionsDir?: string;
  /** Go on with an interrupted session. */
  resume?: ResumePoint;
}

/** Everything a run needs but its pilot and its event sink: shared by headless runs and the TUI. */
export interface PreparedRun {
  options: Omit<RunOptions, 'pilot' | 'emit'> & { sessionId: string };
  model: ModelChoice;
  recorder: SessionRecorder;
  resume?: ResumePoint;
}

/** The config files, the model, the settings and the session's log, for a run about to start. */
export function prepareRun(request: RunRequest): PreparedRun {
  const config = loadConfig(request.repo);
  const model = createModel(config, request.model, process.env, request.fallbackScript);
  const root = sessionsDir(request.sessionsDir, process.env, config.sessionsDir);
  const sessionId = request.resume?.id ?? newSessionId();
  const recorder = SessionRecorder.open(root, sessionId);
  const scriptFile = request.model.script ?? (model.settings.provider === 'scripted' ? request.fallbackScriptFile : undefined);
  const options: PreparedRun['options'] = {
    repo: request.repo,
    target: request.target,
    blank: request.blank ?? false,
    ...(request.python ? { python: request.python } : {}),
    sandbox: request.sandboxSpec ?? sandboxSpec(request.sandbox ?? {}, config),
    testArgs: request.testArgs,
    ...resolveSettings(request.settings, config),
    model,
    sessionId,
    ...(scriptFile ? { record: { scriptFile } } : {}),
    ...(request.resume ? { resume: request.resume.state } : {}),
  };
  return { options, model, recorder, ...(request.resume ? { resume: request.resume } : {}) };
}

/** Runs the task with a pilot and a sink; the session is recorded whatever happens. */
export async function runRecorded(prepared: PreparedRun, pilot: Pilot, sink: EventSink): Promise<RunResult> {
  const { options, recorder } = prepared;
  const tally = new RunTally({
    sessionId: options.sessionId,
    target: options.target,
    strategy: options.strategy,
    model: options.model.settings.model,
    ...(options.resume ? { totals: options.resume.totals } : {}),
  });
  const emit = (event: EngineEvent) => {
    tally.observe(event);
    recorder.record(event);
    sink(event);
  };
  // The model settings go into the log (keys never do): the catalog and a later resume use the latest.
  const { provider, model, baseUrl } = prepared.model.settings;
  if (prepared.resume) emit({ type: 'session.resumed', fromSeq: prepared.resume.fromSeq, position: prepared.resume.position, provider, model, ...(baseUrl ? { baseUrl } : {}) });
  try {
    return await runTask({ ...options, pilot, emit });
  } catch (error) {
    emit({ type: 'error', message: (error as Error).message });
    // The run still ends with a result for whoever reads the events (`--json`). It is not logged:
    // the session keeps its error status and can be resumed once the provider is back.
    sink(tally.failed(error));
    throw error;
  } finally {
    recorder.close();
  }
}
