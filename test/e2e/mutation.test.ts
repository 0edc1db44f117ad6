import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import { mutateCommand } from '../../source/commands/mutate';
import { measureCoverage } from '../../source/engine/quality/coverage';
import { generateMutants } from '../../source/engine/quality/mutants';
import { runMutation, type MutationOptions } from '../../source/engine/quality/mutation';
import { openTask, type OpenTask } from '../../source/engine/task/open-task';
import { copyFixture } from '../helpers/fixtures';

/**
 * test/fixtures/quality is a src-layout package (src/grading/core.py) with tests of known strength.
 * The mutants of each function are listed and their fates counted by hand in the test files'
 * docstrings; the numbers below are those counts.
 */
let fixture: ReturnType<typeof copyFixture>;
const tasks: OpenTask[] = [];

beforeAll(() => {
  fixture = copyFixture('quality');
});
afterAll(async () => {
  for (const task of tasks) await task.dispose();
  fixture.cleanup();
});

async function open(qualname: string): Promise<OpenTask> {
  const task = await openTask({ repo: fixture.dir, target: `src/grading/core.py::${qualname}`, blank: false });
  tasks.push(task);
  return task;
}

async function mutate(task: OpenTask, testFile: string, extra: Partial<MutationOptions> = {}) {
  const mutants = await generateMutants(task.target.originalText, {
    qualname: task.target.qualname,
    startLine: task.target.startLine,
  });
  return runMutation({
    sandbox: task.sandbox,
    workspaceRoot: task.workspace.root,
    python: task.python.executable,
    target: { file: task.target.file, encoding: task.target.source.encoding },
    testFile,
    mutants,
    ...extra,
  });
}

async function coverage(task: OpenTask, testFile: string) {
  const { file, qualname, startLine } = task.target;
  return measureCoverage({
    sandbox: task.sandbox,
    workspaceRoot: task.workspace.root,
    python: task.python.executable,
    target: { file, qualname, startLine },
    testFile,
  });
}

/**
 * A per-mutant limit no healthy run reaches even on a loaded machine: with the default (twice the
 * baseline plus 2 s) a slow run could turn "killed" or "survived" into "timeout" and the exact
 * counts below would flake.
 */
const GENEROUS_MS = 30_000;

const statuses = (report: { mutants: { id: string; status: string }[] }) =>
  Object.fromEntries(report.mutants.map((m) => [m.id, m.status]));

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

  /** `tenet mutate` as the terminal shows it (no --json): what it printed and its exit code. */
  async function mutateText(options: { tests: string; max?: number }): Promise<{ code: number; text: string }> {
    const out: string[] = [];
    const write = vi
      .spyOn(process.stdout, 'write')
      .mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
    try {
      const code = await mutateCommand({
        repo: fixture.dir,
        target: 'src/grading/core.py::final_score',
        jobs: 1,
        timeout: GENEROUS_MS / 1000,
        ...options,
      });
      return { code, text: out.join('') };
    } finally {
      write.mockRestore();
    }
  }

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

  it("`tenet mutate`'s text when the tests fail on the function as it is: score 0, why, pytest's output; exit 1", async () => {
    const { code, text } = await mutateText({ tests: 'tests/test_wrong.py' });
    expect(code).toBe(1);
    expect(text).toContain(
      '  mutation score 0 %: the tests fail on the target as the repository has it; no mutant was run\n',
    );
    expect(text).toMatch(/^ {2}\| .*assert 100 == 150/m);
    expect(text).not.toContain('Survivors');
  });

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
