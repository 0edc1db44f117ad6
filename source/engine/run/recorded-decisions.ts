import type { EngineEvent, EventOf } from '../events';
import type { DeveloperMessage } from '../protocol/decisions';
import type { PlanDecision } from '../protocol/plan';
import type { Pilot } from './pilot';
import type { TestDesk } from './test-desk';

/** The developer's recorded messages by the round they went with. */
export function messagesByRound(events: readonly EngineEvent[]): Map<number, DeveloperMessage[]> {
  const byRound = new Map<number, DeveloperMessage[]>();
  for (const event of events) {
    if (event.type !== 'developer.message') continue;
    byRound.set(event.round, [...(byRound.get(event.round) ?? []), { text: event.text, via: event.via }]);
  }
  return byRound;
}

/**
 * A log in parts, one per target's run: what came before a plan's first target, then each
 * `plan.target`'s events (a target deferred and started again has a part each time). A single
 * run's log is one part. Each part's decisions are its own: its tests, its messages by round.
 */
export function targetParts(events: readonly EngineEvent[]): EngineEvent[][] {
  const parts: EngineEvent[][] = [[]];
  for (const event of events) {
    if (event.type === 'plan.target') parts.push([]);
    parts.at(-1)!.push(event);
  }
  return parts;
}

/** The developer's decisions in one part of a log (see targetParts). */
export function partDecisions(part: readonly EngineEvent[]) {
  return {
    approval: part.find((e): e is EventOf<'thm.approval'> => e.type === 'thm.approval'),
    messages: messagesByRound(part),
    edits: new Map(
      part.filter((e): e is EventOf<'tool.edit'> => e.type === 'tool.edit').map((e) => [e.id, e.arguments]),
    ),
    added: part.filter((e): e is EventOf<'tests.added'> => e.type === 'tests.added'),
  };
}

/** A plan's decision as the log recorded it: its order and the targets left out, or stopped. */
export function recordedPlanDecision(events: readonly EngineEvent[]): PlanDecision | undefined {
  const plan = events.find((e): e is EventOf<'plan'> => e.type === 'plan');
  if (!plan) return undefined;
  return plan.stopped ? { stop: true } : { order: plan.order, skipped: plan.skipped, by: plan.by };
}

/**
 * A session's recorded decisions as a pilot: the plan as decided, the developer's tests written
 * again, the same tests chosen, the developer's messages at the rounds they went with, their edits
 * of tool calls (by the call's id), each target's from its own part of the log; the patch is kept
 * in the session, never applied. `rerun` drives the engine with it, and `fork` with the part of it
 * before the fork's event. Step mode's pauses are not held again.
 */
export function recordedPilot(events: readonly EngineEvent[]): Pilot {
  const parts = targetParts(events).map(partDecisions);
  let now = parts[0]!;
  const plan = recordedPlanDecision(events);
  return {
    ...(plan ? { approvePlan: async () => plan } : {}),
    // The k-th target's run of the plan decides as the log's k-th did.
    startTarget: (k) => {
      now = parts[k + 1] ?? partDecisions([]);
    },
    // The developer's tests, written again round by round as they wrote them (before the approval).
    addTests: async (desk: TestDesk) => {
      for (const round of now.added) await desk.add(round.files);
    },
    approveTests: async (report) => ({
      chosen: now.approval?.chosen ?? report.selected,
      by: now.approval?.by === 'human' ? 'human' : 'auto',
    }),
    acceptPatch: async () => 'save',
    beforeRequest: async ({ round }) => now.messages.get(round) ?? [],
    beforeToolCall: async (call) => now.edits.get(call.id),
  };
}
