import { importTui } from './import-tui';
import { EXIT } from '../engine/errors';
import type { EngineEvent } from '../engine/events';
import { headlessPilot } from '../engine/run/pilot';
import { prepareRun, runRecorded, type RunRequest } from '../engine/run/prepare-run';
import { progressLine } from './progress-line';
import { textPrinter } from './run-printer';

export interface RunCommandOptions extends RunRequest {
  json?: boolean;
  apply?: boolean;
  /** Interactive: the Ink TUI instead of printed lines. */
  tui?: boolean;
  /** Shell commands of the model in a local sandbox: ask the developer (TUI default) or run them. */
  approve?: 'ask' | 'auto';
}

/**
 * `--apply` was asked for and refused (the target's file changed in the checkout since the run
 * started): a script must not take the run for done, whatever the tests said. (README, exit codes.)
 */
const EXIT_NOT_APPLIED = 4;

/** `tenet run`: the whole pipeline; headless (THM's proposal approved as it is) or in the TUI. */
export async function runCommand(options: RunCommandOptions): Promise<number> {
  const prepared = prepareRun(options);
  if (options.tui) {
    const { runTui } = await importTui(() => import('../ui/run-tui'));
    return runTui(prepared, { autoApproveCommands: options.approve === 'auto' });
  }
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
  try {
    const result = await runRecorded(prepared, headlessPilot(options.apply ?? false), sink);
    if (options.apply && result.patch && !result.applied) return EXIT_NOT_APPLIED;
    return result.pass ? EXIT.pass : EXIT.fail;
  } finally {
    progress?.clear();
  }
}
