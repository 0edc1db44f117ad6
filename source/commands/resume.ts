import { existsSync, statSync } from 'node:fs';
import { dirname, isAbsolute, resolve } from 'node:path';
import { TenetError } from '../engine/errors';
import type { EngineEvent, EventOf } from '../engine/events';
import { createModel } from '../engine/model/create-model';
import { compareRuns, ReplayModel, replayPilot } from '../engine/run/rerun';
import { newSessionId, runTask } from '../engine/run/run-task';
import { runPlan } from '../engine/run/plan-run';
import { recordedChoices, resolveSettings } from '../engine/run/run-settings';
import { describePosition, foldEvents } from '../engine/session/fold';
import { loadSession } from '../engine/session/load';
import { refuseIfWritten } from '../engine/session/lock';
import { SessionRecorder } from '../engine/session/recorder';
import { secretRedactor } from '../engine/util/redact';
import { recordedSandbox } from '../engine/sandbox/sandbox-spec';
import { DEMO } from './demo';
import { modelGoingOn } from './model-going-on';
import { runCommand } from './run';
import { root, warn } from './sessions-root';
import { printable, printableJson } from '../engine/terminal-text';
import { EXIT } from '../engine/exit-codes';

export function startOf(events: readonly EngineEvent[], id: string): EventOf<'session.start'> {
  const start = events.find((e): e is EventOf<'session.start'> => e.type === 'session.start');
  if (!start) throw new TenetError(`Session ${id} has no start event; there is nothing to go on from.`);
  return start;
}

/** The task a session ran: the function (a plan: its targets as given), its repository and where Python ran. */
export function recordedTask(start: EventOf<'session.start'>) {
  const c = start.config;
  return {
    repo: start.repo,
    target: c.plan?.[0] ?? start.target,
    ...(c.plan ? { targets: c.plan, ...(c.planStopOnFail ? { planStopOnFail: true } : {}) } : {}),
    blank: start.mode === 'blank',
    testArgs: c.testArgs ?? [],
    python: c.python,
    sandboxSpec: recordedSandbox(c.sandbox),
  };
}

/** Where to run a recorded session again: `--repo` / `--python`, else what it recorded. */
export interface Relocation {
  repo?: string;
  python?: string;
}

/**
 * The repository and interpreter to run on. A session from another machine (or a moved checkout)
 * names folders that are not here: the repository must then be given with --repo; a recorded
 * interpreter that is gone is chosen again as for a new run (the repository's venv, python3).
 */
export function relocate(
  run: ReturnType<typeof recordedTask>,
  options: Relocation,
  id: string,
): { repo: string; python?: string } {
  // The shipped demo session ran on a copy of the example that is long gone: its example is here.
  const recorded = id === 'demo' && !existsSync(run.repo) ? DEMO.repo() : run.repo;
  const repo = resolve(options.repo ?? recorded);
  if (!existsSync(repo) || !statSync(repo).isDirectory()) {
    throw new TenetError(
      options.repo
        ? `Repository folder ${repo} does not exist.`
        : `Session ${id} ran on the repository ${repo}, which does not exist here (moved, or the session was recorded on another machine).`,
      'pass --repo with the folder of the same repository (and --python with its interpreter if the recorded one is gone too)',
    );
  }
  if (options.python) return { repo, python: options.python };
  const python = run.python;
  if (python && run.sandboxSpec.kind === 'local' && isAbsolute(python) && !existsSync(python)) {
    warn([
      `the recorded Python ${python} does not exist here; choosing one as a new run would (pass --python to pick it)`,
    ]);
    return { repo };
  }
  return { repo, ...(python ? { python } : {}) };
}

/** `tenet resume ID`: go on with an interrupted session from its last completed step. */
export async function resumeCommand(
  options: Relocation & {
    dir?: string;
    ref: string;
    provider?: string;
    model?: string;
    baseUrl?: string;
    /** `--context-window`: else the recorded window, while the model stays the same. */
    contextWindow?: number;
    /** `--script`: the turns a scripted model plays from here (implies `--provider scripted`). */
    script?: string;
    json?: boolean;
    tui?: boolean;
    approve?: 'ask' | 'auto';
    /** `--apply`, `--apply-failing`: turn them on; without them the run's own choice holds. */
    apply?: boolean;
    applyFailing?: boolean;
  },
): Promise<number> {
  const dir = await root(options.dir);
  const session = loadSession(dir, options.ref);
  refuseIfWritten(dirname(session.source), session.id, 'resuming');
  warn(session.warnings);
  const state = foldEvents(session.events);
  if (state.result) {
    throw new TenetError(
      `Session ${session.id} has finished (${state.result.pass ? 'passed' : 'failed'}); there is nothing to resume.`,
      `\`tenet rerun ${session.id}\` runs it again without model cost`,
    );
  }
  const start = startOf(session.events, session.id);
  // The developer's `--approve auto` or `a` ("every command of this session") holds for the rest of the session.
  const approve = options.approve ?? (state.autoApprove ? 'auto' : undefined);
  const waiting = state.awaitingApproval;
  if (waiting && !options.tui && approve !== 'auto') {
    // Running it now would answer a question the developer never answered.
    throw new TenetError(
      `Session ${session.id} stopped while the shell command \`${commandOf(waiting.arguments)}\` waited for your approval; a headless resume cannot ask.`,
      'resume it in a terminal (without --json or --headless) to answer, or pass --approve auto to run it',
    );
  }
  const run = recordedTask(start);
  // The settings in force are the latest: an earlier resume may have changed the model. `--script` implies the scripted provider.
  const going = modelGoingOn(start, state.settings, {
    ...options,
    provider: options.provider ?? (options.script ? 'scripted' : undefined),
  });
  const inForce = state.settings?.provider ?? start.provider;
  const script = going.scripted ? scriptToResume(session.id, state, options.script, inForce) : undefined;
  const { python, ...where } = relocate(run, options, session.id);
  return runCommand({
    ...run,
    ...where,
    python, // replaces the recorded one, even when it is unset (chosen again)
    settings: recordedChoices(start),
    model: { ...going.flags, ...(script ?? {}) },
    json: !!options.json,
    // What the run asked for its patch holds when it is resumed (a resume may ask for more).
    apply: !!options.apply || state.applyPatch.apply,
    applyFailing: !!options.applyFailing || state.applyPatch.applyFailing,
    ...(options.tui ? { tui: true } : {}),
    ...(approve ? { approve } : {}),
    // A session stopped in step mode goes on in it, in the TUI (`s` turns it off).
    ...(options.tui && state.stepping ? { step: true } : {}),
    sessionsDir: dir,
    resume: {
      id: session.id,
      state,
      fromSeq: session.events.at(-1)?.seq ?? 0,
      position: describePosition(state),
      events: session.events,
    },
  });
}

/**
 * The script a scripted model goes on with: one given with --script, from its first turn; else
 * the session's own, from the turn after the answers it already gave.
 */
function scriptToResume(
  id: string,
  state: ReturnType<typeof foldEvents>,
  given: string | undefined,
  provider: string,
): { script: string; scriptStart: number } {
  if (given) return { script: given, scriptStart: 0 };
  if (!state.script) {
    throw new TenetError(
      `Session ${id} used ${provider}, not a script: a scripted model has no turns to go on with.`,
      `pass --script FILE with the turns to play from here, or leave --provider out to go on with ${provider}`,
    );
  }
  return { script: state.script.file, scriptStart: state.totals.modelCalls - state.script.from };
}

/** The command of a run_debugger_cmd call, from its raw arguments. */
function commandOf(args: string): string {
  try {
    return String((JSON.parse(args) as { cmd?: unknown }).cmd ?? args);
  } catch {
    return args;
  }
}

/**
 * `tenet rerun ID`: the whole run again with the current code for THM, tools and tests, the model
 * answering from the record (no API cost); reports where the new run diverges.
 */
export async function rerunCommand(
  options: Relocation & { dir?: string; ref: string; json?: boolean },
): Promise<number> {
  const dir = await root(options.dir);
  const session = loadSession(dir, options.ref);
  refuseIfWritten(dirname(session.source), session.id, 'rerunning');
  warn(session.warnings);
  const start = startOf(session.events, session.id);
  const run = recordedTask(start);
  const place = relocate(run, options, session.id);
  const scriptEnded = session.events.some((e) => e.type === 'result' && e.stopReason === 'script-ended');
  const replay = new ReplayModel(session.events as EngineEvent[], start.model, scriptEnded);
  const base = createModel({}, { provider: 'scripted' }, {}, { label: replay.label, turns: [] });
  const sessionId = newSessionId();
  const recorder = SessionRecorder.open(dir, sessionId);
  const events: EngineEvent[] = [];
  let error: Error | undefined;
  try {
    await (run.targets ? runPlan : runTask)({
      repo: place.repo,
      target: run.target,
      ...(run.targets ? { plan: run.targets, ...(run.planStopOnFail ? { planStopOnFail: true } : {}) } : {}),
      blank: run.blank,
      ...(place.python ? { python: place.python } : {}),
      sandbox: run.sandboxSpec,
      testArgs: run.testArgs,
      // The recorded settings as they are: the config files of today do not change a rerun.
      ...resolveSettings(recordedChoices(start), {}),
      // The recorded window: the conversation condenses where the run did.
      model: {
        model: replay,
        price: undefined,
        settings: {
          ...base.settings,
          provider: 'replay',
          model: start.model,
          maxTokens: start.config.maxTokens ?? base.settings.maxTokens,
          ...(start.config.contextWindow ? { contextWindow: start.config.contextWindow } : {}),
        },
      },
      pilot: replayPilot(session.events),
      sessionId,
      record: { rerunOf: session.id },
      // The instructions the run had, as recorded (none in sessions from before tenet read them), not the file as it is now.
      instructions: start.config.instructions ?? 'off',
      emit: (event) => {
        recorder.record(event);
        events.push(event);
      },
    });
  } catch (caught) {
    error = caught as Error;
    if (events.some((e) => e.type === 'session.start')) recorder.record({ type: 'error', message: error.message });
  }
  // A rerun that stopped before its start (the target not found today) is no session to keep.
  const saved = !recorder.discardIfNeverStarted();
  const where = saved ? `rerun saved as ${sessionId}` : 'the rerun stopped before it started: not saved';
  // What makes the rest differ goes first: the target's file changed since (the session's own
  // patch applied, with --apply or a in the TUI, changes it), or the rerun could not run.
  const file = run.target.split('::')[0]!;
  const nowStart = events.find((e): e is EventOf<'session.start'> => e.type === 'session.start');
  const changed =
    start.config.originalSha1 &&
    nowStart?.config.originalSha1 &&
    nowStart.config.originalSha1 !== start.config.originalSha1;
  const divergences = [
    ...(changed
      ? [
          {
            step: 'target file',
            recorded: `${file} as the session found it`,
            now: `${file} has changed since (the session's own patch, applied, changes it): what differs below may follow from that`,
          },
        ]
      : []),
    ...(error ? [{ step: 'run', recorded: 'completed', now: `stopped: ${error.message}` }] : []),
    ...compareRuns(session.events, events, secretRedactor(process.env).text),
  ];
  if (!replay.exhausted && !error)
    divergences.push({
      step: 'model answers',
      recorded: `${replay.answers} answers`,
      now: 'the run ended before using all of them',
    });
  if (options.json) {
    process.stdout.write(`${printableJson({ session: session.id, rerun: saved ? sessionId : null, divergences })}\n`);
  } else if (!divergences.length) {
    const tools = events.filter((e) => e.type === 'tool.result').length;
    const runs = events.filter((e) => e.type === 'tests.run').length;
    process.stdout.write(
      `No divergence: THM's selection, ${tools} tool outputs, ${runs} test runs and the result match session ${session.id} (${where}).\n`,
    );
  } else {
    process.stdout.write(
      `${divergences.length} divergence${divergences.length === 1 ? '' : 's'} from session ${session.id} (${where}):\n`,
    );
    for (const d of divergences)
      process.stdout.write(
        printable(
          `\n- ${d.step}\n  recorded: ${d.recorded.replace(/\n/g, '\n            ')}\n  now:      ${d.now.replace(/\n/g, '\n            ')}\n`,
        ),
      );
  }
  return divergences.length ? EXIT.fail : EXIT.pass;
}
