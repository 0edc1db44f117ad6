/**
 * Writes the event union as JSON Schema into docs/events.schema.json (test/unit/events-schema.test.ts
 * fails while the file differs from what the events say).
 *
 *   npm run schema:events
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { EVENTS_SCHEMA_FILE, eventsJsonSchemaText } from '../source/engine/session/events-json-schema';

const root = join(import.meta.dirname, '..');
writeFileSync(join(root, EVENTS_SCHEMA_FILE), eventsJsonSchemaText());
console.log(`wrote ${EVENTS_SCHEMA_FILE}`);
