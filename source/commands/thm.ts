import type { EngineEvent } from '../engine/events';
import type { CallerRule } from '../engine/thm/clustering';
import { TenetError } from '../engine/errors';
import { loadConfig } from '../engine/config/config';
import { sandboxSpec, type SandboxFlags } from '../engine/sandbox/sandbox-spec';
import { parseWithBaselineCodeOnly } from '../engine/python-source/parser';
import { openTask } from '../engine/task/open-task';
import { implementedWarning } from '../engine/task/prepare-target';
import { runThm, THM_DEFAULTS } from '../engine/thm/run-thm';
import { formatThmReport, thmJson } from './format-thm';
import { progressLine } from './progress-line';
import { printable, printableJson } from '../engine/terminal-text';
import { EXIT } from '../engine/exit-codes';

export interface ThmCommandOptions {
  repo: string;
  target: string;
  blank?: boolean;
  T?: number;
  json?: boolean;
  python?: string;
  testTimeout?: number;
  timeout?: number;
  jobs?: number | 'auto';
  /** False: `--two-pass`. */
  onePass?: boolean;
  caller?: CallerRule;
  /** False: `--no-reach`. */
  reach?: boolean;
  keepWorkspace?: boolean;
  sandbox?: SandboxFlags;
  tests: string[];
}

/** `tenet thm`: run the Test Harness Mechanism and print failing tests, clusters and the selection. */
export async function thmCommand(options: ThmCommandOptions): Promise<number> {
  try {
    return await runThmCommand(options);
  } catch (error) {
    // A script reads --json's stdout: a failure is one JSON object there too (stderr tells people).
    if (options.json) {
      const fix = error instanceof TenetError && error.fix ? { fix: error.fix } : {};
      process.stdout.write(
        `${printableJson({ error: { message: error instanceof Error ? error.message : String(error), ...fix } })}\n`,
      );
    }
    throw error;
  }
}

async function runThmCommand(options: ThmCommandOptions): Promise<number> {
  parseWithBaselineCodeOnly();
  const task = await openTask({
    repo: options.repo,
    target: options.target,
    blank: options.blank ?? false,
    ...(options.python ? { python: options.python } : {}),
    keepWorkspace: options.keepWorkspace ?? false,
    sandbox: sandboxSpec(options.sandbox ?? {}, await loadConfig(options.repo)),
  });
  // Said before the suite runs (minutes, on a large one), not only in the report at its end.
  const implemented = implementedWarning(task.target);
  if (implemented && !options.json) process.stderr.write(`${printable(`tenet: warning: ${implemented}`)}\n`);
  // With --json the report is the output (stdout); the progress goes to stderr as JSON lines.
  const progress = progressLine(process.stderr, { json: !!options.json });
  try {
    const report = await runThm(task, {
      T: options.T ?? THM_DEFAULTS.T,
      testArgs: options.tests,
      testTimeoutSec: options.testTimeout ?? THM_DEFAULTS.testTimeoutSec,
      timeoutSec: options.timeout ?? THM_DEFAULTS.timeoutSec,
      jobs: options.jobs ?? THM_DEFAULTS.jobs,
      onePass: options.onePass ?? THM_DEFAULTS.onePass,
      // TENET_THM_WORLDS=1 or 0: worlds mode or a twin per test, whatever THM would choose, where
      // the original world runs (not where the reach index's record stands for it). Tests hold
      // both to the same verdict.
      ...(process.env.TENET_THM_WORLDS === '1' || process.env.TENET_THM_WORLDS === '0'
        ? { worlds: process.env.TENET_THM_WORLDS === '1' }
        : {}),
      caller: options.caller ?? THM_DEFAULTS.caller,
      reach: options.reach ?? true,
      emit: (event: EngineEvent) => {
        // A warning said as THM starts (the reach index knows no test of the target) is for now, not the report's end.
        if (event.type === 'warning' && !options.json) {
          progress.clear();
          process.stderr.write(`${printable(`tenet: warning: ${event.message}`)}\n`);
        }
        progress.onEvent(event);
      },
    });
    progress.clear();
    process.stdout.write(
      options.json ? `${printableJson(thmJson(report))}\n` : `${printable(formatThmReport(report))}\n`,
    );
    if (options.keepWorkspace) process.stderr.write(`workspace kept at ${task.workspace.root}\n`);
    return EXIT.pass;
  } finally {
    progress.clear();
    await task.dispose();
  }
}
