import { handleEvent, type EngineEvent } from '../engine/events';
import { noUsage } from '../engine/model/usage-sums';
import { proposeFor } from '../engine/thm/propose';
import { printableValue } from '../engine/terminal-text';
import { AGENT_EVENTS } from './view/agent-events';
import { DEBUGGER_EVENTS } from './view/debugger-events';
import { MODEL_EVENTS } from './view/model-events';
import { SESSION_EVENTS } from './view/session-events';
import { THM_EVENTS } from './view/thm-events';
import { TOOL_EVENTS } from './view/tool-events';
import { PLAN_EVENTS } from './view/plan-events';
import type { ViewHandlers, ViewState } from './view/types';

/**
 * What the screens show (ViewState, in view/types.ts), folded from engine events by a pure
 * reducer: the same function serves a live session and a replay, and tests call it without
 * rendering anything. What each event does is decided by its family, one file each in view/.
 */

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

/** THM's proposal for a budget T, as the engine computes it. */
export const propose = proposeFor;

/** The families of events, each deciding for its own types: a type is in exactly one (a test checks). */
export const VIEW_FAMILIES = [
  SESSION_EVENTS,
  THM_EVENTS,
  AGENT_EVENTS,
  MODEL_EVENTS,
  TOOL_EVENTS,
  DEBUGGER_EVENTS,
  PLAN_EVENTS,
];

/** Every event type's handler, or `'ignored'` said out loud: a new type does not type-check until a family takes it. */
const VIEW_HANDLERS: ViewHandlers = {
  ...SESSION_EVENTS,
  ...THM_EVENTS,
  ...AGENT_EVENTS,
  ...MODEL_EVENTS,
  ...TOOL_EVENTS,
  ...DEBUGGER_EVENTS,
  ...PLAN_EVENTS,
};

/** The session's clock after an event at time `t` (its recorded time, a resumed session's history included). */
function tick(clock: ViewState['clock'], event: EngineEvent, t: number): ViewState['clock'] {
  if (event.type === 'session.start') return { done: 0, partStart: t, parts: 1, last: t };
  if (event.type === 'session.resumed')
    return { done: clock.done + (clock.last - clock.partStart), partStart: t, parts: clock.parts + 1, last: t };
  return { ...clock, last: Math.max(clock.last, t) };
}

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
