import { loadConfig } from '../engine/config/config';
import type { SessionState } from '../engine/session/fold';
import { sessionsDir } from '../engine/session/paths';
import { SessionRecorder } from '../engine/session/recorder';
import { newSessionId } from '../engine/run/run-task';
import type { EngineEvent, RunResult } from '../engine/events';
import { EXIT } from '../engine/errors';
import { createModel, type ModelFlags } from '../engine/model/create-model';
import type { Script } from '../engine/model/scripted';
import { PAPER_BUDGET, type Budget } from '../engine/agent/tenet-strategy';
import { headlessPilot } from '../engine/run/pilot';
import { runTask, type Ablations } from '../engine/run/run-task';
import { THM_DEFAULTS } from '../engine/thm/run-thm';
import { progressLine } from './progress-line';
import { textPrinter } from './run-printer';

export interface RunCommandOptions extends ModelFlags {
  repo: string;
  target: string;
  blank?: boolean;
  python?: string;
  tests: string[];
  T?: number;
  jobs?: number | 'auto';
  fork?: boolean;
  testTimeout?: number;
  thmTimeout?: number;
  pregenRounds?: number;
  rrwAttempts?: number;
  rrwRounds?: number;
  ablations?: Partial<Ablations>;
  json?: boolean;
  apply?: boolean;
  /** The model to use when nothing is configured (the demo's script), and its file (recorded for resume). */
  fallbackScript?: Script;
  fallbackScriptFile?: string;
  sessionsDir?: string;
  /** Go on with an interrupted session. */
  resume?: { id: string; state: SessionState; fromSeq: number; position: string };
}

/** `tenet run`: the whole pipeline without a TTY; THM's proposal is approved as it is. */
export async function runCommand(options: RunCommandOptions): Promise<number> {
  const config = loadConfig(options.repo);
  const model = createModel(config, options, process.env, options.fallbackScript);
  const budget: Budget = {
    pregenRounds: options.pregenRounds ?? config.pregenRounds ?? PAPER_BUDGET.pregenRounds,
    rrwAttempts: options.rrwAttempts ?? config.rrwAttempts ?? PAPER_BUDGET.rrwAttempts,
    rrwRounds: options.rrwRounds ?? config.rrwRounds ?? PAPER_BUDGET.rrwRounds,
  };
  const progress = options.json ? undefined : progressLine();
  const print = options.json ? undefined : textPrinter((text) => process.stdout.write(text));
  const root = sessionsDir(options.sessionsDir, process.env, config.sessionsDir);
  const sessionId = options.resume?.id ?? newSessionId();
  const recorder = SessionRecorder.open(root, sessionId);
  const scriptFile = options.script ?? (model.settings.provider === 'scripted' ? options.fallbackScriptFile : undefined);
  const emit = (event: EngineEvent) => {
    recorder.record(event);
    if (options.json) {
      // Deltas are many and small; the response event carries the full text.
      if (event.type !== 'model.delta' && event.type !== 'debugger.output') process.stdout.write(`${JSON.stringify(event)}\n`);
      return;
    }
    progress?.onEvent(event);
    if (event.type === 'thm.report') progress?.clear();
    print?.(event);
  };
  if (options.resume) emit({ type: 'session.resumed', fromSeq: options.resume.fromSeq, position: options.resume.position });
  let result: RunResult;
  try {
    result = await runTask({
    repo: options.repo,
    target: options.target,
    blank: options.blank ?? false,
    ...(options.python ? { python: options.python } : {}),
    testArgs: options.tests,
    T: options.T ?? THM_DEFAULTS.T,
    jobs: options.jobs ?? THM_DEFAULTS.jobs,
    fork: options.fork ?? THM_DEFAULTS.fork,
    testTimeoutSec: options.testTimeout ?? config.testTimeout ?? THM_DEFAULTS.testTimeoutSec,
    thmTimeoutSec: options.thmTimeout ?? THM_DEFAULTS.timeoutSec,
    budget,
    ablations: { noThm: false, noApis: false, noRrw: false, ...options.ablations },
    model,
    pilot: headlessPilot(options.apply ?? false),
    emit,
    sessionId,
    ...(scriptFile ? { record: { scriptFile } } : {}),
    ...(options.resume ? { resume: options.resume.state } : {}),
  });
  } catch (error) {
    emit({ type: 'error', message: (error as Error).message });
    throw error;
  } finally {
    recorder.close();
    progress?.clear();
  }
  return result.pass ? EXIT.pass : EXIT.fail;
}
