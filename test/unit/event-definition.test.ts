import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { EVENT_SCHEMAS, handleEvent, type EngineEvent, type EventHandlers } from '../../source/engine/events';
import type { HandlersOf } from '../../source/engine/protocol/handlers';
import { eventShapeProblem } from '../../source/engine/session/event-schema';
import { PAGE_CARD_OF } from '../../source/engine/session/page-cards';
import { markdownTranscript } from '../../source/engine/session/transcript';
import { ROOT } from '../helpers/fixtures';

/**
 * One definition per event: the zod schemas in engine/events.ts are the events' types, and every
 * reader is a map over every event type. This file is type-checked by `tsc --noEmit` (which npm test
 * runs beside the tests): the `@ts-expect-error` lines below fail the type-check if a map that leaves an
 * event type out ever compiles.
 */

const aWarning: EngineEvent = { type: 'warning', message: 'careful' };

describe('a reader decides for every event type', () => {
  it('a map that leaves out one event type does not type-check', () => {
    const { warning: _left, ...allButWarning } = Object.fromEntries(
      Object.keys(EVENT_SCHEMAS).map((type) => [type, 'ignored']),
    ) as EventHandlers;
    // @ts-expect-error 'warning' is missing: the reader has not decided about warnings.
    const incomplete: EventHandlers = allButWarning;
    expect(handleEvent(incomplete, aWarning)).toBeUndefined();
  });

  it('adding an event variant makes the existing readers fail to type-check until they handle it', () => {
    type WithNewEvent = EngineEvent | { type: 'brand.new'; detail: string };
    const existingReader: EventHandlers = Object.fromEntries(
      Object.keys(EVENT_SCHEMAS).map((type) => [type, 'ignored']),
    ) as EventHandlers;
    // @ts-expect-error 'brand.new' has no handler and is not ignored.
    const stale: HandlersOf<WithNewEvent> = existingReader;
    const decided: HandlersOf<WithNewEvent> = { ...existingReader, 'brand.new': 'ignored' };
    expect(Object.keys(decided)).toContain('brand.new');
    expect(Object.keys(stale)).not.toContain('brand.new');
  });

  it('a handler gets the event narrowed to its type; ignored types and types a newer tenet wrote give undefined', () => {
    const seen: string[] = [];
    const handlers = {
      ...(Object.fromEntries(Object.keys(EVENT_SCHEMAS).map((type) => [type, 'ignored'])) as EventHandlers<
        [string],
        string
      >),
      warning: (event: { message: string }, prefix: string) => `${prefix}${event.message}`,
    };
    expect(handleEvent(handlers, aWarning, '! ')).toBe('! careful');
    expect(handleEvent(handlers, { type: 'session.interrupted', reason: 'x' }, '')).toBeUndefined();
    expect(handleEvent(handlers, { type: 'from.the.future' } as unknown as EngineEvent, '')).toBeUndefined();
    expect(seen).toEqual([]);
  });

  it("the Markdown transcript shows a run's error and the kept tests (its switch ignored both)", () => {
    const text = markdownTranscript('s1', [
      { type: 'error', message: 'the provider is down', fix: 'try again later' },
      { type: 'tests.kept', file: 'tests/test_by_agent.py' },
    ]);
    expect(text).toContain('> **Error:** the provider is down — fix: try again later');
    expect(text).toContain("_The agent's tests were kept in the checkout: `tests/test_by_agent.py`._");
  });
});

describe('the schemas are exact', () => {
  const result = JSON.parse(
    readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .find((line) => line.includes('"type":"result"'))!,
  ) as Record<string, unknown>;

  const problemOf = (value: object) => eventShapeProblem(value as { type: string });

  it('a stop reason, a phase or a writer outside their lists is refused, naming the field', () => {
    expect(problemOf(result)).toBeUndefined();
    expect(problemOf({ ...result, stopReason: 'tired' })).toMatch(/^stopReason: /);
    expect(problemOf({ type: 'agent.phase', phase: 'napping' })).toMatch(/^phase: /);
    expect(problemOf({ type: 'agent.phase', phase: 'evaluate', stopReason: 'tired' })).toMatch(/^stopReason: /);
    expect(problemOf({ type: 'debugger.input', who: 'someone', input: 'p x', mode: 'pdb' })).toMatch(/^who: /);
    expect(problemOf({ type: 'thm.test', phase: 'probe', nodeid: 't.py::a', outcome: 'failed' })).toMatch(/^reached: /);
  });

  it('every event of the recorded demo session has the shape of its type', () => {
    const lines = readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8')
      .trim()
      .split('\n');
    const problems = lines
      .map((line, i) => [i + 1, eventShapeProblem(JSON.parse(line) as { type: string })])
      .filter(([, problem]) => problem);
    expect(lines.length).toBeGreaterThan(50);
    expect(problems).toEqual([]);
  });
});

describe("the session page's cards", () => {
  const page = (file: string) => readFileSync(join(ROOT, 'source', 'engine', 'session', 'page', file), 'utf8');

  it('every card kind the event table names has a renderer in render-card.ts, typed over every kind', () => {
    const source = page('render-card.ts');
    expect(source).toContain('const RENDERERS: Record<CardKind, Renderer> = {');
    const renderers = source.match(/const RENDERERS: [^=]*= \{([^}]*)\}/)![1]!;
    const kinds = new Set([...renderers.matchAll(/^\s*'?([\w-]+)'?:/gm)].map((m) => m[1]));
    const missing = [...new Set(Object.values(PAGE_CARD_OF))].filter((kind) => kind !== 'ignored' && !kinds.has(kind));
    expect(kinds.size).toBeGreaterThan(10);
    expect(missing).toEqual([]);
  });

  it("timeline.ts's cases name event types there are, and it takes every other card from the table", () => {
    const timeline = page('timeline.ts');
    const cases = [...timeline.matchAll(/case '([\w.-]+)':/g)].map((m) => m[1]!).filter((name) => name.includes('.'));
    expect(cases.length).toBeGreaterThan(10);
    expect(cases.filter((type) => !Object.hasOwn(EVENT_SCHEMAS, type))).toEqual([]);
    expect(timeline).toContain('PAGE_CARD_OF[type as EventType]');
    expect(timeline).not.toContain('OWN_CARD');
  });
});
