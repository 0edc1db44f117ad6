import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { generateMutants } from '../../source/engine/quality/mutants';
import { GENEROUS_MS, mutate, open, statuses } from '../helpers/mutation';

// Mutation runs at the edges: failing, unrelated and looping tests, stale bytecode, invalid mutants.
describe('mutation score of a test file', () => {
  it('a test file that fails on the ground truth scores 0 without running a mutant', async () => {
    const task = await open('final_score');
    const report = await mutate(task, 'tests/test_wrong.py');
    expect(report.baselinePassed).toBe(false);
    expect(report.score).toBe(0);
    expect(report.total).toBe(0);
    expect(new Set(report.mutants.map((m) => m.status))).toEqual(new Set(['not run']));
    expect(report.mutants).toHaveLength(11);
    expect(report.baseline.output).toContain('assert 100 == 150');
  });

  it('tests that never import the target cannot kill a mutant, and the report says why', async () => {
    const task = await open('final_score');
    const report = await mutate(task, 'tests/test_unrelated.py');
    expect([report.baselinePassed, report.survived, report.total, report.score]).toEqual([true, 11, 11, 0]);
    expect(report.warnings).toEqual([
      expect.stringContaining('the tests never imported src/grading/core.py from the workspace'),
    ]);
  });

  it('a mutant that loops forever is killed by the timeout', async () => {
    const task = await open('halvings');
    const report = await mutate(task, 'tests/test_halvings.py', { timeoutMs: 6000 });
    expect([report.killed, report.timedOut, report.survived, report.total, report.score]).toEqual([10, 1, 0, 11, 1]);
    const looping = report.mutants.find((m) => m.status === 'timeout')!;
    expect(looping.description).toBe('line 18: n = n // 2 → pass');
    expect(looping.durationMs).toBeGreaterThanOrEqual(6000);
    expect(report.timeoutMs).toBe(6000);
  });

  it('a valid .pyc of the ground truth does not hide the mutant, and a mutant Python rejects is invalid', async () => {
    const task = await open('final_score');
    // A fresh, valid bytecode cache of the original module, as a previous test run leaves it.
    execFileSync(task.python.executable, ['-m', 'py_compile', task.workspace.path(task.target.file)]);
    const mutants = await generateMutants(task.target.originalText, { qualname: 'final_score' });
    const removeReturn = mutants.find((m) => m.description === 'line 11: return total → return None')!;
    // A module Python refuses to compile, handed over as a mutant: generateMutants' tree-sitter
    // check would drop this one, the worker's compile() catches what tree-sitter lets through.
    const invalid = {
      ...removeReturn,
      id: 'bad',
      text: task.target.originalText.replace('return total', 'return total +'),
    };
    const report = await mutate(task, 'tests/test_weak.py', {
      mutants: [removeReturn, invalid],
      timeoutMs: GENEROUS_MS,
    });
    expect(statuses(report)).toEqual({ m11: 'killed', bad: 'invalid' });
    expect([report.killed, report.invalid, report.total]).toEqual([1, 1, 1]);
  });
});
