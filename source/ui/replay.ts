import type { EngineEvent } from '../engine/events';
import { initialView, recordedAt, reduceView } from './view-state';
import type { ViewState } from './view/types';

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

/** The longest a replay waits between two steps at 1× (a two-minute test run is not waited out). */
const LONGEST_WAIT_MS = 1500;

/**
 * THM's progress as the tests are collected and run: a session has one of these per test (780 on
 * more-itertools), each a few milliseconds after the last. Played one by one they held the replay
 * for seconds before anything worth seeing; a run of them is one step (its last frame).
 */
const THM_PROGRESS = new Set<EngineEvent['type']>(['thm.collecting', 'thm.collected', 'thm.running', 'thm.test']);

type Recorded = EngineEvent & { ts?: string; seq?: number };

/** An event's number, as `tenet fork --at`, the replay's status line and the page's `#event=N` say it: its sequence number. */
const seqOf = (event: Recorded, index: number) => event.seq ?? index + 1;

/**
 * A recorded session's views at any position, for replay. A position is how many events are shown
 * (0: none yet); the steps of the replay are its stops — every position, but inside a run of THM
 * progress events. Moving forward folds the next events into the current view; moving back starts
 * from the nearest checkpoint (one every 250 events), so stepping through a 10,000-event session
 * stays instant.
 */
export class ReplayCursor {
  private readonly checkpoints = new Map<number, ViewState>([[0, initialView()]]);
  private current: { index: number; view: ViewState } = { index: 0, view: initialView() };
  /** The positions a step stops at, ascending: 0, then after every event but those a THM progress event follows. */
  readonly stops: readonly number[];

  constructor(readonly events: readonly Recorded[]) {
    const stops = [0];
    events.forEach((event, i) => {
      const folded = THM_PROGRESS.has(event.type) && i + 1 < events.length && THM_PROGRESS.has(events[i + 1]!.type);
      if (!folded) stops.push(i + 1);
    });
    this.stops = stops;
  }

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

  /** The stop after `index` (the end when there is none). */
  nextStop(index: number): number {
    return this.stops.find((stop) => stop > index) ?? this.events.length;
  }

  /** The stop before `index` (the start when there is none). */
  previousStop(index: number): number {
    return this.stops.findLast((stop) => stop < index) ?? 0;
  }

  /** The index just past the next event after `index` that matches; undefined when none does. */
  next(index: number, match: (event: EngineEvent) => boolean): number | undefined {
    for (let i = index; i < this.events.length; i++) if (match(this.events[i]!)) return i + 1;
    return undefined;
  }

  /** The index just past the last event before the one shown at `index` that matches; undefined when none does. */
  previous(index: number, match: (event: EngineEvent) => boolean): number | undefined {
    for (let i = Math.min(index, this.events.length) - 2; i >= 0; i--) if (match(this.events[i]!)) return i + 1;
    return undefined;
  }

  /** The number of the event shown last at `index` (0 before the first). */
  eventAt(index: number): number {
    const shown = Math.min(index, this.events.length);
    return shown <= 0 ? 0 : seqOf(this.events[shown - 1]!, shown - 1);
  }

  /** The position that shows event `number` last; undefined when the session has no such event. */
  positionOf(number: number): number | undefined {
    const index = this.events.findIndex((event, i) => seqOf(event, i) === number);
    return index === -1 ? undefined : index + 1;
  }

  /** How long to wait at `from` before showing `to`: the recorded time between their last events, scaled, capped. */
  delay(from: number, to: number, speed: number): number {
    if (!Number.isFinite(speed) || from <= 0 || to > this.events.length) return 0;
    const gap = recordedAt(this.events[to - 1]!) - recordedAt(this.events[from - 1]!);
    return Math.max(0, Math.min(LONGEST_WAIT_MS, gap / speed));
  }
}

export const JUMPS = {
  n: (e: EngineEvent) => e.type === 'tool.call',
  t: (e: EngineEvent) => e.type === 'tests.run',
  /**
   * A stage: THM's review (its report is in), pre-generation, TENET's validation and refinement
   * attempts, a TDD round, the evaluation, the quality measures.
   */
  r: (e: EngineEvent) => e.type === 'thm.report' || (e.type === 'agent.phase' && e.phase !== 'done'),
} as const;

/** What each jump stops at, in the words of a "no later …" notice. */
export const JUMP_WORDS: Record<keyof typeof JUMPS, string> = { n: 'tool call', t: 'test run', r: 'stage' };
