import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { EventLog, loadEvents, parseEvents, scanEvents } from '../../source/engine/session/event-log';
import { foldEvents } from '../../source/engine/session/fold';
import { secretRedactor } from '../../source/engine/util/redact';
import { ROOT } from '../helpers/fixtures';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-session-log-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The shipped demo session: a real log of every common event type. */
const demo = readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8');
const demoLines = demo.trimEnd().split('\n');
const lineOf = (type: string) => demoLines.findIndex((l) => l.includes(`"type":"${type}"`));

/** The demo log with line `index` changed by `edit` (as a hand edit would). */
function edited(index: number, edit: (event: Record<string, unknown>) => void): string {
  const lines = [...demoLines];
  const event = JSON.parse(lines[index]!) as Record<string, unknown>;
  edit(event);
  lines[index] = JSON.stringify(event);
  return `${lines.join('\n')}\n`;
}

describe('a line that is JSON but not a valid event is an error naming it', () => {
  it('accepts every event of a real session', () => {
    expect(parseEvents(demo, 'demo').events).toHaveLength(demoLines.length);
  });

  it.each([
    [
      'model.response without usage',
      'model.response',
      (e: Record<string, unknown>) => delete e.usage,
      /usage: .*expected object/,
    ],
    [
      'model.response with toolCalls: null',
      'model.response',
      (e: Record<string, unknown>) => (e.toolCalls = null),
      /toolCalls: .*expected array/,
    ],
    [
      'model.request with a message of no role',
      'model.request',
      (e: Record<string, unknown>) => (e.newMessages = [{ content: 'x' }]),
      /newMessages\.0/,
    ],
    [
      'result without its test counts',
      'result',
      (e: Record<string, unknown>) => delete e.selectedTests,
      /selectedTests/,
    ],
    [
      'thm.report whose report is a string',
      'thm.report',
      (e: Record<string, unknown>) => (e.report = 'x'),
      /report: .*expected object/,
    ],
    [
      'index.ready without its file count',
      'index.ready',
      (e: Record<string, unknown>) => delete e.files,
      /files: .*expected number/,
    ],
    [
      'patch.decision with applied: "yes"',
      'patch.decision',
      (e: Record<string, unknown>) => (e.applied = 'yes'),
      /applied: .*expected boolean/,
    ],
  ])('%s', (_name, type, edit, reason) => {
    const index = lineOf(type);
    expect(index).toBeGreaterThanOrEqual(0);
    const text = edited(index, edit);
    expect(() => parseEvents(text, 'events.jsonl')).toThrow(
      new RegExp(`^events\\.jsonl:${index + 1} is not a valid ${type.replace('.', '\\.')} event`),
    );
    expect(() => parseEvents(text, 'events.jsonl')).toThrow(reason);
  });

  it('checks command.approval, which the demo session has none of', () => {
    const line = (decision: string) =>
      JSON.stringify({
        v: 1,
        seq: demoLines.length + 1,
        ts: 'now',
        type: 'command.approval',
        command: 'ls',
        decision,
        by: 'human',
      });
    expect(parseEvents(`${demo}${line('denied')}\n`, 'x').events.at(-1)?.type).toBe('command.approval');
    expect(() => parseEvents(`${demo}${line('maybe')}\n`, 'events.jsonl')).toThrow(
      new RegExp(`^events\\.jsonl:${demoLines.length + 1} is not a valid command\\.approval event`),
    );
  });

  it('accepts event types it does not know (written by a newer tenet, ignored by readers)', () => {
    const text = `${demo}${JSON.stringify({ v: 1, seq: demoLines.length + 1, ts: 'now', type: 'review.note', anything: 1 })}\n`;
    expect(parseEvents(text, 'x').events.at(-1)?.type).toBe('review.note');
    // A name that objects inherit is no schema either.
    const inherited = `${demo}${JSON.stringify({ v: 1, seq: demoLines.length + 1, ts: 'now', type: 'toString' })}\n`;
    expect(parseEvents(inherited, 'x').events.at(-1)?.type).toBe('toString');
    // …and says so (issue 34, item 7: it was accepted silently).
    expect(parseEvents(text, 'x').warnings).toEqual([
      'x: 1 event of a type this tenet does not know (review.note), written by a newer tenet or by hand: read, and left out of what is shown',
    ]);
    expect(parseEvents(demo, 'x').warnings).toEqual([]);
  });
});

describe('opening a log for appending after an interruption', () => {
  const redactor = secretRedactor({});
  const append = (file: string) => {
    const log = EventLog.open(file, redactor);
    log.append({ type: 'warning', message: 'after resume' });
    log.close();
    return log;
  };

  it('cuts a torn last line off, so the next event starts a line of its own', () => {
    const file = join(scratch, 'torn', 'events.jsonl');
    mkdirSync(join(scratch, 'torn'));
    const cut = demoLines.slice(0, 40).join('\n');
    writeFileSync(file, `${cut}\n${demoLines[40]!.slice(0, 25)}`);
    const log = append(file);
    expect(log.warnings[0]).toMatch(/dropped the last line/);
    const loaded = loadEvents(file);
    expect(loaded.warnings).toEqual([]);
    expect(loaded.events.map((e) => e.seq)).toEqual([...Array.from({ length: 40 }, (_, i) => i + 1), 41]);
    expect(loaded.events.at(-1)).toMatchObject({ type: 'warning', message: 'after resume' });
  });

  it('keeps an unterminated last line that is a whole event, and ends it', () => {
    const file = join(scratch, 'unterminated', 'events.jsonl');
    mkdirSync(join(scratch, 'unterminated'));
    writeFileSync(file, demoLines.slice(0, 10).join('\n'));
    append(file);
    expect(loadEvents(file).events.map((e) => e.seq)).toEqual(Array.from({ length: 11 }, (_, i) => i + 1));
  });

  it('refuses to append to a log with a bad line in the middle', () => {
    const file = join(scratch, 'bad', 'events.jsonl');
    mkdirSync(join(scratch, 'bad'));
    writeFileSync(
      file,
      edited(lineOf('model.response'), (e) => delete e.usage),
    );
    expect(() => EventLog.open(file, redactor)).toThrow(/is not a valid model\.response event/);
  });
});

describe('the catalog with a damaged session', () => {
  it('lists it as damaged, with the reason, and the others as usual', () => {
    const root = join(scratch, 'catalog');
    for (const id of ['20260101-000000-aaaaaa', '20260101-000001-bbbbbb'])
      mkdirSync(join(root, id), { recursive: true });
    writeFileSync(join(root, '20260101-000000-aaaaaa', 'events.jsonl'), demo);
    writeFileSync(
      join(root, '20260101-000001-bbbbbb', 'events.jsonl'),
      edited(lineOf('model.response'), (e) => (e.toolCalls = null)),
    );
    const rows = new Catalog(root).list();
    expect(rows.find((r) => r.id === '20260101-000000-aaaaaa')).toMatchObject({
      status: 'passed',
      events: demoLines.length,
    });
    const damaged = rows.find((r) => r.id === '20260101-000001-bbbbbb');
    expect(damaged?.status).toBe('damaged');
    expect(damaged?.damage).toContain(
      `events.jsonl:${lineOf('model.response') + 1} is not a valid model.response event`,
    );
    // Fixed by hand: listed from its log again.
    writeFileSync(join(root, '20260101-000001-bbbbbb', 'events.jsonl'), demo);
    expect(new Catalog(root).list().find((r) => r.id === '20260101-000001-bbbbbb')).toMatchObject({ status: 'passed' });
  });
});

describe('the model settings of a resumed session', () => {
  it('are the latest a resume recorded', () => {
    const events = parseEvents(demo, 'demo').events.filter((e) => e.type !== 'result');
    expect(foldEvents(events).settings).toEqual({ provider: 'scripted', model: 'scripted' });
    const resumed = [
      ...events,
      {
        type: 'session.resumed' as const,
        fromSeq: 1,
        position: 'x',
        provider: 'openai',
        model: 'gpt-4o-mini',
        baseUrl: 'http://127.0.0.1:1/v1',
      },
    ];
    expect(foldEvents(resumed).settings).toEqual({
      provider: 'openai',
      model: 'gpt-4o-mini',
      baseUrl: 'http://127.0.0.1:1/v1',
    });
    // An older log's resume recorded no settings: the earlier ones stay.
    expect(
      foldEvents([...resumed, { type: 'session.resumed' as const, fromSeq: 2, position: 'y' }]).settings?.model,
    ).toBe('gpt-4o-mini');
  });
});

describe('what a resumed session does with its patch', () => {
  it("is the run's --apply, then the latest a resume recorded", () => {
    const events = parseEvents(demo, 'demo').events.filter((e) => e.type !== 'result');
    expect(foldEvents(events).applyPatch).toEqual({ apply: false, applyFailing: false });
    const withApply = events.map((e) =>
      e.type === 'session.start' ? { ...e, config: { ...e.config, apply: true } } : e,
    );
    expect(foldEvents(withApply).applyPatch).toEqual({ apply: true, applyFailing: false });
    const resumed = [
      ...withApply,
      { type: 'session.resumed' as const, fromSeq: 1, position: 'x', apply: true, applyFailing: true },
    ];
    expect(foldEvents(resumed).applyPatch).toEqual({ apply: true, applyFailing: true });
    // An older log's resume recorded nothing about the patch: the earlier choice stays.
    expect(
      foldEvents([...resumed, { type: 'session.resumed' as const, fromSeq: 2, position: 'y' }]).applyPatch,
    ).toEqual({ apply: true, applyFailing: true });
  });
});

describe('the script of a scripted session', () => {
  it("is the run's, from its first answer, then the one a resume gave, from the answers before it", () => {
    const events = parseEvents(demo, 'demo').events.filter((e) => e.type !== 'result');
    const start = events.find((e) => e.type === 'session.start');
    expect(foldEvents(events).script).toEqual({
      file: start?.type === 'session.start' ? start.config.scriptFile : undefined,
      from: 0,
    });
    const resumed = [
      ...events,
      {
        type: 'session.resumed' as const,
        fromSeq: 1,
        position: 'x',
        provider: 'scripted',
        model: 'scripted',
        scriptFile: '/more.json',
        scriptFrom: 3,
      },
    ];
    expect(foldEvents(resumed).script).toEqual({ file: '/more.json', from: 3 });
  });
});

// Issue 34, item 7: a log that is no regular file, or a line that never ends, hung the readers
// (show, replay, export, sessions, resume) or grew their memory without bound.
describe('a log that cannot be a session', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'tenet-odd-log-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('a FIFO is refused at once, not waited on', () => {
    const fifo = join(scratch, 'fifo.jsonl');
    execFileSync('mkfifo', [fifo]);
    expect(() => scanEvents(fifo)).toThrow(`${fifo} is a FIFO, not a session log (a regular file).`);
  });

  it('a device (/dev/zero, which never ends a line) is refused', () => {
    expect(() => scanEvents('/dev/zero')).toThrow('/dev/zero is a device, not a session log (a regular file).');
  });

  it('a line longer than any event is an error naming it', () => {
    const file = join(scratch, 'long.jsonl');
    writeFileSync(file, `${demoLines[0]}\n${'x'.repeat(5000)}`);
    expect(() => scanEvents(file, () => undefined, 1000)).toThrow(
      `${file}:2 is a line of more than 1000 bytes with no end`,
    );
  });
});

describe('fields an older tenet wrote under another name are read under their name of today', () => {
  /** The demo log with THM's twin mode written as before it was renamed (`fork`, in all three places). */
  const older = (twins: boolean) => {
    let text = edited(lineOf('session.start'), (e) => {
      const config = e.config as Record<string, unknown>;
      delete config.onePass;
      config.fork = true;
    });
    for (const type of ['thm.start', 'thm.report']) {
      const lines = text.trimEnd().split('\n');
      const index = lines.findIndex((l) => l.includes(`"type":"${type}"`));
      const event = JSON.parse(lines[index]!) as Record<string, unknown>;
      const report = (type === 'thm.report' ? event.report : event) as Record<string, unknown>;
      delete report.twins;
      report.fork = twins;
      lines[index] = JSON.stringify(event);
      text = `${lines.join('\n')}\n`;
    }
    return text;
  };

  it.each([true, false])('fork: %s becomes twins, and the settings’ fork onePass', (twins) => {
    const text = older(twins);
    expect(text).toContain(`"fork":${twins}`);
    const { events } = parseEvents(text, 'older');
    const start = events.find((e) => e.type === 'thm.start');
    const report = events.find((e) => e.type === 'thm.report');
    const session = events.find((e) => e.type === 'session.start');
    expect(start).toMatchObject({ twins });
    expect(start).not.toHaveProperty('fork');
    expect(report?.type === 'thm.report' && report.report).toMatchObject({ twins });
    expect(report?.type === 'thm.report' && report.report).not.toHaveProperty('fork');
    expect(session?.type === 'session.start' && session.config).toMatchObject({ onePass: true });
  });

  it('a field under its name of today is kept when an old name is there too', () => {
    const text = edited(lineOf('thm.start'), (e) => {
      e.twins = false;
      e.fork = true;
    });
    expect(parseEvents(text, 'both').events.find((e) => e.type === 'thm.start')).toMatchObject({ twins: false });
  });
});
