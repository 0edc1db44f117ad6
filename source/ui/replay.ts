import type { EngineEvent } from '../engine/events';
import { initialView, recordedAt, reduceView, type ViewState } from './view-state';

/** Replay speeds; the last plays as fast as the screen repaints. */
const SPEEDS = [0.5, 1, 2, 4, 10, 50, Infinity] as const;

/**
 * The next speed up (`+1`) or down (`-1`) from `speed`, which may be one `--speed` gave that is
 * not in the list (3 goes up to 4 and down to 2).
 */
export function stepSpeed(speed: number, direction: 1 | -1): number {
  if (direction > 0) return SPEEDS.find((s) => s > speed) ?? SPEEDS.at(-1)!;
  return [...SPEEDS].reverse().find((s) => s < speed) ?? SPEEDS[0];
}

const CHECKPOINT_EVERY = 250;

/**
 * A recorded session's views at any position, for replay: moving forward folds the next events
 * into the current view; moving back starts from the nearest checkpoint (one every 250 events), so
 * stepping through a 10,000-event session stays instant.
 */
export class ReplayCursor {
  private readonly checkpoints = new Map<number, ViewState>([[0, initialView()]]);
  private current: { index: number; view: ViewState } = { index: 0, view: initialView() };

  constructor(readonly events: readonly (EngineEvent & { ts?: string })[]) {}

  get length(): number {
    return this.events.length;
  }

  /** The view after the first `index` events. */
  viewAt(index: number): ViewState {
    const target = Math.max(0, Math.min(index, this.events.length));
    let { index: from, view } = this.current;
    if (target < from) {
      from = Math.floor(target / CHECKPOINT_EVERY) * CHECKPOINT_EVERY;
      view = this.checkpoints.get(from)!;
    }
    for (let i = from; i < target; i++) {
      view = reduceView(view, this.events[i]!, recordedAt(this.events[i]!));
      if ((i + 1) % CHECKPOINT_EVERY === 0 && !this.checkpoints.has(i + 1)) this.checkpoints.set(i + 1, view);
    }
    this.current = { index: target, view };
    return view;
  }

  /** The index just past the next event after `index` that matches. */
  next(index: number, match: (event: EngineEvent) => boolean): number {
    for (let i = index; i < this.events.length; i++) if (match(this.events[i]!)) return i + 1;
    return this.events.length;
  }

  /** How long to wait before showing event `index` (its recorded gap, scaled, capped). */
  delayBefore(index: number, speed: number): number {
    if (!Number.isFinite(speed) || index <= 0 || index >= this.events.length) return 0;
    const gap = recordedAt(this.events[index]!) - recordedAt(this.events[index - 1]!);
    return Math.max(0, Math.min(1500, gap / speed));
  }
}

export const JUMPS = {
  n: (e: EngineEvent) => e.type === 'tool.call',
  t: (e: EngineEvent) => e.type === 'tests.run',
  /** A stage: TENET's validation and refinement attempts, a TDD round, the evaluation, the quality measures. */
  r: (e: EngineEvent) => e.type === 'agent.phase' && e.phase !== 'pregen' && e.phase !== 'done',
} as const;
