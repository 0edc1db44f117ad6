import stringWidth from 'string-width';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { progressLine } from '../../source/commands/progress-line';
import type { EngineEvent } from '../../source/engine/events';
import { sampleReport } from '../ui/helpers';

// Issue 46.15–17, on sympy's suite: `tenet thm`'s line wrapped at 80 columns (13,866 tests make it
// long) and every redraw left a new line, 28 stacked; 91 s of silence while pytest collected, and
// nothing at all with --json; and the evaluation, the slowest step (199 s), showed no progress.

const plain = (text: string) => text.replace(/\r|\x1b\[2K/g, '');

function capture(isTTY: boolean, columns = 80) {
  const writes: string[] = [];
  const stream = { isTTY, columns, write: (text: string) => void writes.push(text) } as unknown as NodeJS.WriteStream;
  return { stream, writes };
}

const test = (i: number): EngineEvent => ({
  type: 'thm.test',
  phase: 'probe',
  nodeid: `sympy/core/tests/test_arit.py::test_${i}`,
  outcome: 'passed',
  reached: false,
  durationMs: 1,
});

beforeEach(() => vi.useFakeTimers({ now: 0 }));
afterEach(() => vi.useRealTimers());

describe('the progress line of a headless command', () => {
  it('in an 80-column terminal never wraps: each redraw fits the width, with no newline', () => {
    const { stream, writes } = capture(true, 80);
    const progress = progressLine(stream);
    progress.onEvent({ type: 'thm.phase', phase: 'probe' });
    progress.onEvent({ type: 'thm.collected', phase: 'probe', total: 13_866 });
    for (let i = 0; i < 50; i++) {
      vi.setSystemTime(i * 200);
      progress.onEvent(test(i));
    }
    progress.clear();
    expect(writes.length).toBeGreaterThan(5);
    for (const write of writes) {
      expect(write).not.toContain('\n');
      expect(stringWidth(plain(write))).toBeLessThan(80);
    }
  });

  it('while pytest collects and no test has run: says so, and how long, every second in a terminal', () => {
    const { stream, writes } = capture(true, 120);
    const progress = progressLine(stream);
    progress.onEvent({ type: 'thm.phase', phase: 'probe' });
    vi.advanceTimersByTime(41_000);
    expect(plain(writes.at(-1)!)).toContain('THM: collecting… 41.0 s');
    progress.onEvent({ type: 'thm.collecting', phase: 'probe', files: 12, tests: 340 });
    vi.advanceTimersByTime(1000);
    expect(plain(writes.at(-1)!)).toContain('collecting… 42.0 s · 12 files, 340 tests so far');
    progress.clear();
  });

  it('not in a terminal: a plain line every 15 s while collecting; with --json, a JSON object per line', () => {
    const log = capture(false);
    const json = capture(false);
    const lines = progressLine(log.stream);
    const objects = progressLine(json.stream, { json: true });
    for (const p of [lines, objects]) p.onEvent({ type: 'thm.phase', phase: 'probe' });
    vi.advanceTimersByTime(31_000);
    expect(log.writes).toEqual(['THM: collecting… 15 s\n', 'THM: collecting… 30 s\n']);
    expect(json.writes.map((w) => JSON.parse(w))).toEqual([
      { progress: 'thm', phase: 'probe', done: 0, total: 0, failing: 0, seconds: 15 },
      { progress: 'thm', phase: 'probe', done: 0, total: 0, failing: 0, seconds: 30 },
    ]);
    lines.clear();
    objects.clear();
  });

  it('the evaluation: a line from its start to its result, with the number of tests it runs', () => {
    const { stream, writes } = capture(true, 120);
    const progress = progressLine(stream);
    progress.onEvent({ type: 'thm.report', report: sampleReport() });
    progress.onEvent({ type: 'agent.phase', phase: 'evaluate' });
    vi.advanceTimersByTime(3000);
    expect(plain(writes.at(-1)!)).toBe('evaluating the patch on 4 failing tests (the selected and the hidden) · 3.0 s');
    progress.onEvent({ type: 'tests.run', purpose: 'evaluate', report: '', outcomes: {}, passed: 4, total: 4 });
    expect(writes.at(-1)).toBe('\r\x1b[2K');
    const before = writes.length;
    vi.advanceTimersByTime(5000);
    expect(writes.length).toBe(before);
    progress.clear();
  });
});
