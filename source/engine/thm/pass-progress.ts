import type { EngineEvent, ThmPhase } from '../events';
import type { PluginEvent } from './plugin-lines';

/** How often, at most, collection progress is reported (a large suite imports hundreds of modules). */
const COLLECTING_EVERY_MS = 250;
/** The tests left at which the running ones are named. */
export const STRAGGLERS = 8;

/**
 * The progress a pass reports beyond each test's outcome: while pytest collects, how many test
 * modules and tests it has found (shards collect the same suite, so the largest counts are the
 * suite's); at the end, when only a few tests are left, which ones still run and since when.
 */
export class PassProgress {
  private readonly files = new Set<string>();
  private tests = 0;
  private lastCollecting = 0;
  private total: number | undefined;
  private done = 0;
  private readonly running = new Map<string, number>();
  private named = false;

  constructor(
    private readonly phase: ThmPhase,
    /** The tests this pass runs, when it runs a list (the later passes). */
    only: number | undefined,
    private readonly clock: () => number = Date.now,
  ) {
    this.total = only;
  }

  /** The event to emit for a plugin event, if any. */
  observe(event: PluginEvent): EngineEvent | undefined {
    switch (event.e) {
      case 'collecting': {
        this.files.add(event.nodeid);
        this.tests = Math.max(this.tests, event.items ?? 0);
        const now = this.clock();
        if (now - this.lastCollecting < COLLECTING_EVERY_MS) return undefined;
        this.lastCollecting = now;
        return { type: 'thm.collecting', phase: this.phase, files: this.files.size, tests: this.tests };
      }
      case 'collected':
        this.total ??= event.total;
        return undefined;
      case 'start':
        this.running.set(event.nodeid, this.clock());
        return this.stragglers();
      case 'test':
        this.done++;
        this.running.delete(event.nodeid);
        return this.stragglers();
      default:
        return undefined;
    }
  }

  /** The running tests, once at most STRAGGLERS are left (and each time that set changes after). */
  private stragglers(): EngineEvent | undefined {
    if (this.total === undefined || this.total - this.done > STRAGGLERS) return undefined;
    if (!this.running.size && !this.named) return undefined;
    this.named = this.running.size > 0;
    return {
      type: 'thm.running',
      phase: this.phase,
      tests: [...this.running].map(([nodeid, since]) => ({ nodeid, since })),
    };
  }
}
