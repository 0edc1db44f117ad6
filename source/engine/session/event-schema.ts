import { EVENT_SCHEMAS, type EventType } from '../events';

/**
 * The shape of each logged event, checked when a log is read: a hand-edited line that is valid
 * JSON but not a valid event (a missing `usage`, `toolCalls: null`) must be an error naming the
 * line, not a TypeError deep in whatever reads the session. The schemas are the events'
 * definition (engine/events.ts); extra fields are allowed. A type that is not in the union
 * (written by a newer tenet) is accepted as it is: readers ignore it.
 */

/** Whether this tenet knows an event type (a newer tenet may write others, which readers skip). */
export const knownEventType = (type: string): type is EventType => Object.hasOwn(EVENT_SCHEMAS, type);

/** Why an event does not have the shape of its type (`usage.inputTokens: expected number`), or undefined when it does. */
export function eventShapeProblem(event: { type: string }): string | undefined {
  if (!knownEventType(event.type)) return undefined;
  const checked = EVENT_SCHEMAS[event.type].safeParse(event);
  if (checked.success) return undefined;
  const issue = checked.error.issues[0]!;
  const path = issue.path.map(String).join('.');
  return `${path ? `${path}: ` : ''}${issue.message}`;
}
