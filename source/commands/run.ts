import { existsSync, readFileSync, realpathSync, statSync } from 'node:fs';
import { basename, dirname, isAbsolute, relative, resolve, sep } from 'node:path';
import { importTui } from './import-tui';
import { TenetError } from '../engine/errors';
import { EXIT } from '../engine/exit-codes';
import type { EngineEvent } from '../engine/events';
import { onShutdown } from '../engine/lifecycle';
import { stoppedByLimit } from '../engine/model/spend-limits';
import { MessageFile } from '../engine/run/message-file';
import type { ForkRequest } from '../engine/run/fork';
import { headlessPilot, type Pilot } from '../engine/run/pilot';
import type { GivenTestFile } from '../engine/run/test-desk';
import type { PreparedRun, RunRequest } from '../engine/run/prepare-run';
import { printable } from '../engine/terminal-text';
import { jsonStreamLine } from './json-stream';
import { lineStepper } from './line-stepper';
import { progressLine } from './progress-line';
import { textPrinter } from './run-printer';

export interface RunCommandOptions extends RunRequest {
  json?: boolean;
  /** `--message-file`: lines written to it while the run goes on are messages for the model. */
  messageFile?: string;
  /** `--step`: pause before every model call and tool call (headless: answered on stdin). */
  step?: boolean;
  /** `--add-tests`: test files of the developer's, collected before THM's proposal is approved. */
  addTests?: string[];
  /** `tenet fork`: the parent's history to start from. */
  fork?: ForkRequest;
}

/**
 * `--add-tests FILE...`, read now: a file inside the repository keeps its place (the developer
 * changed it), one from elsewhere goes beside the repository's tests.
 */
export function testFilesOf(options: { addTests?: string[]; repo: string }): GivenTestFile[] {
  const repo = realpathSync(resolve(options.repo));
  return (options.addTests ?? []).map((given) => {
    const file = resolve(given);
    if (!existsSync(file) || !statSync(file).isFile())
      throw new TenetError(
        `--add-tests ${given} is not a file.`,
        'pass the test files (Python modules of pytest tests) to add',
      );
    const rel = relative(repo, realpathSync(file));
    const inside = rel && !rel.startsWith('..') && !isAbsolute(rel);
    return {
      ...(inside ? { path: rel.split(sep).join('/') } : {}),
      name: basename(file),
      content: readFileSync(file, 'utf8'),
    };
  });
}

/** `--message-file F`, checked: the lines written to F from now on. */
export function messageFileOf(options: { messageFile?: string }): MessageFile | undefined {
  if (!options.messageFile) return undefined;
  const path = resolve(options.messageFile);
  if (existsSync(path) && statSync(path).isDirectory())
    throw new TenetError(
      `--message-file ${options.messageFile} is a folder.`,
      'pass a file (it need not exist yet): each line written to it goes to the model',
    );
  // The file need not exist yet, its folder must: a file there could never be written, and no message would ever come.
  if (!existsSync(dirname(path)) || !statSync(dirname(path)).isDirectory()) {
    throw new TenetError(
      `--message-file ${options.messageFile}: the folder ${dirname(path)} does not exist.`,
      'pass a file in a folder that exists (the file itself need not exist yet)',
    );
  }
  return new MessageFile(path);
}

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
  const messageFile = messageFileOf(options);
  const addTests = testFilesOf(options);
  // The engine (the provider SDKs, the parser, the schemas) is loaded after the TUI's first frame.
  const engine = async () => {
    const { prepareRun, runRecorded } = await import('../engine/run/prepare-run');
    (await import('../engine/index/parse-pool')).parseWithBaselineCodeOnlyIfSmall(options.repo);
    const prepared = await prepareRun(options);
    // A fork: the parent's answers and decisions first, then the live model and pilot.
    const pilot = options.fork
      ? (await import('../engine/run/fork')).prepareFork(prepared, options.fork)
      : (live: Pilot) => live;
    return { prepared, run: runRecorded, pilot };
  };
  if (options.tui) {
    const { runTui } = await importTui(() => import('../ui/run-tui'));
    return runTui(engine, {
      repo: options.repo,
      autoApproveCommands: options.approve === 'auto',
      resumeHint: (prepared) => resumeHint(prepared, !!options.sessionsDir),
      ...(options.resume?.events ? { history: options.resume.events } : {}),
      ...(messageFile ? { messageFile } : {}),
      step: !!options.step,
      addTests,
    });
  }
  const { prepared, run: runRecorded, pilot: pilotOf } = await engine();
  const hint = () => resumeHint(prepared, !!options.sessionsDir);
  // Interrupted (Ctrl+C, SIGTERM): the session is saved; say how to go on with it.
  let finishedRun = false;
  const unregister = onShutdown(() => {
    if (!finishedRun) process.stderr.write(`\n${hint()}`);
  });
  // With --json the events are the stream (stdout); the progress goes to stderr as JSON lines.
  const progress = progressLine(process.stderr, { json: !!options.json });
  const print = options.json ? undefined : textPrinter((text) => process.stdout.write(printable(text)));
  const sink = (event: EngineEvent) => {
    progress.onEvent(event);
    if (options.json) {
      const line = jsonStreamLine(event);
      if (line !== undefined) process.stdout.write(`${line}\n`);
      return;
    }
    // A line printed goes under a progress line taken off first (it comes back at the next tick).
    if (!PROGRESS_ONLY.has(event.type)) progress.erase();
    print?.(event);
  };
  const stepper = options.step
    ? lineStepper(process.stdin, (text) => process.stderr.write(printable(text)))
    : undefined;
  try {
    const result = await runRecorded(
      prepared,
      pilotOf(
        headlessPilot(options.apply ?? false, options.applyFailing ?? false, {
          ...(messageFile ? { messageFile } : {}),
          ...(stepper ? { stepper } : {}),
          addTests,
        }),
      ),
      sink,
    );
    finishedRun = true;
    // A failed run is exit 1 whether or not its patch went in; a passing one not applied is 4: with
    // --apply asked for and the patch refused (the target's file changed in the checkout since the
    // run started), a script must not take the run for done.
    if (!result.pass || stoppedByLimit(result)) return EXIT.fail;
    return (options.apply || options.applyFailing) && result.patch && !result.applied ? EXIT.notApplied : EXIT.pass;
  } finally {
    finishedRun = true;
    unregister();
    stepper?.close();
    progress.clear();
  }
}

/** Events the progress line says, and the printer does not (see run-printer.ts). */
const PROGRESS_ONLY = new Set<EngineEvent['type']>([
  'thm.phase',
  'thm.collected',
  'thm.collecting',
  'thm.running',
  'thm.test',
]);
