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

const demoEvents = readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8')
  .trim()
  .split('\n')
  .map((line) => JSON.parse(line) as { ts: string });

interface Cast {
  header: Record<string, unknown>;
  events: [number, string, string][];
}

function parseCast(text: string): Cast {
  expect(text.endsWith('\n')).toBe(true);
  const [head, ...rest] = text.trimEnd().split('\n');
  return {
    header: JSON.parse(head!) as Record<string, unknown>,
    events: rest.map((line) => JSON.parse(line) as [number, string, string]),
  };
}

/**
 * The screen of a `cols`×`rows` terminal, as far as a cast drives it: cursor moves (CSI row;col H),
 * clearing (CSI K, J, 2J), colours (ignored) and text. Text past the right edge or a move below the
 * last row is an error: the frame would not fit the terminal the header names.
 */
class Screen {
  rows: string[][];
  private row = 0;
  private col = 0;
  constructor(
    readonly width: number,
    readonly height: number,
  ) {
    this.rows = Array.from({ length: height }, () => []);
  }
  write(data: string): void {
    // eslint-disable-next-line no-control-regex
    for (const [, csi, text] of data.matchAll(/\x1b\[([0-9;?]*[A-Za-z])|([^\x1b]+)/g)) {
      if (csi) this.control(csi);
      else for (const char of text!) this.put(char);
    }
  }
  text(): string {
    return this.rows.map((r) => r.join('').trimEnd()).join('\n');
  }
  private control(csi: string): void {
    const final = csi.at(-1)!;
    const args = csi.slice(0, -1);
    if (final === 'H') {
      const [row = 1, col = 1] = args ? args.split(';').map(Number) : [];
      if (row > this.height || col > this.width)
        throw new Error(`a move to ${row};${col}, off a ${this.width}×${this.height} screen`);
      [this.row, this.col] = [row - 1, col - 1];
    } else if (final === 'K') this.rows[this.row]!.length = this.col;
    else if (final === 'J') {
      if (args === '2') this.rows = this.rows.map(() => []);
      else this.rows = this.rows.map((r, i) => (i === this.row ? r.slice(0, this.col) : i > this.row ? [] : r));
    }
    // Colours and the cursor's visibility change nothing on the screen.
  }
  private put(char: string): void {
    if (char === '\r') this.col = 0;
    else if (char === '\n') {
      if (++this.row >= this.height) throw new Error('a newline on the last row scrolls the screen');
    } else {
      if (this.col >= this.width)
        throw new Error(
          `row ${this.row + 1} is wider than ${this.width} columns: ${this.rows[this.row]!.join('')}${char}`,
        );
      this.rows[this.row]![this.col++] = char;
    }
  }
}

/** The screen after each output event. */
function play(cast: Cast): string[] {
  const screen = new Screen(cast.header.width as number, cast.header.height as number);
  return cast.events.map(([, , data]) => {
    screen.write(data);
    return screen.text();
  });
}

describe('tenet export --format cast', () => {
  it('the demo session: a v2 header, one output event per frame in time order, the THM review and the verdict in it, every frame inside the terminal', async () => {
    const out = join(scratch, 'demo.cast');
    const result = await runCli([
      'export',
      'demo',
      '--format',
      'cast',
      '--out',
      out,
      '--cols',
      '90',
      '--rows',
      '28',
      '--idle-limit',
      '0.5',
    ]);
    expect(result.code, result.stderr).toBe(0);
    const { header, events } = parseCast(readFileSync(out, 'utf8'));
    expect(header).toMatchObject({
      version: 2,
      width: 90,
      height: 28,
      idle_time_limit: 0.5,
      title: 'tenet session demo · invoicing/tax.py::tax_for',
    });
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
    // Played on a 90×28 screen: every frame fits (the screen model refuses anything that does not).
    const screens = play({ header, events });
    // The session's own timing: THM's run took most of a second (in steps under the limit), and its review comes that late.
    const review = screens.findIndex((screen) => screen.includes('Selected 3 (T=3)'));
    expect(review, 'the THM review').toBeGreaterThan(0);
    const thmMs =
      Date.parse(demoEvents.find((e) => (e as { type?: string }).type === 'thm.report')!.ts) -
      Date.parse(demoEvents[0]!.ts);
    expect(events[review]![0]).toBeCloseTo(thmMs / 1000, 2);
    expect(screens[review]).toContain('invoicing/invoice.py::Invoice.tax');
    expect(screens[review]).toMatch(/^ replay demo · event \d+\/113 · ▶ 1×/);

    const verdict = screens.findIndex((screen) => screen.includes('PASS: 3/3 selected passed, 9/9 hidden passed'));
    expect(verdict, 'the verdict').toBeGreaterThan(review);
    // The agent's work between them, as the replay shows it (the scripted demo model answers at
    // once: of its milliseconds-apart events a cast keeps what Ink would draw, and every stage and test run).
    const between = screens.slice(review, verdict).join('\n');
    expect(between).toContain('pre-generation');
    expect(between).toContain('Refinement attempt 1/5');
    expect(between).toContain('selected tests: 2/3 passed');

    // The first frame clears the screen and hides the cursor; the last gives it back.
    expect(events[0]![2].startsWith('\x1b[?25l\x1b[H\x1b[2J')).toBe(true);
    expect(events.at(-1)![2]).toBe('\x1b[?25h');
  }, 60_000);

  it('the default terminal is 100×30 with waits of at most 2 s; without --out the cast goes to stdout, in colour unless NO_COLOR', async () => {
    const result = await runCli(['export', 'demo', '--format', 'cast']);
    expect(result.code, result.stderr).toBe(0);
    const { header, events } = parseCast(result.stdout);
    expect(header).toMatchObject({ version: 2, width: 100, height: 30, idle_time_limit: 2 });
    expect(play({ header, events }).at(-1)).toMatch(/^ replay demo · event 113\/113 · ⏸ 1×/);
    // In colour though stdout is a pipe (a cast is for a terminal); NO_COLOR turns colours off.
    // eslint-disable-next-line no-control-regex
    const SGR = /\x1b\[[0-9;]*m/;
    expect(events.some((e) => SGR.test(e[2]))).toBe(true);
    const plain = await runCli(['export', 'demo', '--format', 'cast'], { env: { NO_COLOR: '1' } });
    expect(parseCast(plain.stdout).events.some((e) => SGR.test(e[2]))).toBe(false);
    expect(play(parseCast(plain.stdout)).at(-1)).toContain('PASS');
    // The smallest terminal the screens lay out for: every frame still fits it.
    const small = await runCli(['export', 'demo', '--format', 'cast', '--cols', '40', '--rows', '10']);
    expect(small.code, small.stderr).toBe(0);
    expect(play(parseCast(small.stdout)).at(-1)).toContain('PASS');
  }, 60_000);
});
