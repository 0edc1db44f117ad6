import { handleEvent, type EngineEvent, type EventHandlers, type EventOf, type RunResult } from '../events';
import { addCall, noUsage, resultUsage, type Totals, type UsageSums } from '../model/usage-sums';

export interface TallyStart {
  sessionId: string;
  target: string;
  strategy: string;
  model: string;
  /** A resumed session counts on from what its log recorded. */
  totals?: Totals;
}

/**
 * Counts what a run has done from its events, so that a run that fails before its own result (the
 * provider gave up, the target is wrong) can still end with a `result`: headless `--json` promises
 * that its last line is one, and a script needs the session id to look at what happened.
 */
export class RunTally {
  private readonly started = Date.now();
  private readonly sums: UsageSums = noUsage();
  private modelCalls: number;
  private toolCalls: number;
  private rounds: number;
  private target: string;
  private selected = 0;
  private failing = 0;
  private estimated: boolean;

  constructor(private readonly start: TallyStart) {
    const t = start.totals;
    if (t) for (const key of Object.keys(this.sums) as (keyof UsageSums)[]) Object.assign(this.sums, { [key]: t[key] });
    this.modelCalls = t?.modelCalls ?? 0;
    this.toolCalls = t?.toolCalls ?? 0;
    this.rounds = t?.rounds ?? 0;
    this.estimated = t?.estimatedTokens ?? false;
    this.target = start.target;
  }

  observe(event: EngineEvent): void {
    handleEvent(this.counters, event);
  }

  /** What each event adds to the tally: every event type decides, so a new one that costs tokens cannot be missed. */
  private readonly counters: EventHandlers = {
    'session.start': (event) => {
      this.target = event.target;
    },
    'thm.report': (event) => {
      this.failing = event.report.failing.length;
    },
    'thm.approval': (event) => {
      this.selected = event.chosen.length;
    },
    'model.request': (event) => {
      this.rounds = event.round;
    },
    'model.response': (event) => {
      this.modelCalls++;
      this.count(event);
    },
    'model.unanswered': (event) => {
      this.count(event);
    },
    'tool.result': () => {
      this.toolCalls++;
    },
    // A plan's parts: what they cost is counted by their model calls above.
    plan: 'ignored',
    'plan.target': 'ignored',
    'plan.target.end': 'ignored',
    'plan.final': 'ignored',
    'thm.start': 'ignored',
    'thm.phase': 'ignored',
    'thm.collected': 'ignored',
    'thm.collecting': 'ignored',
    'thm.running': 'ignored',
    'thm.test': 'ignored',
    'tests.added': 'ignored',
    'tests.hidden': 'ignored',
    'index.ready': 'ignored',
    'agent.phase': 'ignored',
    'context.condensed': 'ignored',
    'developer.message': 'ignored',
    'model.delta': 'ignored',
    'model.tool-delta': 'ignored',
    'model.retry': 'ignored',
    'tool.call': 'ignored',
    'step.pause': 'ignored',
    'tool.edit': 'ignored',
    'debugger.input': 'ignored',
    'debugger.output': 'ignored',
    'debugger.entry': 'ignored',
    submission: 'ignored',
    'tests.submission': 'ignored',
    'tests.run': 'ignored',
    result: 'ignored',
    'patch.decision': 'ignored',
    'tests.kept': 'ignored',
    'command.approval': 'ignored',
    'session.interrupted': 'ignored',
    'session.resumed': 'ignored',
    'session.forked': 'ignored',
    'limit.reached': 'ignored',
    warning: 'ignored',
    error: 'ignored',
  };

  private count(call: EventOf<'model.response' | 'model.unanswered'>): void {
    addCall(this.sums, call);
    if (call.usage.estimated) this.estimated = true;
  }

  /** The result of the run, failed with `error` (or stopped from outside): nothing passed, nothing to apply. */
  failed(error: unknown, stopReason: 'error' | 'interrupted' = 'error'): RunResult {
    return {
      type: 'result',
      sessionId: this.start.sessionId,
      target: this.target,
      strategy: this.start.strategy,
      pass: false,
      stopReason,
      message: error instanceof Error ? error.message : String(error),
      selectedTests: { passed: 0, total: this.selected },
      hiddenTests: { passed: 0, total: Math.max(0, this.failing - this.selected) },
      tests: {},
      ...resultUsage(this.sums, this.modelCalls, this.toolCalls),
      ...(this.estimated ? { tokensEstimated: true } : {}),
      rounds: { pregen: 0, rrwAttempts: 0, total: this.rounds },
      costOfPass: null,
      wallMs: Date.now() - this.started,
      patch: '',
      model: this.start.model,
      applied: false,
    };
  }
}
