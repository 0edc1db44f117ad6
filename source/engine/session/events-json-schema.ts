import * as z from 'zod';
import { EVENT_SCHEMAS, type EventType } from '../events';

type EventSchema = (typeof EVENT_SCHEMAS)[EventType];

/** Where the event union is published, from the repository's root (scripts/write-events-schema.ts writes it). */
export const EVENTS_SCHEMA_FILE = 'docs/events.schema.json';

/**
 * The event union (engine/events.ts) as JSON Schema, for readers of a session log that are not
 * tenet: each line of `events.jsonl` is one of these events, with the log's `v`, `seq` and `ts`
 * beside its fields. Made from the zod schemas the log is checked with, so the two cannot drift
 * apart; as the log is read, fields the schema does not name are allowed (a newer tenet may add some).
 */
export function eventsJsonSchema(): Record<string, unknown> {
  const schemas = Object.values(EVENT_SCHEMAS) as [EventSchema, ...EventSchema[]];
  // `input`: what a log may hold (its objects are read loosely, so no `additionalProperties: false`).
  // The settings are checked by code (z.custom): their metadata says what they are.
  const { $schema, ...schema } = z.toJSONSchema(z.discriminatedUnion('type', schemas), {
    io: 'input',
    unrepresentable: 'any',
  });
  return {
    $schema,
    title: 'tenet session event',
    description:
      "One line of a tenet session log (events.jsonl): an event, by its `type`, with the log's `v` (its format's version), `seq` (the event's number) and `ts` (when it happened, ISO 8601) beside its fields. Fields not named here may appear: a newer tenet may add some. Generated from source/engine/events.ts by `npm run schema:events`.",
    ...schema,
  };
}

/** The schema as the file holds it. */
export const eventsJsonSchemaText = (): string => `${JSON.stringify(eventsJsonSchema(), null, 2)}\n`;
