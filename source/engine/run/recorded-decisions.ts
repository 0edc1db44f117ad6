import type { EngineEvent, EventOf } from '../events';
import type { DeveloperMessage } from '../protocol/decisions';
import type { Pilot } from './pilot';
import type { TestDesk } from './desk';

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
 * A session's recorded decisions as a pilot: the developer's tests written again, the same tests
 * chosen, the developer's messages at the rounds they went with, their edits of tool calls (by the
 * call's id); the patch is kept in the session,
 * never applied. `rerun` drives the engine with it, and `fork` with the part of it before the
 * fork's event. Step mode's pauses are not held again.
 */
export function recordedPilot(events: readonly EngineEvent[]): Pilot {
  const approval = events.find((e): e is EventOf<'thm.approval'> => e.type === 'thm.approval');
  const messages = messagesByRound(events);
  const edits = new Map(
    events.filter((e): e is EventOf<'tool.edit'> => e.type === 'tool.edit').map((e) => [e.id, e.arguments]),
  );
  const added = events.filter((e): e is EventOf<'tests.added'> => e.type === 'tests.added');
  return {
    // The developer's tests, written again round by round as they wrote them (before the approval).
    ...(added.length
      ? {
          addTests: async (desk: TestDesk) => {
            for (const round of added) await desk.add(round.files);
          },
        }
      : {}),
    approveTests: async (report) => ({
      chosen: approval?.chosen ?? report.selected,
      by: approval?.by === 'human' ? 'human' : 'auto',
    }),
    acceptPatch: async () => 'save',
    beforeRequest: async ({ round }) => messages.get(round) ?? [],
    beforeToolCall: async (call) => edits.get(call.id),
  };
}
