import { importTui } from './import-tui';
import { PAPER_BUDGET, type Budget } from '../engine/agent/tenet-strategy';
import { loadConfig } from '../engine/config/config';
import { EXIT, TenetError } from '../engine/errors';
import type { EngineEvent, RunResult } from '../engine/events';
import { createModel, type ModelFlags } from '../engine/model/create-model';
import type { Script } from '../engine/model/scripted';
import { RunTally } from '../engine/run/failure-result';
import { headlessPilot, type Pilot } from '../engine/run/pilot';
import { newSessionId, runTask, type Ablations, type RunOptions, type TestStage } from '../engine/run/run-task';
import type { Selection } from '../engine/thm/alt-selection';
import type { Strategy } from '../engine/run/strategies';
import { TDD_PAPER_BUDGET } from '../engine/agent/tdd-strategy';
import type { SessionState } from '../engine/session/fold';
import { sessionsDir } from '../engine/session/paths';
import { SessionRecorder } from '../engine/session/recorder';
import { THM_DEFAULTS } from '../engine/thm/run-thm';
import type { SandboxSpec } from '../engine/sandbox/create-sandbox';
import { sandboxSpec, type SandboxFlags } from '../engine/sandbox/sandbox-spec';
import { printable, printableJson } from '../engine/terminal-text';
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
  /** The model to use when nothing is configured (the demo's script), and its file (recorded for resume). */
  fallbackScript?: Script;
  fallbackScriptFile?: string;
  sessionsDir?: string;
  /** Go on with an interrupted session. */
  resume?: { id: string; state: SessionState; fromSeq: number; position: string };
  /** Interactive: the Ink TUI instead of printed lines. */
  tui?: boolean;
  /** Shell commands of the model in a local sandbox: ask the developer (TUI default) or run them. */
  approve?: 'ask' | 'auto';
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
  const recorder = SessionRecorder.open(root, sessionId, process.env, [], config.maxSessionMb ? { maxBytes: config.maxSessionMb * 1024 * 1024 } : {});
  const scriptFile = options.script ?? (model.settings.provider === 'scripted' ? options.fallbackScriptFile : undefined);
  const base: Omit<RunOptions, 'pilot' | 'emit'> = {
    repo: options.repo,
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

/**
 * `--apply` was asked for and refused (the target's file changed in the checkout since the run
 * started): a script must not take the run for done, whatever the tests said. (README, exit codes.)
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
  // A log that reaches its size limit stops the run; its end says why.
  const stop = new AbortController();
  const unwatch = recorder.whenFull(() => stop.abort());
  const emit = (untold: EngineEvent) => {
    const event = recorder.full ? stoppedBecauseFull(untold, recorder.full) : untold;
    tally.observe(event);
    recorder.record(event);
    sink(event);
  };
  // The model settings go into the log (keys never do): the catalog and a later resume use the latest.
  const { provider, model, baseUrl } = prepared.model.settings;
  if (options.resume) emit({ type: 'session.resumed', fromSeq: options.resume.fromSeq, position: options.resume.position, provider, model, ...(baseUrl ? { baseUrl } : {}) });
  try {
    return await runTask({ ...base, pilot, emit, signal: base.signal ? AbortSignal.any([base.signal, stop.signal]) : stop.signal });
  } catch (thrown) {
    const error = recorder.full ? new TenetError(recorder.full, 'raise maxSessionMb in the config if the session needs more, or look at what filled it with `tenet show`', EXIT.fail) : thrown;
    emit({ type: 'error', message: (error as Error).message });
    // The run still ends with a result for whoever reads the events (`--json`). It is not logged:
    // the session keeps its error status and can be resumed once the provider is back.
    sink(tally.failed(error));
    throw error;
  } finally {
    unwatch();
    recorder.close();
  }
}

/** The run stopped because its log was full: its result (and any error) say so. */
function stoppedBecauseFull(event: EngineEvent, reason: string): EngineEvent {
  if (event.type === 'result' && event.stopReason === 'cancelled') return { ...event, stopReason: 'log-full', message: reason };
  return event;
}

/** `tenet run`: the whole pipeline; headless (THM's proposal approved as it is) or in the TUI. */
export async function runCommand(options: RunCommandOptions): Promise<number> {
  const prepared = prepareRun(options);
  if (options.tui) {
    const { runTui } = await importTui(() => import('../ui/run-tui'));
    return runTui(prepared, options);
  }
  const progress = options.json ? undefined : progressLine();
  const print = options.json ? undefined : textPrinter((text) => process.stdout.write(printable(text)));
  const sink = (event: EngineEvent) => {
    if (options.json) {
      // Deltas are many and small; the response event carries the full text.
      if (event.type !== 'model.delta' && event.type !== 'debugger.output') process.stdout.write(`${printableJson(event)}\n`);
      return;
    }
    progress?.onEvent(event);
    if (event.type === 'thm.report') progress?.clear();
    print?.(event);
  };
  try {
    const result = await recordedRun(prepared, options, headlessPilot(options.apply ?? false), sink);
    if (options.apply && result.patch && !result.applied) return EXIT_NOT_APPLIED;
    return result.pass ? EXIT.pass : EXIT.fail;
  } finally {
    progress?.clear();
  }
}
