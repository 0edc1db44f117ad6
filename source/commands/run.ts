import { cpSync, existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { importTui } from './import-tui';
import { PAPER_BUDGET } from '../engine/agent/tenet-strategy';
import type { Budget, Ablations, TestStage, Selection, Strategy } from '../engine/protocol/settings';
import { loadConfig } from '../engine/config/config';
import { EXIT, TenetError } from '../engine/errors';
import { onShutdown } from '../engine/lifecycle';
import type { EngineEvent, RunResult } from '../engine/events';
import { createModel, type ModelFlags } from '../engine/model/create-model';
import type { Script } from '../engine/model/scripted';
import { RunTally } from '../engine/run/failure-result';
import { MessageFile } from '../engine/run/message-file';
import { headlessPilot, type Pilot } from '../engine/run/pilot';
import { newSessionId, runTask } from '../engine/run/run-task';
import type { RunOptions } from '../engine/run/run-options';
import { TDD_PAPER_BUDGET } from '../engine/agent/tdd-strategy';
import type { SessionState } from '../engine/session/fold';
import { sessionsDir } from '../engine/session/paths';
import { SessionRecorder } from '../engine/session/recorder';
import { THM_DEFAULTS } from '../engine/thm/run-thm';
import type { SandboxSpec } from '../engine/sandbox/create-sandbox';
import { sandboxSpec, type SandboxFlags } from '../engine/sandbox/sandbox-spec';
import { lineStepper } from './line-stepper';
import { progressLine } from './progress-line';
import { textPrinter } from './run-printer';

export interface RunCommandOptions extends ModelFlags {
  repo: string;
  target: string;
  blank?: boolean;
  python?: string;
  /** `--sandbox`, `--image`, `--docker-host` and the limits, as given (the config fills the rest). */
  sandbox?: SandboxFlags;
  /** A sandbox already decided (resume and rerun use the recorded one). */
  sandboxSpec?: SandboxSpec;
  tests: string[];
  T?: number;
  jobs?: number | 'auto';
  fork?: boolean;
  testTimeout?: number;
  thmTimeout?: number;
  pregenRounds?: number;
  rrwAttempts?: number;
  rrwRounds?: number;
  /** `tenet` (default), `tdd`, `tenet+tdd`, and the TDD budget. */
  strategy?: Strategy;
  tddSetupRounds?: number;
  tddIterations?: number;
  /** TDD strategies: measure the generated tests at the end (default true). */
  testQuality?: boolean;
  /** RQ4 / RQ5 ablations. */
  select?: Selection;
  testStage?: TestStage;
  ablations?: Partial<Ablations>;
  json?: boolean;
  apply?: boolean;
  /** With or without `apply`: apply the patch of a run that did not pass too. */
  applyFailing?: boolean;
  /** The model to use when nothing is configured (the demo's script), and its file (recorded for resume). */
  fallbackScript?: Script;
  fallbackScriptFile?: string;
  sessionsDir?: string;
  /**
   * The repository is tenet's shipped example: the session works on, and applies its patch to, a
   * copy of it in the session's folder, so the example stays as shipped (and resume finds the copy).
   */
  copyOfExample?: boolean;
  /** Go on with an interrupted session. */
  resume?: { id: string; state: SessionState; fromSeq: number; position: string };
  /** Interactive: the Ink TUI instead of printed lines. */
  tui?: boolean;
  /** Shell commands of the model in a local sandbox: ask the developer (the TUI's default) or run them (headless: always). */
  approve?: 'ask' | 'auto';
  /** `--message-file`: lines written to it while the run goes on are messages for the model. */
  messageFile?: string;
  /** `--step`: pause before every model call and tool call (headless: answered on stdin). */
  step?: boolean;
}

/** `--message-file F`, checked: the lines written to F from now on. */
export function messageFileOf(options: RunCommandOptions): MessageFile | undefined {
  if (!options.messageFile) return undefined;
  const path = resolve(options.messageFile);
  if (existsSync(path) && statSync(path).isDirectory()) throw new TenetError(`--message-file ${options.messageFile} is a folder.`, 'pass a file (it need not exist yet): each line written to it goes to the model');
  return new MessageFile(path);
}

/** Everything a run needs but its pilot and its event sink: shared by headless runs and the TUI. */
export function prepareRun(options: RunCommandOptions) {
  const config = loadConfig(options.repo);
  const model = createModel(config, options, process.env, options.fallbackScript);
  const budget: Budget = {
    pregenRounds: options.pregenRounds ?? config.pregenRounds ?? PAPER_BUDGET.pregenRounds,
    rrwAttempts: options.rrwAttempts ?? config.rrwAttempts ?? PAPER_BUDGET.rrwAttempts,
    rrwRounds: options.rrwRounds ?? config.rrwRounds ?? PAPER_BUDGET.rrwRounds,
  };
  const root = sessionsDir(options.sessionsDir, process.env, config.sessionsDir);
  const sessionId = options.resume?.id ?? newSessionId();
  const recorder = SessionRecorder.open(root, sessionId);
  const repo = options.copyOfExample && !options.resume ? copyExample(options.repo, join(root, sessionId, 'example')) : options.repo;
  const scriptFile = options.script ?? (model.settings.provider === 'scripted' ? options.fallbackScriptFile : undefined);
  const base: Omit<RunOptions, 'pilot' | 'emit'> = {
    repo,
    target: options.target,
    blank: options.blank ?? false,
    ...(options.python ? { python: options.python } : {}),
    sandbox: options.sandboxSpec ?? sandboxSpec(options.sandbox ?? {}, config),
    testArgs: options.tests,
    T: options.T ?? THM_DEFAULTS.T,
    jobs: options.jobs ?? THM_DEFAULTS.jobs,
    fork: options.fork ?? THM_DEFAULTS.fork,
    testTimeoutSec: options.testTimeout ?? config.testTimeout ?? THM_DEFAULTS.testTimeoutSec,
    thmTimeoutSec: options.thmTimeout ?? THM_DEFAULTS.timeoutSec,
    budget,
    strategy: options.strategy ?? config.strategy ?? 'tenet',
    tddBudget: {
      setupRounds: options.tddSetupRounds ?? TDD_PAPER_BUDGET.setupRounds,
      iterations: options.tddIterations ?? config.tddIterations ?? TDD_PAPER_BUDGET.iterations,
      roundsPerIteration: TDD_PAPER_BUDGET.roundsPerIteration,
    },
    ...(options.testQuality === false ? { measureTests: false } : {}),
    ...(options.select ? { select: options.select } : {}),
    ...(options.testStage ? { testStage: options.testStage } : {}),
    ablations: { noThm: false, noApis: false, noRrw: false, ...options.ablations },
    model,
    sessionId,
    ...(scriptFile ? { record: { scriptFile } } : {}),
    ...(options.resume ? { resume: options.resume.state } : {}),
  };
  return { base, recorder, model };
}

/** What to type to go on with a session that was stopped (printed when Ctrl+C quits). */
export function resumeHint(prepared: ReturnType<typeof prepareRun>, options: RunCommandOptions): string {
  const id = prepared.recorder.id;
  const where = options.sessionsDir ? ` --sessions-dir ${JSON.stringify(prepared.recorder.root)}` : '';
  return `Session ${id} is saved; go on with it: tenet resume ${id}${where}\n`;
}

/** A copy of the example repository (its files, not caches), at `into`; returns `into`. */
function copyExample(repo: string, into: string): string {
  cpSync(repo, into, { recursive: true, filter: (source) => !/(^|\/)(__pycache__|\.pytest_cache)$/.test(source) });
  return into;
}

/**
 * `--apply` was asked for, the run passed, and the patch was refused (the target's file changed in
 * the checkout since the run started): a script must not take the run for done. (README, exit codes.)
 */
export const EXIT_NOT_APPLIED = 4;

/** Runs the task with a pilot and a sink; the session is recorded whatever happens. */
export async function recordedRun(prepared: ReturnType<typeof prepareRun>, options: RunCommandOptions, pilot: Pilot, sink: (event: EngineEvent) => void): Promise<RunResult> {
  const { base, recorder } = prepared;
  const tally = new RunTally({
    sessionId: base.sessionId!,
    target: base.target,
    strategy: base.strategy ?? 'tenet',
    model: base.model.settings.model,
    ...(base.resume ? { totals: base.resume.totals } : {}),
  });
  const emit = (event: EngineEvent) => {
    tally.observe(event);
    recorder.record(event);
    sink(event);
  };
  // The model settings go into the log (keys never do): the catalog and a later resume use the latest.
  const { provider, model, baseUrl } = prepared.model.settings;
  if (options.resume) emit({ type: 'session.resumed', fromSeq: options.resume.fromSeq, position: options.resume.position, provider, model, ...(baseUrl ? { baseUrl } : {}) });
  // Stopped from outside (Ctrl-C, SIGTERM, SIGHUP, a closed terminal): the run still ends with a
  // result for whoever reads the events; the recorder marks the session interrupted (resumable).
  let ended = false;
  const unregister = onShutdown(() => {
    if (ended) return;
    try {
      sink(tally.failed(`tenet was stopped before the run ended; \`tenet resume ${base.sessionId}\` goes on from here`, 'interrupted'));
    } catch {
      // The terminal may be gone (SIGHUP): nothing to print to.
    }
  });
  try {
    return await runTask({ ...base, pilot, emit });
  } catch (error) {
    emit({ type: 'error', message: (error as Error).message });
    // The run still ends with a result for whoever reads the events (`--json`). It is not logged:
    // the session keeps its error status and can be resumed once the provider is back.
    sink(tally.failed(error));
    throw error;
  } finally {
    ended = true;
    unregister();
    recorder.close();
  }
}

/** `tenet run`: the whole pipeline; headless (THM's proposal approved as it is) or in the TUI. */
export async function runCommand(options: RunCommandOptions): Promise<number> {
  if (!options.tui && options.approve === 'ask') {
    throw new TenetError(
      '--approve ask needs the terminal UI to ask in; a headless run (--headless, --json, or no terminal) cannot ask, and would run the commands anyway.',
      'run in a terminal without --headless/--json, or contain the commands with --sandbox docker, or pass --approve auto',
    );
  }
  const messageFile = messageFileOf(options);
  const prepared = prepareRun(options);
  if (options.tui) {
    const { runTui } = await importTui(() => import('../ui/run-tui'));
    return runTui(prepared, options);
  }
  // Interrupted (Ctrl+C, SIGTERM): the session is saved; say how to go on with it.
  let finishedRun = false;
  const unregister = onShutdown(() => {
    if (!finishedRun) process.stderr.write(`\n${resumeHint(prepared, options)}`);
  });
  const progress = options.json ? undefined : progressLine();
  const print = options.json ? undefined : textPrinter((text) => process.stdout.write(text));
  const sink = (event: EngineEvent) => {
    if (options.json) {
      // Deltas are many and small; the response event carries the full text.
      if (event.type !== 'model.delta' && event.type !== 'debugger.output') process.stdout.write(`${JSON.stringify(event)}\n`);
      return;
    }
    progress?.onEvent(event);
    if (event.type === 'thm.report') progress?.clear();
    print?.(event);
  };
  const stepper = options.step ? lineStepper(process.stdin, (text) => process.stderr.write(text)) : undefined;
  try {
    const result = await recordedRun(prepared, options, headlessPilot(options.apply ?? false, options.applyFailing ?? false, { ...(messageFile ? { messageFile } : {}), ...(stepper ? { stepper } : {}) }), sink);
    finishedRun = true;
    // A failed run is exit 1 whether or not its patch went in; a passing one not applied is 4.
    if (!result.pass) return EXIT.fail;
    return (options.apply || options.applyFailing) && result.patch && !result.applied ? EXIT_NOT_APPLIED : EXIT.pass;
  } finally {
    finishedRun = true;
    unregister();
    stepper?.close();
    progress?.clear();
  }
}
