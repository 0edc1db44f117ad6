import { describe, expect, it, vi } from 'vitest';
import { mutateCommand } from '../../source/commands/mutate';
import { fixture, GENEROUS_MS, mutateText } from '../helpers/mutation';

// Mutation scores on one worker, through `tenet mutate` as the terminal and --json show them.
// One worker runs the baseline, the coverage and each mutant's pytest one after another: a
// dozen runs, which pass the default 60 s on a loaded machine (as the suite's own load makes it).
describe('mutation score of a test file', { timeout: 180_000 }, () => {
  it('weak tests kill 2 of 11, the same on one worker, through `tenet mutate --json`', async () => {
    const out: string[] = [];
    const write = vi
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
    let code: number;
    try {
      code = await mutateCommand({
        repo: fixture.dir,
        target: 'src/grading/core.py::final_score',
        tests: 'tests/test_weak.py',
        jobs: 1,
        json: true,
        timeout: GENEROUS_MS / 1000,
      });
    } finally {
      write.mockRestore();
    }
    expect(code).toBe(0);
    const result = JSON.parse(out.join(''));
    expect([result.killed, result.survived, result.total, result.jobs]).toEqual([2, 9, 11, 1]);
    expect(result.score).toBeCloseTo(2 / 11);
    // Removing `total = score + bonus` (UnboundLocalError) and `return total` → `return None`.
    expect(
      result.mutants
        .filter((m: { status: string }) => m.status === 'killed')
        .map((m: { description: string }) => m.description),
    ).toEqual(['line 6: total = score + bonus → pass', 'line 11: return total → return None']);
    expect(result.coverage.lines).toEqual({ covered: 4, total: 6 });
    expect(result.coverage.branches).toEqual({ covered: 2, total: 4 });
  });

  it("`tenet mutate`'s text: the score, coverage, what --max left out and the survivors, each named", async () => {
    const { code, text } = await mutateText({ tests: 'tests/test_weak.py' });
    expect(code).toBe(0);
    const lines = text.split('\n');
    expect(lines[0]).toBe('tenet mutate  src/grading/core.py::final_score  ·  tests/test_weak.py');
    expect(lines[1]).toBe('  mutation score 18.2 %  2 of 11 mutants killed · 9 survived');
    expect(lines[2]).toBe('  coverage  lines 4/6 (66.7 %) · branches 2/4 (50.0 %)');
    expect(text).toMatch(/^ {2}missing lines \d+, \d+$/m);
    expect(text).toMatch(
      /^ {2}tests \d+ passed · baseline [\d.]+ s · per-mutant timeout 30\.0 s · 1 worker · [\d.]+ s$/m,
    );
    expect(text).toContain('\nSurvivors (9): no test noticed these changes\n');
    expect(text).toMatch(/^ {2}m\d+ +line 7: > → >=$/m);
    // Fewer mutants than there are: the rest is said to be left out, not counted as survivors.
    const capped = await mutateText({ tests: 'tests/test_weak.py', max: 4 });
    expect(capped.text).toContain('  not scored: 7 left out by --max\n');
    expect(capped.text).toMatch(/ of 4 mutants killed/);
  });
});
