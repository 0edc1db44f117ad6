import { afterAll, describe, expect, it } from 'vitest';
import { GEO_SUBMISSIONS, geoWithStubs, runGeo, stoppedIn } from '../helpers/stub-geo';

// Issue 45, item 0: in stub mode a failing test is the target's only when it reached the target.
// A test that stops in another stub (in the same file, the same class, or another file) fails for
// another reason: it is never selected or hidden, and never part of the verdict.
//
// The example: a module with three stubs, `describe`, `area` and `perimeter`, two tests
// each. Before, `tenet run --target geo/shapes.py::area` with the right body passed its selected
// tests and was judged FAIL: `hidden tests 0/4`, the describe and perimeter tests.
const shapes = geoWithStubs(['area', 'perimeter']);
// Three methods of Point: `__repr__` and `scaled` stubbed here, `moved` a stub in the fixture.
const point = geoWithStubs(['Point.__repr__', 'Point.scaled']);
afterAll(() => {
  shapes.cleanup();
  point.cleanup();
});

const AREA = [
  'tests/test_report.py::test_total_area',
  'tests/test_shapes.py::test_area_of_a_rectangle',
  'tests/test_shapes.py::test_area_of_a_square',
];

describe('a stub among stubs: its verdict is its own', () => {
  it('area with the right body passes, beside describe and perimeter (same file) and summary (another file)', async () => {
    const run = await runGeo(shapes.dir, 'geo/shapes.py::area', GEO_SUBMISSIONS.area.right, ['-T', '2']);
    expect(run.cli.code, run.cli.stderr).toBe(0);
    expect(run.result).toMatchObject({
      pass: true,
      selectedTests: { passed: 2, total: 2 },
      hiddenTests: { passed: 1, total: 1 },
    });
    // The target's tests: the two of area, and total_area's, which calls it.
    expect(run.report.failing.map((f) => f.nodeid)).toEqual(AREA);
    expect(run.evaluated).toEqual(AREA);
    // Every other failing test, with where it stopped: the other stubs, a helper's own bug, pytest's assertion.
    expect(stoppedIn(run.report)).toEqual({
      'tests/test_point.py::MovedCase::test_moved': 'tests/test_point.py::MovedCase.test_moved',
      'tests/test_point.py::test_moved': 'tests/test_point.py::test_moved',
      'tests/test_report.py::test_summary': 'geo/report.py::summary',
      'tests/test_shapes.py::test_describe_a_rectangle': 'geo/shapes.py::describe',
      'tests/test_shapes.py::test_describe_a_square': 'geo/shapes.py::describe',
      'tests/test_shapes.py::test_perimeter_of_a_rectangle': 'geo/shapes.py::perimeter',
      'tests/test_shapes.py::test_perimeter_of_a_square': 'geo/shapes.py::perimeter',
      'tests/test_units.py::test_metres': 'geo/units.py::parse_length',
    });
    expect(run.report.counts).toMatchObject({ failing: 3, unreached: 0, otherFailures: 8 });
    // Never hidden: the agent's workspace kept them, and nothing else was taken out but area's third test.
    expect(run.hidden).toEqual(['tests/test_report.py::test_total_area']);
  }, 120_000);

  it('area with a wrong body fails on its own tests', async () => {
    const run = await runGeo(shapes.dir, 'geo/shapes.py::area', GEO_SUBMISSIONS.area.wrong, ['-T', '2']);
    expect(run.cli.code).toBe(1);
    expect(run.result.pass).toBe(false);
    expect(run.evaluated).toEqual(AREA);
    // 2x2 is right by chance (2 + 2 = 2 * 2); the other two are not.
    expect(run.result.tests).toMatchObject({
      'tests/test_shapes.py::test_area_of_a_square': 'passed',
      'tests/test_shapes.py::test_area_of_a_rectangle': 'failed',
      'tests/test_report.py::test_total_area': 'failed',
    });
    expect(Object.keys(stoppedIn(run.report))).toHaveLength(8);
  }, 120_000);

  it('a method among stubbed siblings of its class (and pytest reporting one of them) passes with the right body, fails with a wrong one', async () => {
    const right = await runGeo(point.dir, 'geo/point.py::Point.scaled', GEO_SUBMISSIONS['Point.scaled'].right);
    expect(right.cli.code, right.cli.stderr).toBe(0);
    expect(right.result).toMatchObject({ pass: true, selectedTests: { passed: 2, total: 2 } });
    expect(right.report.failing.map((f) => f.nodeid)).toEqual([
      'tests/test_point.py::test_scaled',
      'tests/test_point.py::test_scaled_by_zero',
    ]);
    expect(stoppedIn(right.report)).toMatchObject({
      'tests/test_point.py::test_repr': 'geo/point.py::Point.__repr__',
      'tests/test_point.py::test_repr_of_negatives': 'geo/point.py::Point.__repr__',
      // moved is a stub that returns None: the test stops at its own assertion.
      'tests/test_point.py::test_moved': 'tests/test_point.py::test_moved',
    });
    const wrong = await runGeo(point.dir, 'geo/point.py::Point.scaled', GEO_SUBMISSIONS['Point.scaled'].wrong);
    expect(wrong.cli.code).toBe(1);
    expect(wrong.result.tests).toMatchObject({
      'tests/test_point.py::test_scaled': 'failed',
      // Right by chance at 0 (0 * 0 = 0).
      'tests/test_point.py::test_scaled_by_zero': 'passed',
    });
  }, 180_000);
});
