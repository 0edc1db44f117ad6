import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { GEO_SUBMISSIONS, geoWithStubs, runGeo, stoppedIn } from '../helpers/stub-geo';

// Issue 45, item 0: `test_moved` asserts `Point(1, 2).moved(1, 1) == Point(2, 3)`, and moved is a
// stub that returns None. The assertion fails without the target; then pytest's report of it shows
// both sides, and calls the stubbed `Point.__repr__` (`_pytest/assertion/rewrite.py::
// _call_reprcompare → … saferepr → Point.__repr__`); unittest's assertEqual does the same with
// safe_repr. Before, that call made both tests __repr__'s, and no body of it could pass them.
// Calls made by the reporting machinery are not the test's calls.
const repo = geoWithStubs(['Point.__repr__']);
afterAll(() => repo.cleanup());

const TARGET = 'geo/point.py::Point.__repr__';
const REPR = ['tests/test_point.py::test_repr', 'tests/test_point.py::test_repr_of_negatives'];
const MOVED = ['tests/test_point.py::MovedCase::test_moved', 'tests/test_point.py::test_moved'];

describe("a stubbed __repr__ that pytest's report of a failed assertion calls", () => {
  it('is not reached by that test: the test fails for another reason, and the right body passes', async () => {
    const run = await runGeo(repo.dir, TARGET, GEO_SUBMISSIONS['Point.__repr__'].right);
    expect(run.cli.code, run.cli.stderr).toBe(0);
    expect(run.result).toMatchObject({ pass: true, selectedTests: { passed: 2, total: 2 } });
    expect(run.report.failing.map((f) => f.nodeid)).toEqual(REPR);
    expect(run.evaluated).toEqual(REPR);
    // Both stop at their own assertion, with the report pytest (unittest) made of it.
    expect(stoppedIn(run.report)).toMatchObject({
      'tests/test_point.py::test_moved': 'tests/test_point.py::test_moved',
      'tests/test_point.py::MovedCase::test_moved': 'tests/test_point.py::MovedCase.test_moved',
    });
    for (const nodeid of MOVED) expect(run.report.failing.map((f) => f.nodeid)).not.toContain(nodeid);
  }, 120_000);

  it('a wrong body fails', async () => {
    const run = await runGeo(repo.dir, TARGET, GEO_SUBMISSIONS['Point.__repr__'].wrong);
    expect(run.cli.code).toBe(1);
    expect(run.result.tests).toMatchObject({ [REPR[0]!]: 'failed', [REPR[1]!]: 'failed' });
  }, 120_000);

  it('tenet thm shows them apart, with where each stopped', async () => {
    const result = await runCli(['thm', '--repo', repo.dir, '--target', TARGET]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/16 tests in scope · 8 passed · 2 failing · 6 failing for another reason/);
    expect(result.stdout).toContain(
      'Failing for another reason (6; they never reach the target: not selected, not hidden, not judged)',
    );
    expect(result.stdout).toMatch(
      /^ {2}tests\/test_point\.py::test_moved: stops in tests\/test_point\.py::test_moved \(line \d+\): AssertionError/m,
    );
    expect(result.stdout).toMatch(
      /^ {2}tests\/test_shapes\.py::test_describe_a_square: stops in geo\/shapes\.py::describe \(line 6\): NotImplementedError$/m,
    );
  }, 60_000);
});
