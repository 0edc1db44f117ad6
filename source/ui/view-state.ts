import {
  handleEvent,
  type AgentPhase,
  type EngineEvent,
  type EventHandlers,
  type RrwStage,
  type RunResult,
} from '../engine/events';
import { addCall, noUsage, type UsageSums } from '../engine/model/usage-sums';
import {
  capitalized,
  forkWords,
  isFailure,
  resumedWords,
  limitWords,
  MESSAGE_SOURCES,
  phaseHeading,
} from '../engine/phrase-book';
import { mergeDeveloperTests } from '../engine/thm/developer-tests';
import { proposeFor } from '../engine/thm/propose';
import { asPlaced, functionName, startingFunctionIn, withoutDecorators } from '../engine/session/page-diffs';
import { diffText } from './components/code-arguments';
import { expandTabs } from './components/line-editor';
import { condensedWords } from '../engine/agent/context-words';
import { instructionsWords } from '../engine/task/project-instructions';
import type { SpendLimits } from '../engine/protocol/settings';
import { DEVELOPER_INTERRUPT, type Writer } from '../engine/protocol/debugger';
import type { ThmReport } from '../engine/protocol/thm-report';
import { printableValue } from '../engine/terminal-text';
import { sandboxWords } from '../engine/sandbox/sandbox-spec';

/**
 * What the screens show, folded from engine events by a pure reducer: the same function serves a
 * live session and a replay, and tests call it without rendering anything.
 */
export type TranscriptItem =
  | { id: number; kind: 'model'; text: string; tokensIn: number; tokensOut: number; costUsd: number }
  /** `edited`: the developer changed the model's arguments (`original`) before it ran with `args`. */
  | {
      id: number;
      kind: 'tool';
      callId: string;
      name: string;
      args: string;
      result?: { ok: boolean; text: string; durationMs: number };
      edited?: { original: string };
    }
  | {
      id: number;
      kind: 'tests';
      purpose: 'validate' | 'evaluate' | 'agent';
      outcomes: Record<string, string>;
      passed: number;
      total: number;
    }
  /**
   * A submission of the code (every strategy) or of the agent's tests (TDD), as a line diff against
   * what it replaced: the code's first against the function as the agent got it (the stub, or the
   * blanked body), each later one against the one before. `diff`: every line, prefixed `+`, `-` or
   * a space (`@@` lines between hunks of long code); `iteration`: the TDD test run it came in.
   */
  | {
      id: number;
      kind: 'revision';
      side: 'tests' | 'code';
      number: number;
      against: string;
      ok: boolean;
      iteration?: number;
      diff: string;
      added: number;
      removed: number;
    }
  | { id: number; kind: 'phase'; text: string }
  | { id: number; kind: 'note'; text: string; tone: 'info' | 'warning' | 'human' };

export interface TddView {
  setupRounds: number;
  iteration: number;
  iterations: number;
  testFile?: { path: string; code: string; versions: number };
  /** The agent's tests' latest outcomes (its own run_tests). */
  outcomes: Record<string, string>;
  /** Which side each revision touched, by iteration (0: the tests written first). */
  revisions: { iteration: number; side: 'tests' | 'code' }[];
}

/** What was done with the patch (the patch.decision event). */
export interface PatchDecision {
  decision: 'accept' | 'reject' | 'save';
  applied: boolean;
  reason?: string;
  /** Where a saved patch was written. */
  file?: string;
}

export interface DebuggerLine {
  /** Who typed the line (tenet: the pdb it starts for a takeover), or the program's output. */
  who: Writer | 'output';
  text: string;
  /** Output whose line the program has not ended yet: the next chunk goes on with it. */
  open?: true;
}

export interface ViewState {
  /** `limits`: what the session may spend on its model (the footer shows what is left). */
  session?: {
    id: string;
    target: string;
    mode: 'stub' | 'blank';
    strategy: string;
    modelLabel: string;
    provider: string;
    repo: string;
    limits?: SpendLimits /** Which sandbox ran, in words (`local (bubblewrap)`). */;
    sandbox: string;
  };
  thm: {
    phase: 'probe' | 'original' | 'blank' | null;
    total: number;
    done: number;
    failing: number;
    /** When the run began (recorded time in a replay). */
    startedAt: number;
    /** While pytest collects: test modules imported and tests found so far. */
    collecting?: { files: number; tests: number };
    /** The last tests of the pass still running, and since when: what a full bar waits for. */
    running: { nodeid: string; since: number }[];
    report?: ThmReport;
    approval?: { proposed: string[]; chosen: string[]; by: string };
    /** The developer's tests so far: those that count (they are in `report`), and those kept out, with why. */
    developer?: { accepted: string[]; rejected: { nodeid: string; reason: string }[] };
  };
  agent: {
    phase: AgentPhase | null;
    /** When the current phase began: the quality phase has no events of its own to show it moving. */
    phaseAt: number;
    pregenRounds: number;
    round: number;
    attempt: number;
    attempts: number;
    stage: RrwStage | null;
    /** Model text streaming in now. */
    live: string;
    items: TranscriptItem[];
    /** The selected tests' latest outcomes (validation). */
    tests: Record<string, string>;
    /** The model call in flight: when it began, and how much it has streamed (text and tool arguments, in characters). */
    call?: { since: number; chars: number };
    /** Tool calls of the answer streaming in, by their place in it: the code grows on screen as it is written. */
    streaming: { index: number; name: string; args: string }[];
    /** A failed attempt of the call: why, which retry comes, and when. */
    retry?: { reason: string; attempt: number; of: number; at: number };
    /** TDD strategies: the agent's test file, its latest outcomes, and what each iteration revised. */
    tdd?: TddView;
    /** The function as the agent got it (from the task prompt), and its latest accepted submission, with how many there were. */
    starting?: string;
    code?: string;
    submissions: number;
    /** The latest request's size against the model's context window (the footer's `ctx 61%`), when tenet knows the window. */
    context?: { tokens: number; window: number };
  };
  totals: UsageSums & { modelCalls: number; toolCalls: number };
  /** `running`: the command sent last, and since when, until its prompt comes back (a `sleep(60)` is not idle). */
  debugger: { lines: DebuggerLine[]; mode: 'shell' | 'pdb' | null; running?: { input: string; since: number } };
  result?: RunResult;
  /** The evaluation's report: how each failing test failed (the result screen shows it on Enter). */
  evaluation?: { report: string };
  /** Where the agent's tests were written in the checkout, when the developer kept them. */
  keptTests?: string;
  patch?: PatchDecision;
  warnings: string[];
  /** A fork: how many of its model answers were its parent's, and the model that answers after them. */
  fork?: { recorded: number; live: string };
  /**
   * The session's running time over its parts (a resumed session has several; the time it lay
   * stopped between them does not count): the finished parts' total, when the current part began,
   * how many parts, and the last event's time. The result's wallMs is the last part's alone.
   */
  clock: { done: number; partStart: number; parts: number; last: number };
  /** Sequence of the last event applied (replay positions). */
  applied: number;
  /** When the last event applied happened: a replay's clock is the recording's, not the wall's. */
  at: number;
}

export const initialView = (): ViewState => ({
  thm: { phase: null, total: 0, done: 0, failing: 0, startedAt: 0, running: [] },
  agent: {
    phase: null,
    phaseAt: 0,
    pregenRounds: 0,
    round: 0,
    attempt: 0,
    attempts: 0,
    stage: null,
    live: '',
    items: [],
    tests: {},
    streaming: [],
    submissions: 0,
  },
  totals: { ...noUsage(), modelCalls: 0, toolCalls: 0 },
  debugger: { lines: [], mode: null },
  warnings: [],
  clock: { done: 0, partStart: 0, parts: 0, last: 0 },
  applied: 0,
  at: 0,
});

/** The session's running time at the last event: its finished parts and the current one. */
export const sessionWallMs = (view: ViewState): number => view.clock.done + (view.clock.last - view.clock.partStart);

const DEBUGGER_LINES = 400;
const PDB_PROMPT = '(Pdb) ';
/** The pane's line where a resumed session's debugger starts: the lines above were the stopped session's. */
export const RESUMED_DEBUGGER = '── the session was resumed: the debugger session above is gone; a new one starts ──';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

function push(state: ViewState, item: WithoutId<TranscriptItem>): void {
  state.agent.items = [...state.agent.items, { ...item, id: state.agent.items.length + 1 } as TranscriptItem];
}

/**
 * An item about the call under way (the developer's answer to its command) goes before it: the
 * live screen prints every item but the last for good (Ink's <Static>), so the call must stay
 * last until its result comes, or its output never reaches the transcript.
 */
function pushBeforeOpenCall(state: ViewState, item: WithoutId<TranscriptItem>): void {
  const last = state.agent.items.at(-1);
  push(state, item);
  if (last?.kind !== 'tool' || last.result) return;
  const items = state.agent.items;
  state.agent.items = [...items.slice(0, -2), items.at(-1)!, last];
}

function debuggerText(state: ViewState, lines: DebuggerLine[]): void {
  state.debugger = { ...state.debugger, lines: [...state.debugger.lines, ...lines].slice(-DEBUGGER_LINES) };
}

/**
 * The program's output as lines, whatever its chunks: a pipe gives what the program wrote when it
 * wrote it, and an unbuffered Python writes a print's text and its newline apart, so a chunk may
 * end mid-line or be a newline alone. Each chunk goes on with the line the last one left open.
 */
function debuggerOutput(state: ViewState, chunk: string): void {
  const lines = state.debugger.lines;
  const last = lines.at(-1);
  const goesOn = last?.who === 'output' && last.open;
  const parts = chunk.replace(/\r/g, '').split('\n');
  parts[0] = (goesOn ? last.text : '') + parts[0];
  const ended = parts.at(-1) === '';
  if (ended) parts.pop();
  // Tabs as spaces: the pane counts columns, and pdb's `l` output is full of them.
  const added: DebuggerLine[] = parts.map((text, i) => ({
    who: 'output',
    text: expandTabs(text),
    ...(!ended && i === parts.length - 1 ? { open: true as const } : {}),
  }));
  state.debugger = {
    ...state.debugger,
    lines: [...(goesOn ? lines.slice(0, -1) : lines), ...added].slice(-DEBUGGER_LINES),
  };
}

/** A submission of the code or of the agent's tests becomes a revision item; TDD notes which side its iteration touched. */
function revise(
  state: ViewState,
  side: 'tests' | 'code',
  before: string,
  after: string,
  about: { number: number; against: string; ok: boolean },
): void {
  const tdd = state.agent.tdd;
  if (tdd && about.ok) state.agent.tdd = { ...tdd, revisions: [...tdd.revisions, { iteration: tdd.iteration, side }] };
  push(state, {
    kind: 'revision',
    side,
    ...about,
    ...(tdd ? { iteration: tdd.iteration } : {}),
    ...diffText(before, after),
  });
}

/** The session's clock after an event at time `t` (its recorded time, a resumed session's history included). */
function tick(clock: ViewState['clock'], event: EngineEvent, t: number): ViewState['clock'] {
  if (event.type === 'session.start') return { done: 0, partStart: t, parts: 1, last: t };
  if (event.type === 'session.resumed')
    return { done: clock.done + (clock.last - clock.partStart), partStart: t, parts: clock.parts + 1, last: t };
  return { ...clock, last: Math.max(clock.last, t) };
}

/** THM's proposal for a budget T, as the engine computes it. */
export const propose = proposeFor;

/** What each event does to the view (mutating `state`, the copy reduceView made): every event type decides. */
const VIEW_HANDLERS: EventHandlers<[state: ViewState, now: number]> = {
  'session.start': (event, state) => {
    state.session = {
      id: event.sessionId,
      target: event.target,
      mode: event.mode,
      strategy: event.strategy,
      modelLabel: event.modelLabel,
      provider: event.provider,
      repo: event.repo,
      sandbox: sandboxWords(event.config.sandbox),
      ...(event.config.limits ? { limits: event.config.limits } : {}),
    };
    // Said at the start, as the headless run says it: what of the repository's own the model reads.
    if (typeof event.config.instructions === 'object')
      push(state, {
        kind: 'note',
        text: `Instructions: ${instructionsWords(event.config.instructions)} (the repository's, in the system prompt)`,
        tone: 'info',
      });
  },
  'thm.start': (_event, state, now) => {
    state.thm = { ...state.thm, startedAt: now };
  },
  'thm.phase': (event, state, now) => {
    state.thm = {
      ...state.thm,
      phase: event.phase,
      done: 0,
      failing: 0,
      total: event.tests ?? state.thm.total,
      startedAt: state.thm.startedAt || now,
      running: [],
    };
    delete state.thm.collecting;
  },
  'thm.collecting': (event, state) => {
    state.thm.collecting = { files: event.files, tests: event.tests };
  },
  'thm.collected': (event, state) => {
    if (event.phase === 'probe') state.thm.total = event.total;
    delete state.thm.collecting;
  },
  'thm.running': (event, state) => {
    state.thm.running = event.tests;
  },
  'thm.test': (event, state) => {
    state.thm.done++;
    if (isFailure(event.outcome)) state.thm.failing++;
  },
  'thm.report': (event, state) => {
    state.thm.report = event.report;
  },
  'tests.added': (event, state) => {
    if (state.thm.report) state.thm.report = mergeDeveloperTests(state.thm.report, event);
    const before = state.thm.developer ?? { accepted: [], rejected: [] };
    const accepted = [
      ...before.accepted.filter((id) => !event.removed.includes(id) && !event.accepted.some((t) => t.nodeid === id)),
      ...event.accepted.map((t) => t.nodeid),
    ];
    state.thm.developer = {
      accepted,
      rejected: [
        ...before.rejected.filter((r) => !event.accepted.some((t) => t.nodeid === r.nodeid)),
        ...event.rejected,
      ],
    };
    const kept = event.rejected.map((r) => `${r.nodeid} (${r.reason})`);
    push(state, {
      kind: 'note',
      text: `You wrote tests: ${event.accepted.length ? `${event.accepted.map((t) => t.nodeid).join(', ')} joined` : 'none joined'}${kept.length ? `; kept out: ${kept.join('; ')}` : ''}`,
      tone: 'human',
    });
  },
  'thm.approval': (event, state) => {
    // Against THM's proposal for the T the developer settled on: a new T alone is no override.
    const report = state.thm.report;
    const proposed = report && event.T !== null && event.T !== report.T ? propose(report, event.T) : event.proposed;
    state.thm.approval = { proposed, chosen: event.chosen, by: event.by };
    if (event.by === 'human' && event.chosen.join() !== proposed.join())
      push(state, {
        kind: 'note',
        text: `You chose the tests: ${event.chosen.join(', ')} (proposed${event.T !== null ? ` for T=${event.T}` : ''}: ${proposed.join(', ')})`,
        tone: 'human',
      });
  },
  'agent.phase': (event, state, now) => {
    // A new phase: no call of the previous one is still running (a cancelled call that stopped the agent).
    state.agent.call = undefined;
    state.agent.retry = undefined;
    state.agent.phase = event.phase;
    state.agent.phaseAt = now;
    if (event.phase === 'pregen') {
      state.agent.pregenRounds = event.rounds ?? state.agent.pregenRounds;
    } else if (event.phase === 'rrw') {
      state.agent.attempt = event.attempt ?? state.agent.attempt;
      state.agent.attempts = event.attempts ?? state.agent.attempts;
      state.agent.stage = event.stage ?? null;
    } else if (event.phase === 'tdd-setup') {
      state.agent.tdd = {
        setupRounds: event.rounds ?? 0,
        iteration: 0,
        iterations: 0,
        outcomes: {},
        revisions: [],
        ...state.agent.tdd,
      };
    } else if (event.phase === 'tdd') {
      const tdd = state.agent.tdd ?? { setupRounds: 0, iteration: 0, iterations: 0, outcomes: {}, revisions: [] };
      state.agent.tdd = { ...tdd, iteration: event.round ?? tdd.iteration, iterations: event.rounds ?? tdd.iterations };
    }
    const heading = phaseHeading(event);
    if (heading) push(state, { kind: 'phase', text: heading });
  },
  'tests.submission': (event, state) => {
    const previous = state.agent.tdd?.testFile;
    revise(state, 'tests', previous?.code ?? '', event.code, {
      number: (previous?.versions ?? 0) + 1,
      against: previous ? 'the previous tests' : 'nothing (a new file)',
      ok: event.ok,
    });
    if (event.ok && state.agent.tdd) {
      state.agent.tdd = {
        ...state.agent.tdd,
        testFile: {
          path: event.path ?? previous?.path ?? 'test_by_agent.py',
          code: event.code,
          versions: (previous?.versions ?? 0) + 1,
        },
      };
    }
  },
  submission: (event, state) => {
    const { code, starting } = state.agent;
    const against =
      code !== undefined
        ? 'the previous submission'
        : starting === undefined
          ? 'nothing'
          : state.session?.mode === 'blank'
            ? 'the blanked function'
            : 'the stub';
    state.agent.submissions++;
    // What goes in place (the docstring kept when the submission has none), against what was there.
    const placed = asPlaced(event.code, code ?? starting, functionName(state.session?.target));
    revise(state, 'code', code ?? withoutDecorators(starting ?? '', placed), placed, {
      number: state.agent.submissions,
      against,
      ok: event.ok,
    });
    // A rejected submission (a syntax error) stays out: the next one is compared with what is in place.
    if (event.ok) state.agent.code = placed;
  },
  'developer.message': (event, state) => {
    push(state, {
      kind: 'note',
      text: `You told the agent${MESSAGE_SOURCES[event.via] ? ` (${MESSAGE_SOURCES[event.via]})` : ''}: ${event.text}`,
      tone: 'human',
    });
  },
  'model.request': (event, state, now) => {
    // A fork's history ends here: the live model answers from this call on.
    if (state.fork && event.round === state.fork.recorded + 1)
      push(state, {
        kind: 'note',
        text: `From here on ${state.fork.live} answers live (the answers before were the parent's)`,
        tone: 'info',
      });
    state.agent.starting ??= startingFunctionIn(state.session?.target, event.newMessages ?? []);
    state.agent.round = event.round;
    if (event.context) state.agent.context = event.context;
    state.agent.live = '';
    state.agent.retry = undefined;
    state.agent.streaming = [];
    state.agent.call = { since: now, chars: 0 };
  },
  'model.delta': (event, state) => {
    state.agent.live += event.text;
    if (state.agent.call) state.agent.call = { ...state.agent.call, chars: state.agent.call.chars + event.text.length };
  },
  'model.tool-delta': (event, state) => {
    const others = state.agent.streaming.filter((c) => c.index !== event.index);
    const args = (state.agent.streaming.find((c) => c.index === event.index)?.args ?? '') + event.arguments;
    state.agent.streaming = [...others, { index: event.index, name: event.name, args }].sort(
      (a, b) => a.index - b.index,
    );
    if (state.agent.call)
      state.agent.call = { ...state.agent.call, chars: state.agent.call.chars + event.arguments.length };
  },
  'model.retry': (event, state, now) => {
    // The attempt starts over: what it streamed is gone.
    state.agent.live = '';
    state.agent.streaming = [];
    if (state.agent.call) state.agent.call = { ...state.agent.call, chars: 0 };
    state.agent.retry = {
      reason: event.reason,
      attempt: event.attempt,
      of: event.maxAttempts - 1,
      at: now + event.delayMs,
    };
  },
  'model.response': (event, state) => {
    state.agent.live = '';
    state.agent.retry = undefined;
    state.agent.streaming = [];
    state.agent.call = undefined;
    addCall(state.totals, event);
    state.totals.modelCalls++;
    if (event.content.trim())
      push(state, {
        kind: 'model',
        text: event.content,
        tokensIn: event.usage.inputTokens,
        tokensOut: event.usage.outputTokens,
        costUsd: event.costUsd,
      });
  },
  'model.unanswered': (event, state) => {
    // Billed though no answer came: in the footer's tokens and cost (the warning or the error says why).
    addCall(state.totals, event);
  },
  'tool.call': (event, state) => {
    state.totals.toolCalls++;
    push(state, { kind: 'tool', callId: event.id, name: event.name, args: event.arguments });
  },
  'tool.edit': (event, state) => {
    state.agent.items = state.agent.items.map((item) =>
      item.kind === 'tool' && item.callId === event.id && !item.result
        ? { ...item, args: event.arguments, edited: { original: event.original } }
        : item,
    );
  },
  'tool.result': (event, state) => {
    state.agent.items = state.agent.items.map((item) =>
      item.kind === 'tool' && item.callId === event.id && !item.result
        ? { ...item, result: { ok: event.ok, text: event.text, durationMs: event.durationMs } }
        : item,
    );
  },
  'tests.run': (event, state) => {
    push(state, {
      kind: 'tests',
      purpose: event.purpose,
      outcomes: event.outcomes,
      passed: event.passed,
      total: event.total,
    });
    if (event.purpose === 'validate') state.agent.tests = event.outcomes;
    if (event.purpose === 'evaluate') state.evaluation = { report: event.report };
    if (event.purpose === 'agent' && state.agent.tdd)
      state.agent.tdd = { ...state.agent.tdd, outcomes: event.outcomes };
  },
  'debugger.input': (event, state, now) => {
    state.debugger.mode = event.mode;
    // The prompt pdb printed is the one this line answers: one `(Pdb) p x` row, not `(Pdb) ` and then `(Pdb) p x`.
    const last = state.debugger.lines.at(-1);
    if (last?.who === 'output' && last.open && last.text.endsWith(PDB_PROMPT)) {
      const before = last.text.slice(0, -PDB_PROMPT.length);
      state.debugger = {
        ...state.debugger,
        lines: [...state.debugger.lines.slice(0, -1), ...(before ? [{ who: 'output' as const, text: before }] : [])],
      };
    }
    debuggerText(state, [{ who: event.who, text: `${event.mode === 'pdb' ? PDB_PROMPT : '$ '}${event.input}` }]);
    state.debugger.running = { input: event.input, since: now };
  },
  'debugger.output': (event, state) => {
    debuggerOutput(state, event.chunk);
  },
  'debugger.entry': (event, state) => {
    state.debugger.mode = event.entry.output.trimEnd().endsWith('(Pdb)') ? 'pdb' : 'shell';
    state.debugger.running = undefined;
    if (event.entry.who === 'human')
      push(state, {
        kind: 'note',
        text: `You typed in the debugger: ${event.entry.input}${event.entry.output.includes(DEVELOPER_INTERRUPT) ? ' (and stopped it with Ctrl+C)' : ''}`,
        tone: 'human',
      });
    else if (event.entry.who === 'tenet')
      push(state, { kind: 'note', text: `tenet started pdb for your takeover: ${event.entry.input}`, tone: 'info' });
  },
  warning: (event, state) => {
    state.warnings = [...state.warnings, event.message];
    push(state, { kind: 'note', text: event.message, tone: 'warning' });
  },
  error: (event, state) => {
    state.agent.call = undefined;
    state.warnings = [...state.warnings, event.message];
    push(state, {
      kind: 'note',
      text: `Error: ${event.message}${event.fix ? ` — fix: ${event.fix}` : ''}`,
      tone: 'warning',
    });
  },
  'session.interrupted': (event, state) => {
    push(state, { kind: 'note', text: `Interrupted: ${event.reason}`, tone: 'warning' });
  },
  'limit.reached': (event, state) => {
    push(state, { kind: 'note', text: capitalized(limitWords(event)), tone: 'warning' });
  },
  'context.condensed': (event, state) => {
    if (event.window) state.agent.context = { tokens: event.tokensAfter, window: event.window };
    push(state, { kind: 'note', text: condensedWords(event), tone: 'info' });
  },
  'session.forked': (event, state) => {
    state.fork = { recorded: event.recorded, live: `${event.provider}/${event.model}` };
    push(state, { kind: 'note', text: capitalized(forkWords(event)), tone: 'info' });
  },
  'session.resumed': (event, state) => {
    // The stopped session's debugger ended with it (its command too): the pane says where, and the
    // resumed session starts a new one (its mode is not known until it answers).
    state.debugger.running = undefined;
    if (state.debugger.lines.length) {
      debuggerText(state, [{ who: 'output', text: RESUMED_DEBUGGER }]);
      state.debugger.mode = null;
    }
    push(state, { kind: 'note', text: capitalized(resumedWords(event)), tone: 'info' });
  },
  'tests.kept': (event, state) => {
    state.keptTests = event.file;
  },
  'patch.decision': (event, state) => {
    state.patch = {
      decision: event.decision,
      applied: event.applied,
      ...(event.reason ? { reason: event.reason } : {}),
      ...(event.file ? { file: event.file } : {}),
    };
  },
  'command.approval': (event, state) => {
    if (event.by === 'human') {
      const what =
        event.decision === 'denied'
          ? `You refused the command: ${event.command}${event.reason ? ` (${event.reason})` : ''}`
          : event.decision === 'stopped'
            ? `You stopped the agent at the command: ${event.command}`
            : `You allowed the command${event.decision === 'approved-session' ? ' (and every later one)' : ''}: ${event.command}`;
      pushBeforeOpenCall(state, { kind: 'note', text: what, tone: 'human' });
    }
  },
  result: (event, state) => {
    state.agent.call = undefined;
    state.result = event;
    state.agent.phase = 'done';
  },
  // The hidden tests are in THM's report and the approval; the index and a step pause show no
  // line of their own (the step prompt is the controller's).
  'tests.hidden': 'ignored',
  'index.ready': 'ignored',
  'step.pause': 'ignored',
};

/** Applies one event. Returns a new state object (shallow copies of what changed). */
export function reduceView(previous: ViewState, untrusted: EngineEvent, now = Date.now()): ViewState {
  // Model text and tool output reach the screen without terminal control sequences or secrets.
  const event = printableValue(untrusted);
  const state: ViewState = {
    ...previous,
    thm: { ...previous.thm },
    agent: { ...previous.agent },
    totals: { ...previous.totals },
    debugger: { ...previous.debugger },
    applied: previous.applied + 1,
    at: now,
    clock: tick(previous.clock, untrusted, recordedAt(untrusted as { ts?: string }) || now),
  };
  handleEvent(VIEW_HANDLERS, event, state, now);
  return state;
}

/**
 * The developer made a cancelled model call again (Enter at the question after Esc): no event
 * starts the call made again (it is the same round), so the view starts it here, fresh. What the
 * cancelled call streamed is gone, text and tool arguments, and the clock starts over; without
 * this the new stream was glued onto the old one (`submitsubmit`) and the time ran on.
 */
export function restartCall(view: ViewState, now = Date.now()): ViewState {
  return {
    ...view,
    agent: { ...view.agent, live: '', streaming: [], retry: undefined, call: { since: now, chars: 0 } },
  };
}

/** Folds recorded events, timing each by its own timestamp so a replayed view matches the live one. */
export function reduceAll(events: readonly (EngineEvent & { ts?: string })[]): ViewState {
  return events.reduce((state, event) => reduceView(state, event, recordedAt(event)), initialView());
}

/** A recorded event's time in ms, or 0 when it has none. */
export function recordedAt(event: { ts?: string }): number {
  return Date.parse(event.ts ?? '') || 0;
}
