import { writeFileSync } from 'node:fs';
import type { EngineEvent, RunResult } from '../engine/events';
import { isFailure } from '../engine/phrase-book';
import type { Attachment, PatchExtras, Pilot, PlanProposal } from '../engine/run/pilot';
import type { PlanDecision } from '../engine/protocol/plan';
import type { CommandDecision, DeveloperMessage, PatchAnswer, RequestPreview } from '../engine/protocol/decisions';
import type { ToolCall } from '../engine/protocol/messages';
import type { MessageFile } from '../engine/run/message-file';
import type { GivenTestFile, TestDesk } from '../engine/run/test-desk';
import type { Editor } from './editor';
import { editArguments } from './edit-arguments';
import type { ThmReport } from '../engine/protocol/thm-report';
import { handBackNote } from '../engine/tools/debugger/hand-back';
import type { Prompt, UiState } from './prompt';
import { TestDrafts, type WritingOutcome } from './test-drafts';
import { initialView, reduceView, restartCall } from './view-state';
import { printableValue, showControls } from '../engine/terminal-text';

/** How the engine learns the developer stopped the agent: the agent's part ends as a cancelled one does, with what it has. */
const stoppedByDeveloper = () => Object.assign(new Error('stopped by the developer'), { name: 'AbortError' });

export interface ControllerOptions {
  autoApproveCommands: boolean;
  autoApproveTests?: boolean;
  /** `--message-file`: its new lines go with the next model call, as in a headless run. */
  messageFile?: MessageFile;
  /** `--step`: start in step mode. */
  step?: boolean;
  /** The developer's editor (`e` on a step, `n` and `e` in the THM review). */
  editor?: Editor;
  /** `--add-tests`: files collected before the THM review opens. */
  addTests?: GivenTestFile[];
}

const FRAME_MS = 33; // at most ~30 frames a second

/**
 * Where a takeover with no session open starts pdb: a test that failed in the last run, a selected
 * one first, else one of the agent's own (TDD sessions select none); else the first selected test.
 */
export function takeoverTest(
  selected: readonly string[],
  lastRun: Readonly<Record<string, string>>,
): string | undefined {
  const failed = (id: string) => isFailure(lastRun[id]);
  return selected.find(failed) ?? Object.keys(lastRun).find(failed) ?? selected[0];
}

/**
 * The bridge between the engine and the screens: it folds events into the view, answers the
 * engine's Pilot questions by showing a prompt and waiting for keys, and runs the developer's
 * takeover of the debugger session (the agent waits before its next model call).
 */
export class TuiController implements Pilot {
  private state: UiState;
  private readonly listeners = new Set<() => void>();
  private scheduled: NodeJS.Timeout | undefined;
  private attachment?: Attachment;
  private callController?: AbortController;
  private handBackWaiter?: () => void;
  private takeoverStart = 0;
  /** What the developer did in a takeover at a step pause, for the model's next request. */
  private pausedNote: Promise<string | undefined> | undefined;
  private alwaysAllow = false;
  /** Outcomes of the latest run of the selected or the agent's tests (not the final evaluation). */
  private lastRun: Record<string, string> = {};
  /** The patch of the result being decided on, as the engine made it (the screen shows it redacted): what `s` writes. */
  private patchAsWritten: string | undefined;
  /** The developer's messages for the next model call. */
  private queued: DeveloperMessage[] = [];
  /** The developer's test files written in the THM review, with their text of those that did not compile. */
  private readonly drafts: TestDrafts;
  /** `x`: the developer stopped the agent; it ends before its next model call. */
  private stopping = false;

  constructor(private readonly options: ControllerOptions = { autoApproveCommands: false }) {
    this.state = { view: initialView(), takeover: 'off', queued: 0, step: !!options.step };
    this.drafts = new TestDrafts(options.editor);
  }

  getState = (): UiState => this.state;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  private update(patch: Partial<UiState>, now = false): void {
    this.state = { ...this.state, ...patch };
    if (now) {
      if (this.scheduled) clearTimeout(this.scheduled);
      this.scheduled = undefined;
      for (const listener of this.listeners) listener();
      return;
    }
    // Streaming deltas come in bursts: repaint at most once a frame.
    this.scheduled ??= setTimeout(() => {
      this.scheduled = undefined;
      for (const listener of this.listeners) listener();
    }, FRAME_MS);
  }

  dispatch = (event: EngineEvent): void => {
    if (event.type === 'tests.run' && event.purpose !== 'evaluate') this.lastRun = event.outcomes;
    this.update({ view: reduceView(this.state.view, event) }, event.type === 'result' || event.type === 'thm.report');
  };

  setNotice(notice: string | undefined): void {
    this.update({ notice }, true);
  }

  private ask<T>(build: (resolve: (value: T) => void) => Prompt): Promise<T> {
    return new Promise<T>((resolve) => {
      const prompt = build((value) => {
        this.update({ prompt: undefined }, true);
        resolve(value);
      });
      // The tests' names and failures, the patch: shown without control sequences or secrets. The
      // review's desk is the engine's object (its methods must stay), not text to show.
      const shown = prompt.kind === 'approve-command' ? prompt : printableValue(prompt);
      if (prompt.kind === 'approve-tests' && prompt.desk && shown.kind === 'approve-tests') shown.desk = prompt.desk;
      this.update({ prompt: shown }, true);
    });
  }

  // ---- Pilot -------------------------------------------------------------------------------

  approveTests(
    report: ThmReport,
    desk?: TestDesk,
  ): Promise<{ chosen: string[]; by: 'auto' | 'human'; T?: number | null }> {
    if (this.options.autoApproveTests) return Promise.resolve({ chosen: report.selected, by: 'auto' });
    return this.ask((resolve) => ({ kind: 'approve-tests', report, ...(desk ? { desk } : {}), resolve }));
  }

  /** The plan screen (before the first THM); where THM's tests are approved without asking, the plan is too. */
  approvePlan(proposal: PlanProposal): Promise<PlanDecision> {
    if (this.options.autoApproveTests) return Promise.resolve({ order: proposal.order, skipped: [], by: 'auto' });
    return this.ask((resolve) => ({ kind: 'approve-plan', proposal, resolve }));
  }

  async addTests(desk: TestDesk): Promise<void> {
    if (this.options.addTests?.length) await desk.addGiven(this.options.addTests);
  }

  // ---- The developer's tests (THM review) --------------------------------------------------

  /** `n`: a new test file beside the repository's tests, opened in the developer's editor, then run the way THM runs the suite. */
  newTest(desk: TestDesk): Promise<WritingOutcome> {
    const { path, template } = desk.newFile();
    return this.drafts.write(desk, path, template);
  }

  /** `e`: the file of a test, in the developer's editor; its tests they changed or added are run as THM runs the suite. */
  editTest(desk: TestDesk, nodeid: string): Promise<WritingOutcome> {
    return this.drafts.write(desk, nodeid.split('::')[0]!);
  }

  acceptPatch(result: RunResult, extras: PatchExtras = {}): Promise<PatchAnswer> {
    this.patchAsWritten = result.patch;
    return this.ask((resolve) => ({
      kind: 'accept-patch',
      result,
      ...(extras.agentTests ? { agentTests: extras.agentTests } : {}),
      resolve,
    }));
  }

  /**
   * `s` on the result screen: the patch written to `file` (for `git apply`); what went wrong, if
   * anything. The screen shows the patch made printable (secrets redacted); the file gets it as the
   * engine made it, the developer's code.
   */
  savePatch(file: string, shown: string): string | undefined {
    try {
      writeFileSync(file, this.patchAsWritten ?? shown);
      return undefined;
    } catch (error) {
      return (error as Error).message;
    }
  }

  attach(attachment: Attachment): void {
    this.attachment = attachment;
  }

  approveCommand(command: string): Promise<CommandDecision> {
    if (this.options.autoApproveCommands || this.alwaysAllow) return Promise.resolve({ run: true, auto: true });
    return this.ask<CommandDecision>((resolve) => ({
      kind: 'approve-command',
      // Control characters shown, not hidden: what the developer approves is what runs.
      command: showControls(command),
      // `a` allows every later command before it answers: the session records that choice.
      resolve: (decision) =>
        resolve('run' in decision && decision.run && this.alwaysAllow ? { run: true, session: true } : decision),
    }));
  }

  /** `a` on a command prompt: allow every shell command for the rest of the session. */
  allowAlways(): void {
    this.alwaysAllow = true;
  }

  callSignal(): AbortSignal {
    this.callController = new AbortController();
    return this.callController.signal;
  }

  /** Esc: cancel the model call in flight (the agent then asks whether to make it again). */
  cancelCall(): boolean {
    if (!this.callController || this.callController.signal.aborted || this.state.view.agent.phase === 'done')
      return false;
    this.callController.abort();
    return true;
  }

  /** Whether `x` can stop the agent: it is at work (not evaluated yet), and not already stopping. */
  get canStop(): boolean {
    return this.canMessage && !this.stopping;
  }

  /**
   * `x` then `y`: stop the agent and evaluate what it has, whatever it is doing. A model call in
   * flight is cancelled at once; a step pause is let go; a tool call under way ends first. The
   * agent then stops before its next model call (no step pause holds it any more).
   */
  stopAgent(): void {
    if (!this.canStop) return;
    this.stopping = true;
    const prompt = this.state.prompt;
    if (prompt?.kind === 'step-model') prompt.resolve();
    else if (prompt?.kind === 'step-tool') prompt.resolve(prompt.edited);
    const inFlight = !!this.state.view.agent.call && !!this.callController && !this.callController.signal.aborted;
    // Short enough for the footer's one row: what still happens before the evaluation.
    this.setNotice(
      inFlight
        ? 'Stopping the agent: its model call is cancelled; the evaluation runs on what it submitted.'
        : prompt?.kind === 'step-tool'
          ? `Stopping the agent once ${prompt.call.name} (where it paused) has run; then the evaluation.`
          : 'Stopping the agent before its next model call (a tool call under way ends first).',
    );
    if (inFlight) this.callController!.abort();
  }

  async afterCancelledCall(): Promise<'retry' | 'stop'> {
    // Cancelled by `x`: the developer already said to stop.
    if (this.stopping) return 'stop';
    const choice = await this.ask<'retry' | 'stop'>((resolve) => ({ kind: 'cancelled-call', resolve }));
    // The call made again streams from the start: the screen starts it fresh.
    if (choice === 'retry') this.update({ view: restartCall(this.state.view) }, true);
    return choice;
  }

  async beforeModelCall(): Promise<string | undefined> {
    if (this.stopping) throw stoppedByDeveloper();
    // A takeover at a step pause: its note goes with this call (the engine asks again after a model call's pause).
    const paused = this.takePausedNote();
    const note = paused && (await paused);
    if (note || this.state.takeover !== 'requested') return note;
    this.update({ takeover: 'active' }, true);
    await new Promise<void>((resolve) => (this.handBackWaiter = resolve));
    return this.takeoverNote();
  }

  stepping(): boolean {
    return this.state.step;
  }

  /** Step mode holds the call until the developer goes on; then the messages written since the last call (`m`, and `--message-file`'s lines) go with it. */
  async beforeRequest(preview: RequestPreview): Promise<DeveloperMessage[]> {
    if (this.state.step && !this.stopping)
      await this.ask<void>((resolve) => ({ kind: 'step-model', preview, resolve: () => resolve() }));
    const taken = [
      ...this.queued,
      ...(this.options.messageFile?.take() ?? []).map((text) => ({ text, via: 'file' as const })),
    ];
    this.queued = [];
    if (taken.length) this.update({ queued: 0 }, true);
    return taken;
  }

  /** Step mode holds the call; the developer's arguments when they edited them. */
  beforeToolCall(call: ToolCall): Promise<string | undefined> {
    if (!this.state.step || this.stopping) return Promise.resolve(undefined);
    return this.ask<string | undefined>((resolve) => ({ kind: 'step-tool', call, resolve }));
  }

  // ---- Step mode ---------------------------------------------------------------------------

  /**
   * What quitting now loses without a word otherwise: an edit of the paused call's arguments is
   * recorded (tool.edit) when the call runs, so a session quit at the pause resumes there with the
   * model's arguments. Undefined when nothing is lost.
   */
  unsavedEdit(): string | undefined {
    const prompt = this.state.prompt;
    if (prompt?.kind !== 'step-tool' || prompt.edited === undefined) return undefined;
    return `your edit of ${prompt.call.name}'s arguments (an edit is saved when its call runs); resumed, the session pauses there with the model's arguments`;
  }

  /** `e` at a tool call's pause: the arguments it runs with on Enter (undefined: the model's). */
  setStepArguments(edited: string | undefined): void {
    const prompt = this.state.prompt;
    if (prompt?.kind !== 'step-tool') return;
    this.update({ prompt: { ...prompt, edited } }, true);
  }

  /** `s`: step mode on or off; turned off at a pause, the agent goes on at once. */
  toggleStep(): void {
    const step = !this.state.step;
    const prompt = this.state.prompt;
    this.update({ step }, true);
    // Leaving step mode at a tool call runs it as the pause would have: with the developer's arguments when they edited them.
    if (!step && prompt?.kind === 'step-model') prompt.resolve();
    if (!step && prompt?.kind === 'step-tool') prompt.resolve(prompt.edited);
  }

  /**
   * `e` at a tool call: its arguments in the developer's editor (pretty JSON). The arguments to run
   * it with (compact JSON), or why not: they are not JSON, or the editor failed.
   */
  editArguments(args: string): Promise<{ args: string } | { problem: string }> {
    return editArguments(this.options.editor, args);
  }

  // ---- Messages ----------------------------------------------------------------------------

  /** Whether a message can still reach the model: the agent is at work (not evaluated yet). */
  get canMessage(): boolean {
    const phase = this.state.view.agent.phase;
    return phase !== null && phase !== 'done' && phase !== 'evaluate' && phase !== 'quality';
  }

  /** The agent's part is over: the messages still queued were never read (the engine says so and records it). */
  unreadMessages(): DeveloperMessage[] {
    // `--message-file` lines written since the last request too, as headless mode says them.
    const unread = [
      ...this.queued,
      ...(this.options.messageFile?.take() ?? []).map((text) => ({ text, via: 'file' as const })),
    ];
    this.queued = [];
    if (unread.length) this.update({ queued: 0 }, true);
    return unread;
  }

  /** `m`: a message for the model; it goes with the next request (after the call in flight, if one is). */
  queueMessage(text: string): void {
    if (!text.trim() || !this.canMessage) return;
    this.queued.push({ text: text.trim(), via: 'tui' });
    this.update({ queued: this.queued.length }, true);
  }

  // ---- Takeover ----------------------------------------------------------------------------

  get canTakeOver(): boolean {
    return (
      !!this.attachment &&
      this.state.view.agent.phase !== null &&
      this.state.view.agent.phase !== 'done' &&
      this.state.view.agent.phase !== 'evaluate'
    );
  }

  /**
   * `t`: the agent pauses before its next model call and the debugger is the developer's. At a
   * step pause the agent already waits: the debugger is theirs at once.
   */
  requestTakeover(): void {
    if (!this.canTakeOver || this.state.takeover !== 'off') return;
    // A second takeover at the same step pause: its note (taken at hand-back) says what both ran.
    if (!this.pausedNote) this.takeoverStart = this.attachment!.debugger.transcript.length;
    const kind = this.state.prompt?.kind;
    this.update({ takeover: kind === 'step-model' || kind === 'step-tool' ? 'active' : 'requested' }, true);
    // With no session open, start one at a failing test, stopped in pdb.
    const session = this.attachment!.debugger;
    if (!session.running) {
      const test = takeoverTest(this.attachment!.selectedTests, this.lastRun);
      if (test) void session.run(`python -m pytest ${test} --trace -q -p no:cacheprovider`, 'tenet');
    }
  }

  /** A line the developer typed into the live session. */
  send(line: string): Promise<string> | undefined {
    if (this.state.takeover === 'off' || !this.attachment) return undefined;
    return this.attachment.debugger.run(line, 'human');
  }

  /** Ctrl+C in a takeover (or handed back while the developer's command runs): SIGINT to what runs in the debugger session (pdb breaks in, a loop stops), not to tenet. */
  interruptDebugger(): void {
    if (this.state.takeover === 'active' || this.state.takeover === 'returning') this.attachment?.debugger.interrupt();
  }

  /** Esc (in a takeover): hand the session back; the agent gets what the developer did. */
  handBack(): void {
    if (this.state.takeover === 'off' || this.state.takeover === 'returning') return;
    const waiter = this.handBackWaiter;
    this.handBackWaiter = undefined;
    if (this.state.takeover === 'requested') {
      this.update({ takeover: 'off' }, true);
      return;
    }
    // A command of the developer's still runs: the agent gets the session (and its note) when it
    // ends, and the screen says so meanwhile, Ctrl+C still going to the command.
    const session = this.attachment?.debugger;
    if (session?.busy) {
      this.update({ takeover: 'returning' }, true);
      void session.idle().then(() => this.state.takeover === 'returning' && this.update({ takeover: 'off' }, true));
    } else this.update({ takeover: 'off' }, true);
    if (waiter) waiter();
    // Taken at a step pause: no model call waits for the note; the next request takes it.
    else this.pausedNote = this.takeoverNote();
  }

  private takePausedNote(): Promise<string | undefined> | undefined {
    const note = this.pausedNote;
    this.pausedNote = undefined;
    return note;
  }

  /** What the agent reads of the takeover, once what was sent in it has answered: what ran, and where the session stands. */
  private async takeoverNote(): Promise<string | undefined> {
    const session = this.attachment?.debugger;
    if (!session) return undefined;
    await session.idle();
    return handBackNote(session, this.takeoverStart);
  }
}
