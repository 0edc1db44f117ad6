import { applyReplacements } from '../agent/condense';
import { START, STAGES, TDD_START, type Position, type TddPosition } from '../agent/positions';
import { handleEvent, type EngineEvent, type EventHandlers, type EventOf, type RunResult } from '../events';
import { plural } from '../util/plural';
import { planTargetName } from '../phrase-book';
import { addCall, newTotals, type Totals } from '../model/usage-sums';
import type { Message, ToolCall } from '../protocol/messages';
import type { ApproveMode, ModelSettings } from '../protocol/settings';
import type { ThmReport } from '../protocol/thm-report';
import { mergeDeveloperTests } from '../thm/developer-tests';
import { developerFilesAfter } from '../thm/developer-tests';

/** A session rebuilt from its events: what resume, show, the catalog and replay need. */
export interface SessionState {
  start?: EventOf<'session.start'>;
  /** A fork: the session it was forked from, at which event, and how many model answers it took from it. */
  forkOf?: { parent: string; at: number; recorded: number };
  /** The model settings in force: the recorded ones, or the latest a resume chose. */
  settings?: Pick<ModelSettings, 'provider' | 'model' | 'baseUrl'>;
  /** THM's report, with the developer's tests in it (tests.added). */
  thm?: ThmReport;
  /** The test files the developer wrote or changed, as last written (a resume writes them again). */
  developerFiles: { path: string; content: string }[];
  approval?: EventOf<'thm.approval'>;
  system?: string;
  messages: Message[];
  /** Tool calls of the last response that got no result before the interruption. */
  unansweredCalls: ToolCall[];
  /** A request was sent and no response came back. */
  unansweredRequest: boolean;
  /** How shell commands were let through when the session stopped (the latest run's mode). */
  approve?: ApproveMode;
  /**
   * The developer let the model's shell commands run without asking: `--approve auto` (the
   * latest `--approve` given), or `a` at one of them ("every command of this session"). A resume
   * without `--approve` goes on so.
   */
  autoApprove: boolean;
  /** Step mode held the agent at its last step (a pause before its latest model call or tool call): a resume in the TUI goes on in it. */
  stepping: boolean;
  /** A scripted model's script in force (the run's, or the one a resume gave), and the model answers the session had before its first turn. */
  script?: { file: string; from: number };
  /** `--apply` / `--apply-failing` of the latest run (the start, or a resume that chose them): a resume keeps them. */
  applyPatch: { apply: boolean; applyFailing: boolean };
  /** A shell command of the model that was waiting for the developer's approval when the session stopped. */
  awaitingApproval?: ToolCall;
  /**
   * The model's debugger commands that pdb was running, or that it was made for, when the session
   * stopped (by call id): the pdb session is gone, so a resume answers them instead of running
   * them in its new shell.
   */
  cutInDebugger: string[];
  position: Position;
  /** The code of every accepted submission, in order (the workspace and the patch are rebuilt from them). */
  submissions: string[];
  /** TDD strategies: where the workflow stands, and each accepted version of the agent's tests. */
  tdd: TddPosition;
  testVersions: string[];
  totals: Totals;
  result?: RunResult;
  interrupted: boolean;
  /** Evaluation had started (the agent's part is over). */
  evaluating: boolean;
  /** Why the agent's part ended, as the evaluation's start recorded it (absent in sessions saved before). */
  agentStop?: RunResult['stopReason'];
  /**
   * A plan (see run/plan-run.ts): which target is open (its run is what the rest of this state
   * describes: each target starts afresh), its place in the plan, and whether the final
   * evaluation began.
   */
  plan?: { target?: string; index: number; total: number; final: boolean };
}

/** What a plan's target starts afresh (a new conversation, its own THM and tests); the session's figures and settings go on. */
function targetStart(): Pick<
  SessionState,
  | 'messages'
  | 'unansweredCalls'
  | 'unansweredRequest'
  | 'position'
  | 'tdd'
  | 'submissions'
  | 'developerFiles'
  | 'testVersions'
  | 'evaluating'
  | 'cutInDebugger'
> {
  return {
    messages: [],
    unansweredCalls: [],
    unansweredRequest: false,
    position: { ...START },
    tdd: { ...TDD_START },
    submissions: [],
    developerFiles: [],
    testVersions: [],
    evaluating: false,
    cutInDebugger: [],
  };
}

function startTarget(state: SessionState): void {
  Object.assign(state, targetStart());
  for (const key of ['thm', 'approval', 'system', 'agentStop', 'awaitingApproval'] as const) delete state[key];
}

export function foldEvents(events: readonly EngineEvent[]): SessionState {
  const state: SessionState = {
    ...targetStart(),
    applyPatch: { apply: false, applyFailing: false },
    totals: newTotals(),
    interrupted: false,
    autoApprove: false,
    stepping: false,
  };
  let at = state.position;
  let phase: string | undefined;
  // A refinement stage starts with a prompt that is only logged with the next request: the stage
  // counts from that request on, so a session cut in between resumes before the prompt.
  let pending: { attempt: number; stage: number } | undefined;
  // Tool results are logged as they come, and again (as newMessages) with the next request.
  let trailing: Message[] = [];
  // Shell commands the developer (or the auto mode) answered, by call id: an approval follows its call.
  const answered = new Set<string>();
  let lastShellCall: string | undefined;
  // Shell commands that started running (approved, or pdb's, which is never asked about).
  const ran = new Set<string>();
  // What answered the debugger's next input as the log left it: a command the model sent while
  // pdb had it is pdb's, never asked about, and gone with that pdb session if it never ran.
  let debuggerMode: 'shell' | 'pdb' | undefined;
  const cutOff = (id: string) => {
    if (!state.cutInDebugger.includes(id)) state.cutInDebugger.push(id);
  };
  // The round of the last request: it counts once answered. A request the interruption left
  // unanswered is made again under its own number, so the resumed run's rounds go on from the
  // rounds the position names ("after 2 rounds", then round 3), not one past them.
  let requested = 0;
  // The step a step pause held ('model', or a tool call's id): the step that ends without one was taken with step mode off.
  let pausedAt: string | undefined;
  const handlers: EventHandlers = {
    'session.start': (event) => {
      state.start = event;
      const baseUrl = event.config.baseUrl;
      state.settings = {
        provider: event.provider,
        model: event.model,
        ...(typeof baseUrl === 'string' ? { baseUrl } : {}),
      };
      if (event.config.approve) state.approve = event.config.approve;
      state.autoApprove = event.config.approveAsked === 'auto';
      state.applyPatch = { apply: event.config.apply === true, applyFailing: event.config.applyFailing === true };
      if (typeof event.config.scriptFile === 'string') state.script = { file: event.config.scriptFile, from: 0 };
    },
    'session.forked': (event) => {
      state.forkOf = { parent: event.parent, at: event.at, recorded: event.recorded };
    },
    'session.resumed': (event) => {
      // Older logs recorded no settings here: the earlier ones stay in force.
      if (event.provider && event.model)
        state.settings = {
          provider: event.provider,
          model: event.model,
          ...(event.baseUrl ? { baseUrl: event.baseUrl } : {}),
        };
      if (event.approve) state.approve = event.approve;
      if (event.approveAsked) state.autoApprove = event.approveAsked === 'auto';
      if (event.apply !== undefined || event.applyFailing !== undefined)
        state.applyPatch = { apply: !!event.apply, applyFailing: !!event.applyFailing };
      if (event.scriptFile) state.script = { file: event.scriptFile, from: event.scriptFrom ?? 0 };
    },
    'tool.call': (event) => {
      if (event.name === 'run_debugger_cmd') {
        lastShellCall = event.id;
        if (debuggerMode === 'pdb') cutOff(event.id);
      }
    },
    'command.approval': (event) => {
      if (lastShellCall) answered.add(lastShellCall);
      if (event.decision === 'approved-session' && event.by === 'human') state.autoApprove = true;
    },
    'step.pause': (event) => {
      state.stepping = true;
      pausedAt = event.before === 'model' ? 'model' : event.callId;
    },
    'debugger.input': (event) => {
      if (event.who === 'agent' && lastShellCall) {
        ran.add(lastShellCall);
        if (event.mode === 'pdb') cutOff(lastShellCall);
      }
    },
    'debugger.entry': (event) => {
      if (event.entry.then) debuggerMode = event.entry.then;
    },
    'thm.report': (event) => {
      state.thm = event.report;
    },
    'tests.added': (event) => {
      if (state.thm) state.thm = mergeDeveloperTests(state.thm, event);
      state.developerFiles = developerFilesAfter(state.developerFiles, event);
    },
    'thm.approval': (event) => {
      state.approval = event;
    },
    'agent.phase': (event) => {
      phase = event.phase;
      if (event.phase === 'evaluate') {
        state.evaluating = true;
        if (event.stopReason) state.agentStop = event.stopReason;
      }
      if (event.phase === 'rrw')
        pending = {
          attempt: event.attempt ?? at.attempt,
          stage: Math.max(0, STAGES.indexOf(event.stage as (typeof STAGES)[number])),
        };
      if (event.phase === 'tdd')
        state.tdd = {
          ...state.tdd,
          phase: 'refine',
          iteration: event.round ?? state.tdd.iteration,
          open: true,
          iterationUsed: state.tdd.open ? state.tdd.iterationUsed : 0,
        };
    },
    'model.request': (event) => {
      if (pausedAt !== 'model') state.stepping = false;
      pausedAt = undefined;
      if (pending) {
        if (pending.attempt !== at.attempt) at.attemptUsed = 0;
        at.phase = 'rrw';
        at.attempt = pending.attempt;
        at.stage = pending.stage;
        pending = undefined;
      }
      if (event.system) state.system = event.system;
      trailing = [];
      state.messages.push(...event.newMessages);
      state.unansweredRequest = true;
      state.unansweredCalls = [];
      requested = event.round;
      state.totals.rounds = event.round - 1;
    },
    'context.condensed': (event) => {
      // The conversation as it went on: condensed where the run condensed it.
      applyReplacements(state.messages, event.replaced);
    },
    'model.response': (event) => {
      state.unansweredRequest = false;
      state.totals.rounds = Math.max(requested, state.totals.rounds);
      state.messages.push({ role: 'assistant', content: event.content, toolCalls: event.toolCalls });
      state.unansweredCalls = [...event.toolCalls];
      state.totals.modelCalls++;
      addCall(state.totals, event);
      if (phase === 'pregen') at.pregenUsed++;
      else if (phase === 'rrw') at.attemptUsed++;
      else if (phase === 'tdd-setup') state.tdd.setupUsed++;
      else if (phase === 'tdd') state.tdd.iterationUsed++;
    },
    'model.unanswered': (event) => {
      // No answer to the conversation, but billed: in the totals, as the run counted it.
      addCall(state.totals, event);
    },
    'tool.edit': (event) => {
      // A call cut off after the developer's edit runs again as they left it.
      state.unansweredCalls = state.unansweredCalls.map((c) =>
        c.id === event.id ? { ...c, arguments: event.arguments } : c,
      );
    },
    'tool.result': (event) => {
      if (pausedAt !== event.id) state.stepping = false;
      pausedAt = undefined;
      state.totals.toolCalls++;
      state.unansweredCalls = state.unansweredCalls.filter((c) => c.id !== event.id);
      trailing.push({ role: 'tool', toolCallId: event.id, name: event.name, content: event.text });
    },
    submission: (event) => {
      if (event.ok) {
        state.submissions.push(event.code);
        // A submission is validated next: an interruption before the tests ran resumes there.
        at.phase = 'validate';
      }
    },
    'tests.submission': (event) => {
      if (event.ok) {
        state.testVersions.push(event.code);
        if (phase === 'tdd-setup') state.tdd.phase = 'refine';
      }
    },
    'tests.run': (event) => {
      // A run of the agent's tests closes a TDD iteration.
      if (event.purpose === 'agent' && phase === 'tdd') state.tdd.open = false;
      if (event.purpose === 'validate') {
        at.report = event.report;
        // Failing: the next step opens a new attempt; the strategy does that when it validates
        // again, so resume from a validation (cheap, and the report is current).
        at.phase = 'validate';
      }
    },
    result: (event) => {
      state.result = event;
    },
    'session.interrupted': () => {
      state.interrupted = true;
    },
    plan: (event) => {
      state.plan = { index: 0, total: event.order.length, final: false };
    },
    'plan.target': (event) => {
      startTarget(state);
      at = state.position;
      phase = undefined;
      pending = undefined;
      trailing = [];
      // Its own debugger session and conversation: no command or round of the one before is its.
      debuggerMode = undefined;
      lastShellCall = undefined;
      requested = 0;
      state.plan = {
        ...(state.plan ?? { final: false }),
        target: event.target,
        index: event.index,
        total: event.total,
      };
    },
    'plan.target.end': () => {
      if (state.plan) delete state.plan.target;
    },
    'plan.final': () => {
      if (state.plan) state.plan.final = true;
    },
    // Nothing a resume rebuilds: progress, streams (the response has them whole), words for the
    // developer, and what happened to the patch after the result.
    'thm.start': 'ignored',
    'thm.phase': 'ignored',
    'thm.collected': 'ignored',
    'thm.collecting': 'ignored',
    'thm.running': 'ignored',
    'thm.test': 'ignored',
    'tests.hidden': 'ignored',
    'index.ready': 'ignored',
    'developer.message': 'ignored',
    'model.delta': 'ignored',
    'model.tool-delta': 'ignored',
    'model.retry': 'ignored',
    'debugger.output': 'ignored',
    'patch.decision': 'ignored',
    'tests.kept': 'ignored',
    'limit.reached': 'ignored',
    warning: 'ignored',
    error: 'ignored',
  };
  for (const event of events) handleEvent(handlers, event);
  state.messages.push(...trailing);
  if (state.approve === 'ask') {
    const waiting = state.unansweredCalls.find(
      (call) =>
        call.name === 'run_debugger_cmd' &&
        !answered.has(call.id) &&
        !ran.has(call.id) &&
        !state.cutInDebugger.includes(call.id),
    );
    if (waiting) state.awaitingApproval = waiting;
  }
  return state;
}

/**
 * Where an interrupted session stands, in words. Rounds are counted in the phase, as its budget is;
 * where the session had rounds before it (a refinement attempt, a TDD test run), their count in
 * the session follows, the number the TUI's header and step mode give each round.
 */
export function describePosition(state: SessionState): string {
  const plan = state.plan;
  if (plan && !state.result) {
    if (plan.final) return "during the plan's final evaluation";
    if (!plan.target) return `between the plan's targets (${plan.index} of ${plan.total} started)`;
    return `target ${plan.index}/${plan.total} (${planTargetName(plan.target)}), ${targetPosition(state)}`;
  }
  return targetPosition(state);
}

/** Where one target's run stands (a single run's, or a plan's open target's). */
function targetPosition(state: SessionState): string {
  const rounds = (used: number) =>
    `${plural(used, 'round')}${state.totals.rounds > used ? ` (${state.totals.rounds} in the session)` : ''}`;
  if (state.result) return 'finished';
  if (!state.thm) return 'before THM finished';
  if (!state.approval) return 'waiting for the test approval';
  if (state.evaluating) return 'during the evaluation';
  if (state.start?.strategy === 'tdd') {
    const t = state.tdd;
    if (t.phase === 'setup') return `writing the tests first, after ${rounds(t.setupUsed)}`;
    if (!t.iteration) return 'tests written, before the implementation';
    return t.open
      ? `co-refinement, test run ${t.iteration}, after ${rounds(t.iterationUsed)}`
      : `co-refinement, after test run ${t.iteration}`;
  }
  const at = state.position;
  if (at.phase === 'pregen') return `pre-generation, after ${rounds(at.pregenUsed)}`;
  if (at.phase === 'validate')
    return at.attempt ? `after refinement attempt ${at.attempt}'s submission` : 'after the first submission';
  return `refinement attempt ${at.attempt}, ${STAGES[at.stage]?.replace(/-/g, ' ')}, after ${rounds(at.attemptUsed)}`;
}
