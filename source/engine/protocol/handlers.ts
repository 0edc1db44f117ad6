/**
 * A reader's decision for every type of a union of events: a handler, or `'ignored'`, said out
 * loud. A reader is one of these maps rather than a switch that ends in `default: break`, so a new
 * event type does not type-check until every reader has decided what to do with it (codex's
 * one named handler per event). engine/events.ts names the map over EngineEvent EventHandlers.
 * Kept apart from the event schemas so that a reader with no use for zod (the session page's
 * script, in a browser) can use it.
 */
export type HandlersOf<E extends { type: string }, Args extends unknown[] = [], R = void> = {
  readonly [K in E['type']]: ((event: Extract<E, { type: K }>, ...args: Args) => R) | 'ignored';
};

/**
 * Gives an event to its reader's handler. Undefined for an ignored type, and for a type the reader
 * does not know (a newer tenet wrote it): readers skip those.
 */
export function handleWith<E extends { type: string }, Args extends unknown[], R>(
  handlers: HandlersOf<E, Args, R>,
  event: E,
  ...args: Args
): R | undefined {
  const handler = Object.hasOwn(handlers, event.type) ? handlers[event.type as E['type']] : undefined;
  if (handler === undefined || handler === 'ignored') return undefined;
  return (handler as (event: E, ...args: Args) => R)(event, ...args);
}
