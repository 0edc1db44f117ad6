import { describe, expect, it } from 'vitest';
import { gridLines } from '../../source/ui/components/test-grid';
import { lineText } from '../../source/ui/components/lines';
import { listOrder } from '../../source/ui/components/test-list';
import { pickerRows, rowPosition } from '../../source/ui/screens/thm-picker';
import { naturalOrder } from '../../source/engine/util/natural-order';
import { sampleReport } from './helpers';

// Issue 46.8: a parametrized test's cases were listed as text sorts them, [0] [1] [10] … [19] [2] [20],
// in the review, the evaluation and the page. People count them [0] [1] [2] … [10].

const cases = Array.from({ length: 21 }, (_, i) => `t.py::test_x[${i}]`);
const textOrder = [...cases].sort();

describe('parametrized test ids in natural order', () => {
  it('the comparator: numbers by value, a total order', () => {
    expect([...textOrder].sort(naturalOrder)).toEqual(cases);
    expect(naturalOrder('a[1]', 'a[1]')).toBe(0);
  });

  it('the THM review lists a cluster’s cases [0] [1] [2] … and counts positions that way', () => {
    const base = sampleReport();
    const failing = textOrder.map((nodeid) => ({ ...base.failing[1]!, nodeid, depth: 2 }));
    const report = {
      ...base,
      failing,
      clusters: [{ caller: 'm.py::g', tests: textOrder, representative: textOrder[0]!, depth: 2 }],
    };
    const rows = pickerRows(report, new Set(['m.py::g']));
    expect(rows.filter((r) => r.kind === 'test').map((r) => (r.kind === 'test' ? r.nodeid : ''))).toEqual(cases);
    expect(rowPosition(report, rows, 3)).toBe('test 3/21 of its cluster'); // row 0 is the cluster: [2] is the third
  });

  it('the evaluation’s grid and its list of every test', () => {
    const outcomes = Object.fromEntries(textOrder.map((id) => [id, id.endsWith('[7]') ? 'failed' : 'passed']));
    const grid = gridLines(outcomes, 100).map(lineText);
    expect(grid.map((row) => /\[(\d+)\]/.exec(row)![1])).toEqual(cases.map((_, i) => String(i)));
    expect(listOrder(outcomes)).toEqual(['t.py::test_x[7]', ...cases.filter((id) => !id.endsWith('[7]'))]);
  });
});
