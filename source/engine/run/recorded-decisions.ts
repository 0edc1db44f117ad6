import type { EngineEvent, EventOf } from '../events';
import type { DeveloperMessage } from '../protocol/decisions';
import type { Pilot } from './pilot';

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
 * A session's recorded decisions as a pilot: the same tests, the developer's messages at the rounds
 * they went with; the patch is kept in the session, never applied. `rerun` drives the engine with
 * it, and `fork` with the part of it before the fork's event.
 */
export function recordedPilot(events: readonly EngineEvent[]): Pilot {
  const approval = events.find((e): e is EventOf<'thm.approval'> => e.type === 'thm.approval');
  const messages = messagesByRound(events);
  return {
    approveTests: async (report) => ({ chosen: approval?.chosen ?? report.selected, by: approval?.by === 'human' ? 'human' : 'auto' }),
    acceptPatch: async () => 'save',
    beforeRequest: async ({ round }) => messages.get(round) ?? [],
  };
}
