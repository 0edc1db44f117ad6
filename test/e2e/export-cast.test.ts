import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { ROOT } from '../helpers/fixtures';

// Issue 37.13: `tenet export SESSION --format cast` writes an asciinema v2 cast of the session as
// the replay draws it. asciinema itself is not on the CI machine: the format is checked here, from
// its specification (https://docs.asciinema.org/manual/asciicast/v2/).

const scratch = mkdtempSync(join(tmpdir(), 'tenet-cast-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// eslint-disable-next-line no-control-regex
const ESCAPES = /\x1b\[[0-9;?]*[A-Za-z]/g;
const demoEvents = readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8').trim().split('\n').map((line) => JSON.parse(line) as { ts: string });

interface Cast {
  header: Record<string, unknown>;
  events: [number, string, string][];
}

function parseCast(text: string): Cast {
  expect(text.endsWith('\n')).toBe(true);
  const [head, ...rest] = text.trimEnd().split('\n');
  return { header: JSON.parse(head!) as Record<string, unknown>, events: rest.map((line) => JSON.parse(line) as [number, string, string]) };
}

/** What a frame's rows read, escapes out (every frame is drawn whole, from the top-left corner). */
const rowsOf = (data: string) => data.replace(ESCAPES, '').split('\r\n');

describe('tenet export --format cast', () => {
  it('the demo session: a v2 header, one output event per frame in time order, the THM review and the verdict in it, every frame inside the terminal', async () => {
    const out = join(scratch, 'demo.cast');
    const result = await runCli(['export', 'demo', '--format', 'cast', '--out', out, '--cols', '90', '--rows', '28', '--idle-limit', '0.5']);
    expect(result.code, result.stderr).toBe(0);
    const { header, events } = parseCast(readFileSync(out, 'utf8'));
    expect(header).toMatchObject({ version: 2, width: 90, height: 28, idle_time_limit: 0.5, title: 'tenet session demo · invoicing/tax.py::tax_for' });
    expect(header.timestamp).toBe(Math.floor(Date.parse(demoEvents[0]!.ts) / 1000));

    expect(events.length).toBeGreaterThan(20);
    for (const event of events) {
      expect(event).toHaveLength(3);
      expect(typeof event[0]).toBe('number');
      expect(event[1]).toBe('o');
      expect(typeof event[2]).toBe('string');
    }
    const times = events.map((e) => e[0]);
    expect(times[0]).toBe(0);
    // In order, and no wait longer than --idle-limit.
    for (let i = 1; i < times.length; i++) {
      expect(times[i]!).toBeGreaterThanOrEqual(times[i - 1]!);
      expect(times[i]! - times[i - 1]!).toBeLessThanOrEqual(0.5 + 1e-6);
    }
    // The session's own timing: THM's run took most of a second (in steps under the limit), and its review comes that late.
    const review = events.find((e) => e[2].replace(ESCAPES, '').includes('Selected 3 (T=3)'));
    expect(review, 'the THM review').toBeDefined();
    const thmMs = Date.parse(demoEvents.find((e) => (e as { type?: string }).type === 'thm.report')!.ts) - Date.parse(demoEvents[0]!.ts);
    expect(review![0]).toBeCloseTo(thmMs / 1000, 2);
    expect(rowsOf(review![2]).join('\n')).toContain('invoicing/invoice.py::Invoice.tax');

    const verdict = events.findIndex((e) => e[2].replace(ESCAPES, '').includes('PASS: 3/3 selected passed, 9/9 hidden passed'));
    expect(verdict, 'the verdict').toBeGreaterThan(events.indexOf(review!));
    // The agent's work between them, as the replay shows it.
    const between = events.slice(events.indexOf(review!), verdict).map((e) => e[2].replace(ESCAPES, '')).join('\n');
    expect(between).toContain('→ search_target_usage');
    expect(between).toContain('Refinement attempt 1/5');

    // Every frame fits a 90×28 terminal: no row wider, no more rows (a longer frame would scroll it).
    for (const [, , data] of events) {
      const rows = rowsOf(data);
      expect(rows.length).toBeLessThanOrEqual(28);
      for (const row of rows) expect([...row].length, row).toBeLessThanOrEqual(90);
    }
    // The first frame clears the screen and hides the cursor; the last gives it back.
    expect(events[0]![2].startsWith('\x1b[?25l\x1b[H\x1b[2J')).toBe(true);
    expect(events.at(-1)![2]).toBe('\x1b[?25h');
  }, 60_000);

  it('the default terminal is 100×30 with waits of at most 2 s; without --out the cast goes to stdout', async () => {
    const result = await runCli(['export', 'demo', '--format', 'cast']);
    expect(result.code, result.stderr).toBe(0);
    const { header, events } = parseCast(result.stdout);
    expect(header).toMatchObject({ version: 2, width: 100, height: 30, idle_time_limit: 2 });
    expect(events.some((e) => e[2].replace(ESCAPES, '').includes(' replay demo · event 1/'))).toBe(true);
  }, 60_000);
});
