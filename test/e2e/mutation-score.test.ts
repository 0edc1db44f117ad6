import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { GENEROUS_MS, mutate, open, mutateText } from '../helpers/mutation';

// Mutation scores of test files of known strength (test/helpers/mutation.ts says how they were counted).
describe('mutation score of a test file', () => {
  it('strong tests kill every mutant but the two equivalent ones, in parallel workers', async () => {
    const task = await open('final_score');
    const report = await mutate(task, 'tests/test_strong.py', { jobs: 2, timeoutMs: GENEROUS_MS });
    expect(report.baselinePassed).toBe(true);
    expect([report.killed, report.survived, report.timedOut, report.invalid, report.errors, report.total]).toEqual([
      9, 2, 0, 0, 0, 11,
    ]);
    expect(report.score).toBeCloseTo(9 / 11);
    expect(report.mutants.filter((m) => m.status === 'survived').map((m) => m.description)).toEqual([
      'line 7: > → >=',
      'line 9: < → <=',
    ]);
    // The workspace still holds the ground truth: mutants never touch the disk.
    expect(readFileSync(task.workspace.path(task.target.file), 'utf8')).toBe(task.target.originalText);
  });

  it("`tenet mutate`'s text when the tests fail on the function as it is: score 0, why, pytest's output; exit 1", async () => {
    const { code, text } = await mutateText({ tests: 'tests/test_wrong.py' });
    expect(code).toBe(1);
    expect(text).toContain(
      '  mutation score 0 %: the tests fail on the target as the repository has it; no mutant was run\n',
    );
    expect(text).toMatch(/^ {2}\| .*assert 100 == 150/m);
    expect(text).not.toContain('Survivors');
  });
});
