import { importTui } from './import-tui';
import { EXIT, TenetError } from '../engine/errors';
import type { EngineEvent } from '../engine/events';
import { onShutdown } from '../engine/lifecycle';
import { headlessPilot } from '../engine/run/pilot';
import { prepareRun, runRecorded, type PreparedRun, type RunRequest } from '../engine/run/prepare-run';
import { printable, printableJson } from '../engine/terminal-text';
import { progressLine } from './progress-line';
import { textPrinter } from './run-printer';

export interface RunCommandOptions extends RunRequest {
  json?: boolean;
  apply?: boolean;
  /** With or without `apply`: apply the patch of a run that did not pass too. */
  applyFailing?: boolean;
}

/**
 * `--apply` was asked for, the run passed, and the patch was refused (the target's file changed in
 * the checkout since the run started): a script must not take the run for done. (README, exit codes.)
 */
const EXIT_NOT_APPLIED = 4;

/** What to type to go on with a session that was stopped (printed when Ctrl+C quits). */
export function resumeHint(prepared: PreparedRun, sessionsDirGiven: boolean): string {
  const id = prepared.recorder.id;
  const where = sessionsDirGiven ? ` --sessions-dir ${JSON.stringify(prepared.recorder.root)}` : '';
  return `Session ${id} is saved; go on with it: tenet resume ${id}${where}\n`;
}

/** `tenet run`: the whole pipeline; headless (THM's proposal approved as it is) or in the TUI. */
export async function runCommand(options: RunCommandOptions): Promise<number> {
  if (!options.tui && options.approve === 'ask') {
    throw new TenetError(
      '--approve ask needs the terminal UI to ask in; a headless run (--headless, --json, or no terminal) cannot ask, and would run the commands anyway.',
      'run in a terminal without --headless/--json, or contain the commands with --sandbox docker, or pass --approve auto',
    );
  }
  const prepared = prepareRun(options);
  const hint = () => resumeHint(prepared, !!options.sessionsDir);
  if (options.tui) {
    const { runTui } = await importTui(() => import('../ui/run-tui'));
    return runTui(prepared, { autoApproveCommands: options.approve === 'auto', resumeHint: hint, ...(options.resume?.events ? { history: options.resume.events } : {}) });
  }
  // Interrupted (Ctrl+C, SIGTERM): the session is saved; say how to go on with it.
  let finishedRun = false;
  const unregister = onShutdown(() => {
    if (!finishedRun) process.stderr.write(`\n${hint()}`);
  });
  const progress = options.json ? undefined : progressLine();
  const print = options.json ? undefined : textPrinter((text) => process.stdout.write(printable(text)));
  const sink = (event: EngineEvent) => {
    if (options.json) {
      // Deltas are many and small; the response event carries the full text.
      if (event.type !== 'model.delta' && event.type !== 'model.tool-delta' && event.type !== 'debugger.output') process.stdout.write(`${printableJson(event)}\n`);
      return;
    }
    progress?.onEvent(event);
    if (event.type === 'thm.report') progress?.clear();
    print?.(event);
  };
  try {
    const result = await runRecorded(prepared, headlessPilot(options.apply ?? false, options.applyFailing ?? false), sink);
    finishedRun = true;
    // A failed run is exit 1 whether or not its patch went in; a passing one not applied is 4.
    if (!result.pass) return EXIT.fail;
    return (options.apply || options.applyFailing) && result.patch && !result.applied ? EXIT_NOT_APPLIED : EXIT.pass;
  } finally {
    finishedRun = true;
    unregister();
    progress?.clear();
  }
}
