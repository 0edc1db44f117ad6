import type { EngineEvent, EventOf } from '../events';

/**
 * Where a plan stands, folded from its events by one function: the run keeps its place with it
 * as it goes, and a resume rebuilds the same place from the log (see run/plan-run.ts).
 */
export interface PlanState {
  plan?: EventOf<'plan'>;
  /** Targets still to run, in order: the one running first. */
  queue: string[];
  /** Each finished target's end (a deferral is no end), in the order they finished. */
  ended: Map<string, EventOf<'plan.target.end'>>;
  /** Pairs that already deferred (`target>other`): a target waits for another once. */
  waited: Set<string>;
  /** Why each deferred target waits (its latest deferral), until it ends. */
  waiting: Map<string, string>;
  /** The target whose run is open, and the events of that run so far: what a resume goes on from. */
  current?: { start: EventOf<'plan.target'>; events: EngineEvent[] };
  /** The accepted submissions of each target's latest run: a kept target's code is built from them. */
  submissions: Map<string, string[]>;
  /** The final evaluation began. */
  final: boolean;
  /** How many target runs began (a deferred target's again counts again). */
  starts: number;
}

export const newPlanState = (): PlanState => ({
  queue: [],
  ended: new Map(),
  waited: new Set(),
  waiting: new Map(),
  submissions: new Map(),
  final: false,
  starts: 0,
});

/** What one event does to the plan's place (events outside a plan change nothing). */
export function reducePlan(state: PlanState, event: EngineEvent): void {
  switch (event.type) {
    case 'plan':
      state.plan = event;
      state.queue = event.stopped ? [] : [...event.order];
      return;
    case 'plan.target':
      state.starts++;
      state.current = { start: event, events: [] };
      state.submissions.set(event.target, []);
      // Taken from wherever it stood: a target the developer let run early goes first.
      state.queue = [event.target, ...state.queue.filter((t) => t !== event.target)];
      return;
    case 'plan.target.end': {
      state.current = undefined;
      if (event.after) {
        for (const other of event.waitsFor ?? []) state.waited.add(`${event.target}>${other}`);
        state.waiting.set(event.target, event.why ?? '');
        state.queue = moveAfter(state.queue, event.target, event.after);
        return;
      }
      state.queue = state.queue.filter((t) => t !== event.target);
      state.waiting.delete(event.target);
      state.ended.delete(event.target);
      state.ended.set(event.target, event);
      return;
    }
    case 'plan.final':
      state.final = true;
      return;
    default:
      if (!state.current) return;
      state.current.events.push(event);
      if (event.type === 'submission' && event.ok) state.submissions.get(state.current.start.target)!.push(event.code);
  }
}

export function foldPlan(events: readonly EngineEvent[]): PlanState {
  const state = newPlanState();
  for (const event of events) reducePlan(state, event);
  return state;
}

/** The queue with `target` moved right after `after` (left in place when `after` is not in it). */
export function moveAfter(queue: readonly string[], target: string, after: string): string[] {
  const rest = queue.filter((t) => t !== target);
  const at = rest.indexOf(after);
  if (at === -1) return [...queue];
  return [...rest.slice(0, at + 1), target, ...rest.slice(at + 1)];
}

/** The targets whose code stays in the workspace (passed), in the order they finished. */
export function keptTargets(state: PlanState): string[] {
  return [...state.ended.values()].filter((end) => end.kept).map((end) => end.target);
}
