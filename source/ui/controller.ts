import type { EngineEvent, RunResult } from '../engine/events';
import { isFailure } from '../engine/phrase-book';
import type { AgentTests, Attachment, PatchExtras, Pilot } from '../engine/run/pilot';
import type { CommandDecision, PatchAnswer } from '../engine/protocol/decisions';
import type { ThmReport } from '../engine/protocol/thm-report';
import type { TranscriptEntry } from '../engine/protocol/debugger';
import { initialView, reduceView, type ViewState } from './view-state';
import { printableValue, showControls } from '../engine/terminal-text';

/** A decision the engine is waiting for, shown by the screen that owns it. */
export type Prompt =
  | { kind: 'approve-tests'; report: ThmReport; resolve(choice: { chosen: string[]; by: 'auto' | 'human'; T?: number | null }): void }
  | { kind: 'approve-command'; command: string; resolve(decision: CommandDecision): void }
  | { kind: 'cancelled-call'; resolve(choice: 'retry' | 'stop'): void }
  /** `true` accept, `false` reject; or say which (save keeps the patch in the session only; saveTo writes it to a file). */
  | { kind: 'accept-patch'; result: RunResult; agentTests?: AgentTests; resolve(choice: PatchAnswer): void };

export type Takeover = 'off' | 'requested' | 'active';

export interface UiState {
  view: ViewState;
  prompt?: Prompt;
  takeover: Takeover;
  /** A short message in the footer (e.g. "press Ctrl+C again to quit"). */
  notice?: string;
}

const FRAME_MS = 33; // at most ~30 frames a second


/**
 * Where a takeover with no session open starts pdb: a test that failed in the last run, a selected
 * one first, else one of the agent's own (TDD sessions select none); else the first selected test.
 */
export function takeoverTest(selected: readonly string[], lastRun: Readonly<Record<string, string>>): string | undefined {
  const failed = (id: string) => isFailure(lastRun[id]);
  return selected.find(failed) ?? Object.keys(lastRun).find(failed) ?? selected[0];
}

/**
 * The bridge between the engine and the screens: it folds events into the view, answers the
 * engine's Pilot questions by showing a prompt and waiting for keys, and runs the developer's
 * takeover of the debugger session (the agent waits before its next model call).
 */
export class TuiController implements Pilot {
  private state: UiState = { view: initialView(), takeover: 'off' };
  private readonly listeners = new Set<() => void>();
  private scheduled: NodeJS.Timeout | undefined;
  private attachment?: Attachment;
  private callController?: AbortController;
  private handBackWaiter?: () => void;
  private takeoverStart = 0;
  private alwaysAllow = false;
  /** Outcomes of the latest run of the selected or the agent's tests (not the final evaluation). */
  private lastRun: Record<string, string> = {};

  constructor(private readonly options: { autoApproveCommands: boolean; autoApproveTests?: boolean } = { autoApproveCommands: false }) {}

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
      // The tests' names and failures, the patch: shown without control sequences or secrets.
      this.update({ prompt: prompt.kind === 'approve-command' ? prompt : printableValue(prompt) }, true);
    });
  }

  // ---- Pilot -------------------------------------------------------------------------------

  approveTests(report: ThmReport): Promise<{ chosen: string[]; by: 'auto' | 'human'; T?: number | null }> {
    if (this.options.autoApproveTests) return Promise.resolve({ chosen: report.selected, by: 'auto' });
    return this.ask((resolve) => ({ kind: 'approve-tests', report, resolve }));
  }

  acceptPatch(result: RunResult, extras: PatchExtras = {}): Promise<PatchAnswer> {
    return this.ask((resolve) => ({ kind: 'accept-patch', result, ...(extras.agentTests ? { agentTests: extras.agentTests } : {}), resolve }));
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
      resolve: (decision) => resolve('run' in decision && decision.run && this.alwaysAllow ? { run: true, session: true } : decision),
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
    if (!this.callController || this.callController.signal.aborted || this.state.view.agent.phase === 'done') return false;
    this.callController.abort();
    return true;
  }

  afterCancelledCall(): Promise<'retry' | 'stop'> {
    return this.ask((resolve) => ({ kind: 'cancelled-call', resolve }));
  }

  async beforeModelCall(): Promise<string | undefined> {
    if (this.state.takeover !== 'requested') return undefined;
    this.update({ takeover: 'active' }, true);
    await new Promise<void>((resolve) => (this.handBackWaiter = resolve));
    return this.takeoverNote();
  }

  // ---- Takeover ----------------------------------------------------------------------------

  get canTakeOver(): boolean {
    return !!this.attachment && this.state.view.agent.phase !== null && this.state.view.agent.phase !== 'done' && this.state.view.agent.phase !== 'evaluate';
  }

  /** `t`: the agent pauses before its next model call and the debugger is the developer's. */
  requestTakeover(): void {
    if (!this.canTakeOver || this.state.takeover !== 'off') return;
    this.takeoverStart = this.attachment!.debugger.transcript.length;
    this.update({ takeover: 'requested' }, true);
    // With no session open, start one at a failing test, stopped in pdb.
    const session = this.attachment!.debugger;
    if (!session.running) {
      const test = takeoverTest(this.attachment!.selectedTests, this.lastRun);
      if (test) void session.run(`python -m pytest ${test} --trace -q -p no:cacheprovider`, 'human');
    }
  }

  /** A line the developer typed into the live session. */
  send(line: string): Promise<string> | undefined {
    if (this.state.takeover === 'off' || !this.attachment) return undefined;
    return this.attachment.debugger.run(line, 'human');
  }

  /** Ctrl+C in a takeover: SIGINT to what runs in the debugger session (pdb breaks in, a loop stops), not to tenet. */
  interruptDebugger(): void {
    if (this.state.takeover === 'active') this.attachment?.debugger.interrupt();
  }

  /** Esc (in a takeover): hand the session back; the agent gets what the developer did. */
  handBack(): void {
    if (this.state.takeover === 'off') return;
    const waiter = this.handBackWaiter;
    this.handBackWaiter = undefined;
    if (this.state.takeover === 'requested') {
      this.update({ takeover: 'off' }, true);
      return;
    }
    this.update({ takeover: 'off' }, true);
    waiter?.();
  }

  private takeoverNote(): string | undefined {
    const entries: TranscriptEntry[] = this.attachment?.debugger.transcript.slice(this.takeoverStart).filter((e) => e.who === 'human') ?? [];
    if (!entries.length) return undefined;
    const lines = entries.map((e) => `${e.mode === 'pdb' ? '(Pdb) ' : '$ '}${e.input}\n${e.output}`).join('\n');
    return `The developer took over the debugger session and ran these commands (with their output); the session is yours again:\n\n${lines}`;
  }
}
