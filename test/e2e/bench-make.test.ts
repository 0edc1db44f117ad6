import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTasks, type BenchTask } from '../../source/engine/bench/task';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { copyFixture, treeHash } from '../helpers/fixtures';

const stats = copyFixture('stats');
afterAll(() => stats.cleanup());

/** The rows without THM's timings, which differ from run to run. */
function stable(tasks: BenchTask[]): unknown[] {
  return tasks.map((task) => {
    const thm = task.tenet!.thm as Record<string, unknown>;
    const { timings: _timings, durationMs: _durationMs, ...rest } = thm;
    return { ...task, tenet: { ...task.tenet, thm: rest } };
  });
}

describe('tenet bench make', () => {
  const before = treeHash(stats.dir);

  it('makes a task of each function that tests reach and that fails them blank, and says why the others are not', async () => {
    const out = join(stats.dir, '..', 'tasks.jsonl');
    const result = await runCli(['bench', 'make', '--repo', stats.dir, '--out', out, '--count', '5', '--json']);
    // Two tasks where five were asked for: exit 1, and the tasks it could make are written.
    expect(result.code, result.stderr).toBe(1);
    const summary = JSON.parse(result.stdout);
    expect(summary).toMatchObject({
      repository: 'stats',
      tasks: 2,
      scan: { functions: 8, eligible: 5, excluded: { abstract: 1, stub: 1, short: 1, nested: 0 } },
      // squares runs while the package is imported; describe is reached by no test.
      reach: { tests: 5, reached: 4, outside: 1 },
      candidates: 3,
      thm: { runs: 3, kept: 2, skipped: 1 },
    });
    expect(result.stderr).toContain('stats/core.py::safe_ratio (1 reaching test) … skipped: 0 failing tests');

    const tasks = readTasks(out);
    const byName = new Map(tasks.map((t) => [t.function_name, t]));
    expect([...byName.keys()].sort()).toEqual(['mean', 'spread']);
    const mean = byName.get('mean')!;
    expect(mean).toMatchObject({
      repository: 'stats',
      target_module_path: 'stats/core.py',
      prompt: 'def mean(values):\n    """The arithmetic mean of a non-empty sequence."""\n',
      relavent_test_path: 'tests/test_core.py',
      tenet: {
        repo: stats.dir,
        target: 'stats/core.py::mean',
        testArgs: ['tests/test_core.py::test_mean', 'tests/test_core.py::test_mean_of_two'],
      },
    });
    expect(mean.full_function).toBe(
      readFileSync(join(stats.dir, 'stats/core.py'), 'utf8').match(/def mean[\s\S]*?return total \/ len\(values\)/)![0],
    );
    expect(mean.tenet!.failing).toEqual(['tests/test_core.py::test_mean', 'tests/test_core.py::test_mean_of_two']);
    // The module-scoped fixture calls spread once; both tests that use it fail when it is blank,
    // but only the first reaches it: the second gets pytest's cached error, and is not selected.
    expect(byName.get('spread')!.tenet!.failing).toEqual([
      'tests/test_core.py::test_width',
      'tests/test_core.py::test_width_is_positive',
    ]);
    expect((byName.get('spread')!.tenet!.thm as { selected: string[] }).selected).toEqual([
      'tests/test_core.py::test_width',
    ]);
    expect(tasks.map((t) => t.repo_id)).toEqual(['0', '1']);
    expect(treeHash(stats.dir)).toBe(before);

    // The same seed gives the same tasks, in the same order.
    const again = join(stats.dir, '..', 'again.jsonl');
    expect((await runCli(['bench', 'make', '--repo', stats.dir, '--out', again, '--count', '5'])).code).toBe(1);
    expect(stable(readTasks(again))).toEqual(stable(tasks));
    rmSync(again);
  }, 120_000);

  it('keeps to the --tests scope and --min-failing, and stops at --count', async () => {
    const out = join(stats.dir, '..', 'scoped.jsonl');
    const scoped = await runCli([
      'bench',
      'make',
      '--repo',
      stats.dir,
      '--out',
      out,
      '--count',
      '1',
      '--json',
      '--tests',
      'tests/test_core.py::test_mean',
    ]);
    expect(scoped.code, scoped.stderr).toBe(0);
    expect(JSON.parse(scoped.stdout)).toMatchObject({ tasks: 1, candidates: 1, reach: { tests: 1 } });
    expect(readTasks(out).map((t) => [t.function_name, t.tenet!.testArgs])).toEqual([
      ['mean', ['tests/test_core.py::test_mean']],
    ]);

    const strict = await runCli(['bench', 'make', '--repo', stats.dir, '--out', out, '--min-failing', '3', '--json']);
    expect(strict.code).toBe(1);
    expect(JSON.parse(strict.stdout)).toMatchObject({ tasks: 0, candidates: 0, thm: { runs: 0 } });
    expect(readFileSync(out, 'utf8')).toBe('');
    expect(treeHash(stats.dir)).toBe(before);
  }, 120_000);

  it("makes RepoCod's own rows into tasks: their test lists, their ground truth checked against the checkout", async () => {
    // RepoCod's images keep each task's tests in /usr/src/app/target_test_cases/; here, in the checkout.
    mkdirSync(join(stats.dir, 'target_test_cases'));
    writeFileSync(
      join(stats.dir, 'target_test_cases', 'failed_tests_mean.txt'),
      'tests/test_core.py::test_mean_of_two\n',
    );
    const row = (id: number, name: string, fullFunction: string, tests: string, repository = 'stats') => ({
      repository,
      repo_id: id,
      target_module_path: 'stats/core.py',
      function_name: name,
      prompt: '',
      full_function: fullFunction,
      relavent_test_path: tests,
    });
    const meanSource = readFileSync(join(stats.dir, 'stats/core.py'), 'utf8').match(
      /def mean[\s\S]*?return total \/ len\(values\)/,
    )![0];
    const rows = join(stats.dir, '..', 'repocod.jsonl');
    writeFileSync(
      rows,
      [
        // Indented as a method would be: still the same function.
        row(3, 'mean', meanSource.replace(/^/gm, '    '), '/usr/src/app/target_test_cases/failed_tests_mean.txt'),
        row(4, 'spread', 'def spread(values):\n    return max(values) - min(values)\n', 'tests/test_core.py'),
        row(5, 'mean', meanSource, 'tests', 'astropy'),
      ]
        .map((r) => JSON.stringify(r))
        .join('\n'),
    );
    const out = join(stats.dir, '..', 'from-rows.jsonl');
    const result = await runCli(['bench', 'make', '--repo', stats.dir, '--from', rows, '--out', out]);
    expect(result.code).toBe(1);
    expect(result.stdout).toContain('1 of 2 rows of stats made into tasks');
    expect(result.stdout).toContain('1 row of other repositories passed over');
    expect(result.stdout).toContain("stats-4: the checkout's function is not the row's full_function");
    const [task, ...rest] = readTasks(out);
    expect(rest).toEqual([]);
    expect(task).toMatchObject({
      repo_id: '3',
      function_name: 'mean',
      tenet: {
        target: 'stats/core.py::mean',
        testArgs: ['tests/test_core.py::test_mean_of_two'],
        failing: ['tests/test_core.py::test_mean_of_two'],
      },
    });
  }, 120_000);

  it('Ctrl-C says how many tasks it wrote, and where', async () => {
    const slow = copyFixture('stats');
    try {
      // A test that takes its time: the run is still reaching functions when it is stopped.
      writeFileSync(
        join(slow.dir, 'tests', 'test_slow.py'),
        'import time\n\nfrom stats.core import mean\n\n\ndef test_slow():\n    time.sleep(60)\n    assert mean([1, 3]) == 2\n',
      );
      const out = join(slow.dir, '..', 'interrupted.jsonl');
      const child = startCli(['bench', 'make', '--repo', slow.dir, '--out', out, '--count', '5']);
      const ended = finished(child);
      await waitFor(() => /scanned \d+ functions/.test(child.output.stderr), 60_000, 'the scan');
      child.kill('SIGINT');
      const result = await ended;
      expect(result.code, result.stderr).toBe(130);
      expect(result.stderr).toMatch(/\ntenet: SIGINT: stopped; 0 tasks written to .*interrupted\.jsonl\n$/);
      expect(readFileSync(out, 'utf8')).toBe('');
    } finally {
      slow.cleanup();
    }
  }, 120_000);

  it('bad input exits 2 with what to do', async () => {
    const missing = await runCli([
      'bench',
      'make',
      '--repo',
      join(stats.dir, 'nope'),
      '--out',
      join(stats.dir, '..', 'x.jsonl'),
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('does not exist');
    const count = await runCli([
      'bench',
      'make',
      '--repo',
      stats.dir,
      '--out',
      join(stats.dir, '..', 'x.jsonl'),
      '--count',
      '0',
    ]);
    expect(count.code).not.toBe(0);
    expect(count.stderr).toContain('--count must be a whole number');
  });
});
