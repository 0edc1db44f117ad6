import type { EngineEvent, EventOf, RunResult } from '../events';
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
    switch (event.type) {
      case 'session.start':
        this.target = event.target;
        break;
      case 'thm.report':
        this.failing = event.report.failing.length;
        break;
      case 'thm.approval':
        this.selected = event.chosen.length;
        break;
      case 'model.request':
        this.rounds = event.round;
        break;
      case 'model.response':
        this.modelCalls++;
        this.count(event);
        break;
      case 'model.unanswered':
        this.count(event);
        break;
      case 'tool.result':
        this.toolCalls++;
        break;
      default:
        break;
    }
  }

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
