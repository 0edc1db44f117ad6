import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures';
import { thmOn } from '../helpers/thm';

// Issue 33, item 1: under `filterwarnings = error` (click, flask), benchmark mode's worlds in
// lanes reported the first test of each lane of the original world as already failing: the lane
// fork left a file to the garbage collector, whose ResourceWarning came out in every lane forked
// next. Every mode must give what plain pytest gives: all 41 tests fail blank and pass original.
describe('a suite that turns warnings into errors', () => {
  it.each([
    ['both worlds in two lanes each', { jobs: 2 as const }],
    ['one process, a blank twin per test', { jobs: 1 as const }],
    ['two passes', { jobs: 2 as const, onePass: false }],
  ])(
    '%s: every test fails blank, none is already failing',
    async (_name, mode) => {
      const { report } = await thmOn(join(FIXTURES, 'strictwarnings'), 'wraptext/lines.py::wrap_words', {
        blank: true,
        ...mode,
      });
      expect(report.alreadyFailing).toEqual([]);
      expect(report.failing).toHaveLength(41);
      expect(report.counts.passed).toBe(0);
    },
    120_000,
  );
});
