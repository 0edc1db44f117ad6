import { describe, expect, it } from 'vitest';
import { asciicast } from '../../source/engine/session/asciicast';

// Issue 37.13: the cast's timing is the session's, with long waits shortened to the idle limit.

const options = { cols: 40, rows: 10, idleLimit: 2, title: 't', startedMs: Date.parse('2026-12-01T00:00:00Z') };
const events = (text: string) =>
  text
    .trimEnd()
    .split('\n')
    .slice(1)
    .map((line) => JSON.parse(line) as [number, string, string]);

describe('asciicast', () => {
  it('keeps short waits, shortens long ones to the idle limit, and leaves out a frame that changes nothing', () => {
    const cast = asciicast(
      [
        { atMs: 0, rows: ['first'] },
        { atMs: 300, rows: ['second'] },
        { atMs: 60_300, rows: ['third'] }, // a minute-long test run
        { atMs: 60_400, rows: ['third'] }, // the same screen
        { atMs: 61_400, rows: ['fourth'] },
      ],
      options,
    );
    const header = JSON.parse(cast.split('\n')[0]!) as Record<string, unknown>;
    expect(header).toMatchObject({
      version: 2,
      width: 40,
      height: 10,
      timestamp: Math.floor(options.startedMs / 1000),
      idle_time_limit: 2,
    });
    const out = events(cast);
    // The unchanged screen stays from 60.3 s to 61.4 s: 1.1 s. Then the end, a second after the last frame.
    expect(out.map((e) => e[0])).toEqual([0, 0.3, 2.3, 3.4, 4.4]);
    expect(out.slice(0, 4).map((e) => e[2].replace(/\x1b\[[0-9;?]*[A-Za-z]/g, ''))).toEqual([
      'first',
      'second',
      'third',
      'fourth',
    ]);
  });

  it('draws the first frame whole from the top-left corner, then only the rows that change, clearing what the last frame left; never past the last row', () => {
    const out = events(
      asciicast(
        [
          { atMs: 0, rows: Array.from({ length: 14 }, (_, i) => `row ${i}`) },
          { atMs: 10, rows: ['row 0', 'new 1', 'row 2'] },
        ],
        options,
      ),
    );
    expect(out[0]![2]).toBe(
      `\x1b[?25l\x1b[H\x1b[2J${Array.from({ length: 10 }, (_, i) => `\x1b[${i + 1};1Hrow ${i}\x1b[K`).join('')}`,
    );
    expect(out[1]![2]).toBe('\x1b[2;1Hnew 1\x1b[K\x1b[4;1H\x1b[J');
  });
});
