import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_SCHEMAS } from '../../source/engine/events';
import {
  EVENTS_SCHEMA_FILE,
  eventsJsonSchema,
  eventsJsonSchemaText,
} from '../../source/engine/session/events-json-schema';
import { ROOT } from '../helpers/fixtures';

// The event union published as JSON Schema, for readers of a session log that are not tenet.

/** Python's jsonschema, where the machine's python3 has it: an implementation of JSON Schema that is not zod's. */
const JSONSCHEMA = spawnSync('python3', ['-c', 'import jsonschema'], { encoding: 'utf8' }).status === 0;

/** Which of `lines` (JSON texts) python's jsonschema finds invalid against the published schema, by index. */
function invalidLines(lines: string[]): number[] {
  const program = [
    'import json, sys',
    'from jsonschema import Draft202012Validator',
    'schema = json.load(open(sys.argv[1]))',
    'Draft202012Validator.check_schema(schema)',
    'validator = Draft202012Validator(schema)',
    'lines = json.load(sys.stdin)',
    'print(json.dumps([i for i, line in enumerate(lines) if not validator.is_valid(json.loads(line))]))',
  ].join('\n');
  const run = spawnSync('python3', ['-c', program, join(ROOT, EVENTS_SCHEMA_FILE)], {
    input: JSON.stringify(lines),
    encoding: 'utf8',
  });
  expect(run.status, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as number[];
}

describe('docs/events.schema.json', () => {
  it('is what the events say now (run `npm run schema:events` after changing engine/events.ts)', () => {
    expect(readFileSync(join(ROOT, EVENTS_SCHEMA_FILE), 'utf8')).toBe(eventsJsonSchemaText());
  });

  it('has one entry per event type, told apart by its `type`', () => {
    const entries = eventsJsonSchema().oneOf as { properties: { type: { const: string } } }[];
    expect(entries.map((entry) => entry.properties.type.const).sort()).toEqual(Object.keys(EVENT_SCHEMAS).sort());
  });

  it.skipIf(!JSONSCHEMA)(
    "accepts every line of the demo session's log, and refuses an event that lacks a field or has an unknown type",
    () => {
      const log = readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8')
        .trim()
        .split('\n');
      const call = JSON.parse(log.find((line) => line.includes('"type":"tool.call"'))!) as Record<string, unknown>;
      const { name: _name, ...nameless } = call;
      expect(log.length).toBeGreaterThan(20);
      expect(
        invalidLines([...log, JSON.stringify(nameless), JSON.stringify({ ...call, type: 'tool.called' })]),
      ).toEqual([log.length, log.length + 1]);
    },
  );
});
