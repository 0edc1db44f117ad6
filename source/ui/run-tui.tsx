import { render } from 'ink';
import { loadPythonHighlighting } from './components/python-highlight';
import { TenetError } from '../engine/errors';
import { EXIT } from '../engine/exit-codes';
import type { EngineEvent, RunResult } from '../engine/events';
import { runCleanups } from '../engine/lifecycle';
import { verdictWord } from '../engine/phrase-book';
import { printable } from '../engine/terminal-text';
import type { PreparedRun, runRecorded } from '../engine/run/prepare-run';
import { stoppedByLimit } from '../engine/model/spend-limits';
import type { MessageFile } from '../engine/run/message-file';
import type { Pilot } from '../engine/run/pilot';
import type { GivenTestFile } from '../engine/run/test-desk';
import { startBracketedPaste } from './bracketed-paste';
import { TuiController } from './controller';
import { terminalEditor } from './editor';
import { LiveApp } from './live-app';
import { decisionText } from './screens/result-screen';

/** The run, once the engine is loaded and the session prepared: what runTui awaits after its first frame. */
export interface LoadedRun {
  prepared: PreparedRun;
  run: typeof runRecorded;
  /** The pilot the engine gets, around the controller (a fork takes the parent's decisions first). */
  pilot(controller: Pilot): Pilot;
}

export interface RunTuiOptions {
  /** The repository (for `v`, a test's source), known before the run is prepared. */
  repo: string;
  autoApproveCommands: boolean;
  /** What Ctrl+C prints when it quits: how to go on with the session. */
  resumeHint(prepared: PreparedRun): string;
  /** A resumed session: its log so far, which the screens start from (THM, the approval, the agent so far). */
  history?: readonly EngineEvent[];
  /** `--message-file`: its new lines go with the next model call. */
  messageFile?: MessageFile;
  /** `--step`: start in step mode. */
  step?: boolean;
  /** `--add-tests`: files collected before the THM review opens. */
  addTests?: GivenTestFile[];
}

/**
 * A live session in the terminal. The engine runs as in headless mode; the TuiController is its
 * pilot (the developer approves tests, shell commands and the patch, and may take over the
 * debugger) and folds its events into what the screens show. The first frame is drawn before
 * `load` brings in the engine and prepares the session (a second or more): the screen is up at once.
 */
export async function runTui(load: () => Promise<LoadedRun>, options: RunTuiOptions): Promise<number> {
  // The developer's editor gets the terminal and gives it back to this app (see terminal-handoff.ts).
  const editor = terminalEditor({ stdin: process.stdin, stdout: process.stdout });
  const controller = new TuiController({
    autoApproveCommands: options.autoApproveCommands,
    step: !!options.step,
    editor,
    ...(options.messageFile ? { messageFile: options.messageFile } : {}),
    ...(options.addTests?.length ? { addTests: options.addTests } : {}),
  });
  for (const event of options.history ?? []) controller.dispatch(event);
  let prepared: PreparedRun | undefined;
  // The parser behind a test's source is loaded when `v` first asks for one.
  const sourceOf = async (nodeid: string) =>
    (await import('../engine/python-source/test-source')).testSource(prepared?.options.repo ?? options.repo, nodeid);
  // A scripted model must never pass for a real one.
  // The script's label is the script author's text: printable, as every untrusted text on screen.
  const bannerOf = (run: PreparedRun | undefined) =>
    run?.model.settings.provider === 'scripted' ? `⚠ ${printable(run.model.model.label)}` : undefined;
  let finished = false;
  const quit = () => {
    const lost = controller.unsavedEdit();
    app.unmount();
    runCleanups(); // records the interruption (or, at the patch decision, the result), removes the workspace, stops pytest
    if (!prepared) process.exit(EXIT.interrupted); // nothing was started yet
    const over = prepared.recorder.over;
    if (!over) {
      process.stdout.write(`\n${lost ? `Not saved: ${lost}.\n` : ''}${options.resumeHint(prepared)}`);
      process.exit(EXIT.interrupted);
    }
    // Quit at the result screen: the run was over, only the patch was not decided (so not applied).
    process.stdout.write(`\n${endLine(over, 'patch not applied', prepared.recorder.root)}`);
    process.exit(over.pass && !stoppedByLimit(over) ? EXIT.pass : EXIT.fail);
  };
  const element = () => {
    const banner = bannerOf(prepared);
    return (
      <LiveApp
        controller={controller}
        finished={finished}
        onQuit={quit}
        sourceOf={sourceOf}
        {...(prepared ? { sessionsDir: prepared.recorder.root } : {})}
        {...(banner ? { banner } : {})}
      />
    );
  };
  // Ready long before the first code is shown (THM runs first); the first frame does not wait for it.
  void loadPythonHighlighting();
  const app = render(element(), { exitOnCtrlC: false });
  const stopPaste = startBracketedPaste(process.stdout);
  try {
    const loaded = await load();
    prepared = loaded.prepared;
    app.rerender(element());
    const result = await loaded.run(prepared, loaded.pilot(controller), (event: EngineEvent) =>
      controller.dispatch(event),
    );
    finished = true;
    app.rerender(element());
    await app.waitUntilExit();
    // On a line of its own under the last frame, with what became of the patch.
    const decision = controller.getState().view.patch;
    process.stdout.write(
      `\n${endLine(result, decision ? decisionText(decision, result.sessionId) : undefined, prepared.recorder.root)}`,
    );
    return result.pass && !stoppedByLimit(result) ? EXIT.pass : EXIT.fail;
  } catch (error) {
    app.unmount();
    throw error instanceof Error ? error : new TenetError(String(error));
  } finally {
    stopPaste();
  }
}

/** The line under the last frame: the verdict, what became of the patch, where the session is. */
function endLine(result: RunResult, patch: string | undefined, root: string): string {
  // `tenet show` named once: a patch that was not applied already says it prints it.
  const show = patch?.includes(`tenet show ${result.sessionId}`) ? '' : ` (tenet show ${result.sessionId})`;
  return `${verdictWord(result)}${patch ? ` · ${patch}` : ''} · session ${result.sessionId} saved in ${root}${show}\n`;
}
