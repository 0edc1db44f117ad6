import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import type { ThmReport } from '../../source/engine/protocol/thm-report';
import { compareRuns } from '../../source/engine/run/rerun';

const FAILING = ['t.py::a', 't.py::b', 't.py::c'].map((nodeid) => ({ nodeid }));
const report = (selected: string[]) =>
  ({ type: 'thm.report', report: { selected, failing: FAILING } as unknown as ThmReport }) as EngineEvent;

// Issue 33, item 7: a rerun of an untouched session exited 1 when THM gave the same tests in
// another order (a tie in THM's order falling the other way).
describe('compareRuns: THM selection', () => {
  it('the same tests in another order are the same selection', () => {
    expect(compareRuns([report(['t.py::a', 't.py::b'])], [report(['t.py::b', 't.py::a'])])).toEqual([]);
  });

  it('another test is a divergence', () => {
    expect(compareRuns([report(['t.py::a', 't.py::b'])], [report(['t.py::a', 't.py::c'])])).toEqual([
      { step: 'THM selection', recorded: 't.py::a, t.py::b', now: 't.py::a, t.py::c' },
    ]);
  });
});
