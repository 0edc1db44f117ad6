import { describe, expect, it } from 'vitest';
import { coverage, open } from '../helpers/mutation';

// Line and branch coverage of the target function.
describe('coverage of the target function', () => {
  it('counts lines and both outcomes of each if', async () => {
    const task = await open('final_score');
    const weak = await coverage(task, 'tests/test_weak.py');
    expect(weak.lines).toEqual({ covered: 4, total: 6 });
    expect(weak.missingLines).toEqual([8, 10]);
    expect(weak.branches).toEqual({ covered: 2, total: 4 });
    expect(weak.missingBranches).toEqual([
      { line: 7, kind: 'if', label: 'true', to: 8 },
      { line: 9, kind: 'if', label: 'true', to: 10 },
    ]);
    expect(weak.tests.passed).toBe(1);
    const strong = await coverage(task, 'tests/test_strong.py');
    expect([strong.lines, strong.branches, strong.missingLines]).toEqual([
      { covered: 6, total: 6 },
      { covered: 4, total: 4 },
      [],
    ]);
    expect(strong.tests.passed).toBe(5);
  });

  it('counts for loops and elif chains; `else:` is not a line', async () => {
    const task = await open('summarize');
    const report = await coverage(task, 'tests/test_summary.py');
    expect(report.lines).toEqual({ covered: 8, total: 10 });
    expect(report.missingLines).toEqual([28, 32]);
    // for: iteration and exhaustion; `v is None` false only; `v < 0` both; `v == 0` false only.
    expect(report.branches).toEqual({ covered: 6, total: 8 });
    expect(report.missingBranches).toEqual([
      { line: 27, kind: 'if', label: 'true', to: 28 },
      { line: 31, kind: 'if', label: 'true', to: 32 },
    ]);
  });

  it('counts a while loop entered and left', async () => {
    const task = await open('halvings');
    const report = await coverage(task, 'tests/test_halvings.py');
    expect([report.lines, report.branches]).toEqual([
      { covered: 5, total: 5 },
      { covered: 2, total: 2 },
    ]);
  });
});
