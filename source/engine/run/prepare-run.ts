import { cpSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { loadConfig } from '../config/config';
import { TenetError } from '../errors';
import { EXIT } from '../exit-codes';
import type { EngineEvent, EventOf, EventSink, RunResult } from '../events';
import { onShutdown } from '../lifecycle';
import type { ApproveMode, ProjectInstructions } from '../protocol/settings';
import { createModel, type ModelChoice, type ModelFlags } from '../model/create-model';
import type { Script } from '../model/scripted';
import { ProviderError } from '../model/types';
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
import { runPlan } from './plan-run';
import { isPlan } from '../task/plan-targets';

/** Where an interrupted session goes on from (`tenet resume`). */
export interface ResumePoint {
  id: string;
  state: SessionState;
  /** The last event's sequence number, and the place in words: recorded with the resumption. */
  fromSeq: number;
  position: string;
  /** The log so far, which the TUI shows before going on. */
  events?: readonly EngineEvent[];
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
  /**
   * The repository is tenet's shipped example: the session works on, and applies its patch to, a
   * copy of it in the session's folder, so the example stays as shipped (and resume finds the copy).
   */
  copyOfExample?: boolean;
  /** Interactive: the Ink TUI instead of printed lines. */
  tui?: boolean;
  /** Shell commands of the model in a local sandbox: ask the developer (the TUI's default) or run them (headless: always). */
  approve?: 'ask' | 'auto';
  /** `--apply`: write the patch into the checkout at the end if the run passed (headless; the TUI asks). */
  apply?: boolean;
  /** `--apply-failing`: apply the patch of a run that did not pass too. */
  applyFailing?: boolean;
  /** Go on with an interrupted session. */
  resume?: ResumePoint;
  /** `off`: `--no-project-instructions`, the repository's AGENTS.md (or TENET.md) stays out of the system prompt; given: a fork's recorded ones; absent: read from the repository. */
  instructions?: ProjectInstructions | 'off';
  /** Every `--target` given, when there are several (`target` is the first): a plan, as a file or class is. */
  targets?: string[];
  /** `--plan-stop-on-fail`. */
  planStopOnFail?: boolean;
}

/** Everything a run needs but its pilot and its event sink: shared by headless runs and the TUI. */
export interface PreparedRun {
  options: Omit<RunOptions, 'pilot' | 'emit'> & { sessionId: string };
  model: ModelChoice;
  recorder: SessionRecorder;
  resume?: ResumePoint;
  /** Whether the model's shell commands are asked about (recorded, so a resume asks again for one that was waiting). */
  approve: ApproveMode;
  /** `--approve` as given (recorded: a resume keeps `auto`). */
  approveAsked?: ApproveMode;
  /** `--apply` and `--apply-failing` (recorded, so a resume applies the patch as the run asked). */
  applyPatch: { apply: boolean; applyFailing: boolean };
  /** A resume with a scripted model: its script, and the model answers the session had before the script's first turn (recorded for the next resume). */
  resumedScript?: { scriptFile: string; scriptFrom: number };
  /** A fork: recorded right after the session's start (see run/fork.ts). */
  fork?: Omit<EventOf<'session.forked'>, 'type'>;
}

/** The config files, the model, the settings and the session's log, for a run about to start. */
export async function prepareRun(request: RunRequest): Promise<PreparedRun> {
  const config = await loadConfig(request.repo);
  const model = createModel(config, request.model, process.env, request.fallbackScript);
  const root = sessionsDir(request.sessionsDir, process.env, config.sessionsDir);
  const sessionId = request.resume?.id ?? newSessionId();
  const recorder = SessionRecorder.open(
    root,
    sessionId,
    process.env,
    [],
    config.maxSessionMb ? { maxBytes: config.maxSessionMb * 1024 * 1024 } : {},
  );
  const repo =
    request.copyOfExample && !request.resume
      ? copyExample(request.repo, join(root, sessionId, 'example'))
      : request.repo;
  // Absolute: a resume from another folder finds it.
  const given =
    request.model.script ?? (model.settings.provider === 'scripted' ? request.fallbackScriptFile : undefined);
  const scriptFile = given && model.settings.provider === 'scripted' ? resolve(given) : undefined;
  const sandbox = request.sandboxSpec ?? sandboxSpec(request.sandbox ?? {}, config);
  // Several targets, a file or a class: a plan (see plan-run.ts), recorded as given.
  const specs = request.targets ?? [request.target];
  const plan = (await isPlan(repo, specs)) ? specs : undefined;
  const approve: ApproveMode = request.tui && request.approve !== 'auto' && sandbox.kind === 'local' ? 'ask' : 'auto';
  const applyPatch = { apply: !!request.apply, applyFailing: !!request.applyFailing };
  const options: PreparedRun['options'] = {
    repo,
    target: request.target,
    blank: request.blank ?? false,
    ...(request.python ? { python: request.python } : {}),
    sandbox,
    testArgs: request.testArgs,
    ...resolveSettings(request.settings, config),
    model,
    sessionId,
    sessionsRoot: root,
    record: {
      ...(scriptFile ? { scriptFile } : {}),
      approve,
      ...(request.approve ? { approveAsked: request.approve } : {}),
      ...(applyPatch.apply ? { apply: true } : {}),
      ...(applyPatch.applyFailing ? { applyFailing: true } : {}),
      ...(plan ? { plan, ...(request.planStopOnFail ? { planStopOnFail: true } : {}) } : {}),
    },
    ...(plan ? { plan, ...(request.planStopOnFail ? { planStopOnFail: true } : {}) } : {}),
    ...(plan && request.resume?.events ? { resumeEvents: request.resume.events } : {}),
    ...(request.resume ? { resume: request.resume.state } : {}),
    ...(request.instructions ? { instructions: request.instructions } : {}),
  };
  const resumedScript =
    request.resume && scriptFile
      ? { scriptFile, scriptFrom: request.resume.state.totals.modelCalls - (request.model.scriptStart ?? 0) }
      : undefined;
  return {
    options,
    model,
    recorder,
    approve,
    ...(request.approve ? { approveAsked: request.approve } : {}),
    applyPatch,
    ...(resumedScript ? { resumedScript } : {}),
    ...(request.resume ? { resume: request.resume } : {}),
  };
}

/** A copy of the example repository (its files, not caches), at `into`; returns `into`. */
function copyExample(repo: string, into: string): string {
  cpSync(repo, into, { recursive: true, filter: (source) => !/(^|\/)(__pycache__|\.pytest_cache)$/.test(source) });
  return into;
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
  // A log that reaches its size limit stops the run; its end says why.
  const stop = new AbortController();
  const unwatch = recorder.whenFull(() => stop.abort());
  // The model settings go into the log (keys never do): the catalog and a later resume use the latest.
  const { provider, model, baseUrl } = prepared.model.settings;
  // Until the run's first event (its session.start, or resuming, its first step), nothing is
  // logged: a run that fails before it begins (a target no longer found, no interpreter) leaves
  // no empty session behind, and a resume that cannot go on leaves its session as it was.
  let begun = false;
  const emit = (untold: EngineEvent) => {
    if (!begun) {
      begun = true;
      if (prepared.resume)
        emit({
          type: 'session.resumed',
          fromSeq: prepared.resume.fromSeq,
          position: prepared.resume.position,
          provider,
          model,
          ...(baseUrl ? { baseUrl } : {}),
          approve: prepared.approve,
          ...(prepared.approveAsked ? { approveAsked: prepared.approveAsked } : {}),
          ...prepared.applyPatch,
          ...prepared.resumedScript,
        });
    }
    const event = recorder.full ? stoppedBecauseFull(untold, recorder.full) : untold;
    tally.observe(event);
    recorder.record(event);
    sink(event);
    // A fork names its parent right after its start.
    if (event.type === 'session.start' && prepared.fork) emit({ type: 'session.forked', ...prepared.fork });
  };
  // Stopped from outside (Ctrl-C, SIGTERM, SIGHUP, a closed terminal): the run still ends with a
  // result for whoever reads the events; the recorder marks the session interrupted (resumable).
  let ended = false;
  const unregister = onShutdown(() => {
    // Ended, or over with its result recorded (stopped at the patch decision: see finish-run).
    if (ended || recorder.over) return;
    try {
      sink(
        tally.failed(
          `tenet was stopped before the run ended; \`tenet resume ${options.sessionId}\` goes on from here`,
          'interrupted',
        ),
      );
    } catch {
      // The terminal may be gone (SIGHUP): nothing to print to.
    }
  });
  try {
    return await (options.plan ? runPlan : runTask)({
      ...options,
      pilot,
      emit,
      signal: options.signal ? AbortSignal.any([options.signal, stop.signal]) : stop.signal,
    });
  } catch (thrown) {
    const error = recorder.full
      ? new TenetError(
          recorder.full,
          'raise maxSessionMb in the config if the session needs more, or look at what filled it with `tenet show`',
          EXIT.fail,
        )
      : thrown;
    const failure: EngineEvent = {
      type: 'error',
      message: (error as Error).message,
      ...(error instanceof ProviderError ? { fix: error.fix } : {}),
    };
    // Failed before it began: shown, not logged (see `begun`).
    if (begun) emit(failure);
    else sink(failure);
    // The run still ends with a result for whoever reads the events (`--json`). It is not logged:
    // the session keeps its error status and can be resumed once the provider is back.
    sink(tally.failed(error));
    throw error;
  } finally {
    ended = true;
    unregister();
    unwatch();
    if (begun) recorder.close();
    else recorder.discardIfNeverStarted();
  }
}

/** The run stopped because its log was full: its result (and any error) say so. */
function stoppedBecauseFull(event: EngineEvent, reason: string): EngineEvent {
  if (event.type === 'result' && event.stopReason === 'cancelled')
    return { ...event, stopReason: 'log-full', message: reason };
  return event;
}
