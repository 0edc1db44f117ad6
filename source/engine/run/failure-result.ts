import type { Totals } from '../agent/conversation';
import type { EngineEvent, RunResult } from '../events';

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
  private readonly usage: RunResult['usage'];
  private costUsd: number;
  private rounds: number;
  private target: string;
  private selected = 0;
  private failing = 0;

  constructor(private readonly start: TallyStart) {
    const t = start.totals;
    this.usage = { inputTokens: t?.inputTokens ?? 0, outputTokens: t?.outputTokens ?? 0, modelCalls: t?.modelCalls ?? 0, toolCalls: t?.toolCalls ?? 0 };
    this.costUsd = t?.costUsd ?? 0;
    this.rounds = t?.rounds ?? 0;
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
        this.usage.modelCalls++;
        this.usage.inputTokens += event.usage.inputTokens;
        this.usage.outputTokens += event.usage.outputTokens;
        this.costUsd += event.costUsd;
        break;
      case 'tool.result':
        this.usage.toolCalls++;
        break;
      default:
        break;
    }
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
      usage: { ...this.usage },
      rounds: { pregen: 0, rrwAttempts: 0, total: this.rounds },
      costUsd: this.costUsd,
      costOfPass: null,
      wallMs: Date.now() - this.started,
      patch: '',
      model: this.start.model,
      applied: false,
    };
  }
}
