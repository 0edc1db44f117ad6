import { describe, expect, it } from 'vitest';
import { formatThmReport, thmJson } from '../../source/commands/format-thm';
import type { ThmOtherFailure, ThmReport } from '../../source/engine/protocol/thm-report';
import { mergeDeveloperTests } from '../../source/engine/thm/developer-tests';
import type { PluginCollectError, PluginTestEvent } from '../../source/engine/thm/plugin-lines';
import { failsBecauseOfTarget, otherFailure } from '../../source/engine/thm/stub-verdict';
import { pickerRows, rowPosition } from '../../source/ui/screens/thm-picker';
import { initialReview, reviewKey } from '../../source/ui/screens/thm-review';
import { sampleReport } from '../ui/helpers';

const failedTest = (extra: Partial<PluginTestEvent> = {}): PluginTestEvent => ({
  e: 'test',
  nodeid: 'tests/test_geo.py::test_describe',
  outcome: 'failed',
  phase: 'call',
  message: 'NotImplementedError',
  longrepr: 'geo/shapes.py:6: in describe\nE   NotImplementedError',
  file: 'tests/test_geo.py',
  line: 4,
  durationMs: 1,
  chain: null,
  entryKind: null,
  timedOut: false,
  stoppedAt: { name: 'geo/shapes.py::describe', line: 6 },
  ...extra,
});
const frame = { name: 'tests/test_geo.py::test_area', line: 2, comprehension: false };
const collectError = (chain: PluginCollectError['chain']): PluginCollectError => ({
  e: 'collecterror',
  nodeid: 'tests/test_plots.py',
  message: "ModuleNotFoundError: No module named 'plots'",
  longrepr: '',
  chain,
  entryKind: chain ? 'module' : null,
});

describe("stub mode: which failing tests are the target's", () => {
  it('one whose own code, a setup it depends on, or a process it started reached the target', () => {
    expect(failsBecauseOfTarget(failedTest({ chain: [frame], entryKind: 'test' }))).toBe(true);
    expect(failsBecauseOfTarget(failedTest({ failsThrough: 'tests/conftest.py::db' }))).toBe(true);
    expect(failsBecauseOfTarget(failedTest({ subprocess: true }))).toBe(true);
    expect(failsBecauseOfTarget(collectError([frame]))).toBe(true);
  });

  it('not one that stopped elsewhere, nor a module whose import failed without a call', () => {
    expect(failsBecauseOfTarget(failedTest())).toBe(false);
    expect(failsBecauseOfTarget(failedTest({ subprocess: false, failsThrough: null, chain: [] }))).toBe(false);
    expect(failsBecauseOfTarget(collectError(null))).toBe(false);
  });

  it('the other failure keeps where it stopped; a crash without a traceback has none', () => {
    expect(otherFailure(failedTest())).toMatchObject({
      nodeid: 'tests/test_geo.py::test_describe',
      outcome: 'failed',
      stoppedAt: { name: 'geo/shapes.py::describe', line: 6 },
      crashed: false,
    });
    expect(otherFailure(failedTest({ outcome: 'error', stoppedAt: undefined, crashed: true }))).toMatchObject({
      outcome: 'error',
      stoppedAt: null,
      crashed: true,
    });
  });
});

const others: ThmOtherFailure[] = [
  otherFailure(failedTest()),
  otherFailure(
    failedTest({
      nodeid: 'tests/test_units.py::test_metres',
      message: "ValueError: could not convert string to float: ''",
      stoppedAt: { name: 'geo/units.py::parse_length', line: 9 },
    }),
  ),
];
const withOthers = (): ThmReport => {
  const report = sampleReport();
  return { ...report, otherFailures: others, counts: { ...report.counts, otherFailures: others.length } };
};

describe('the tests failing for another reason, shown apart', () => {
  it('tenet thm counts them and names where each stopped; --json leaves their reports out', () => {
    const text = formatThmReport(withOthers());
    expect(text).toContain('4 failing (1 never reached the target) · 2 failing for another reason');
    expect(text).toContain(
      'Failing for another reason (2; they never reach the target: not selected, not hidden, not judged)\n' +
        '  tests/test_geo.py::test_describe: stops in geo/shapes.py::describe (line 6): NotImplementedError\n' +
        "  tests/test_units.py::test_metres: stops in geo/units.py::parse_length (line 9): ValueError: could not convert string to float: ''",
    );
    const json = thmJson(withOthers()) as { otherFailures: Record<string, unknown>[] };
    expect(json.otherFailures[0]).not.toHaveProperty('longrepr');
    expect(json.otherFailures[0]).toMatchObject({ stoppedAt: { name: 'geo/shapes.py::describe', line: 6 } });
  });

  it("a test that reached the target only in a process it started is the target's, and says so", () => {
    const report = withOthers();
    report.failing = report.failing.map((f) =>
      f.nodeid === 't.py::test_subprocess' ? { ...f, inSubprocess: true } : f,
    );
    expect(formatThmReport(report)).toContain(
      't.py::test_subprocess: reached in a process it started: NotImplementedError',
    );
  });

  it('the review lists them last, under their own heading; space says why they cannot be chosen, v and e still open them', () => {
    const report = withOthers();
    // As the review opens: its first cluster open.
    const rows = pickerRows(report, new Set([report.clusters[0]!.caller]));
    expect(rows.slice(-3)).toEqual([
      { kind: 'heading', text: "Failing for another reason (2): not the target's tests" },
      { kind: 'other', nodeid: 'tests/test_geo.py::test_describe' },
      { kind: 'other', nodeid: 'tests/test_units.py::test_metres' },
    ]);
    const at = rows.length - 1;
    expect(rowPosition(report, rows, at)).toBe('test 2/2 failing for another reason');
    const context = { report, filter: '', developer: [], page: 10, canWrite: true, canShowSource: true };
    const space = reviewKey({ ...initialReview, cursor: at }, ' ', {}, context);
    expect(space.state.picks).toEqual(initialReview.picks);
    expect(space.state.notice).toContain('Not selectable: tests/test_units.py::test_metres never reaches the target');
    expect(reviewKey({ ...initialReview, cursor: at }, 'v', {}, context).effect).toEqual({
      kind: 'source',
      nodeid: 'tests/test_units.py::test_metres',
    });
    expect(reviewKey({ ...initialReview, cursor: at }, 'e', {}, context).effect).toEqual({
      kind: 'write',
      nodeid: 'tests/test_units.py::test_metres',
    });
    // The filter keeps those that match.
    expect(pickerRows(report, new Set(), 'metres').filter((r) => r.kind === 'other')).toHaveLength(1);
  });

  it("a test the developer changed so that it reaches the target leaves them, and joins the target's", () => {
    const report = withOthers();
    const changed = { ...report.failing[0]!, nodeid: 'tests/test_geo.py::test_describe' };
    const merged = mergeDeveloperTests(report, { accepted: [changed], removed: [] });
    expect(merged.otherFailures?.map((f) => f.nodeid)).toEqual(['tests/test_units.py::test_metres']);
    expect(merged.counts.otherFailures).toBe(1);
    expect(merged.failing.map((f) => f.nodeid)).toContain('tests/test_geo.py::test_describe');
  });
});
