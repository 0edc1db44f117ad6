import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { countAssertions, selectWith } from '../../source/engine/thm/alt-selection';
import type { ThmReport } from '../../source/engine/protocol/thm-report';
import { sampleReport } from '../ui/helpers';

const root = mkdtempSync(join(tmpdir(), 'tenet-select-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));
mkdirSync(join(root, 'tests'));
writeFileSync(
  join(root, 't.py'),
  [
    'import pytest',
    'def test_direct():',
    '    assert f(1) == 1',
    'def test_a():',
    '    assert f(1) == 1',
    '    assert f(2) == 2',
    '    with pytest.raises(ValueError):',
    '        f(-1)',
    'def test_b():',
    '    assert f(3) == 3',
    '',
  ].join('\n'),
);

// sampleReport: test_direct (depth 1), test_a (depth 2), test_b (depth 3), test_subprocess (unreached).
const report: ThmReport = sampleReport();

describe('test selection strategies (RQ4)', () => {
  it('thm keeps the report selection; shortest and longest order by call chain, then node id; unreached come last', async () => {
    expect(await selectWith('thm', report, 2, { workspaceRoot: root })).toEqual(['t.py::test_direct', 't.py::test_a']);
    expect(await selectWith('shortest', report, 2, { workspaceRoot: root })).toEqual([
      't.py::test_direct',
      't.py::test_a',
    ]);
    expect(await selectWith('longest', report, 2, { workspaceRoot: root })).toEqual(['t.py::test_b', 't.py::test_a']);
    expect(await selectWith('longest', report, Infinity, { workspaceRoot: root })).toEqual([
      't.py::test_b',
      't.py::test_a',
      't.py::test_direct',
      't.py::test_subprocess',
    ]);
  });

  it('most-assertions counts assert statements and raises blocks in each test source', async () => {
    expect(
      await countAssertions(
        'def test():\n    assert a\n    self.assertEqual(a, b)\n    with pytest.raises(E):\n        f()\n    print(1)\n',
      ),
    ).toBe(3);
    // test_a has 3, test_direct and test_b 1 each (ties by node id).
    expect(await selectWith('most-assertions', report, 2, { workspaceRoot: root })).toEqual([
      't.py::test_a',
      't.py::test_b',
    ]);
  });

  it('random is a seeded order: the same for the same task, different for another seed', async () => {
    const first = await selectWith('random', report, 3, { workspaceRoot: root });
    expect(await selectWith('random', report, 3, { workspaceRoot: root })).toEqual(first);
    expect([...first].sort()).toEqual(['t.py::test_a', 't.py::test_b', 't.py::test_direct']);
    const orders = new Set<string>();
    for (const seed of ['a', 'b', 'c', 'd', 'e', 'f'])
      orders.add((await selectWith('random', report, 3, { workspaceRoot: root, seed })).join());
    expect(orders.size).toBeGreaterThan(1);
  });

  it('every strategy takes one variant of each parametrized test before a second one', async () => {
    const test = report.failing.find((f) => f.nodeid === 't.py::test_direct')!;
    // Each chain enters by its test function, as THM records it.
    const variant = (nodeid: string, depth: number) => ({
      ...test,
      nodeid,
      depth,
      chain: [nodeid.replace(/\[.*$/, ''), ...Array(depth - 1).fill('t.py::x'), 'm.py::f'],
    });
    const parametrized: ThmReport = {
      ...report,
      failing: [
        variant('t.py::test_p[1]', 1),
        variant('t.py::test_p[2]', 1),
        variant('t.py::test_p[3]', 1),
        variant('t.py::test_q', 2),
        variant('t.py::test_r', 3),
      ],
    };
    expect(await selectWith('shortest', parametrized, 3, { workspaceRoot: root })).toEqual([
      't.py::test_p[1]',
      't.py::test_q',
      't.py::test_r',
    ]);
    expect(await selectWith('longest', parametrized, 4, { workspaceRoot: root })).toEqual([
      't.py::test_r',
      't.py::test_q',
      't.py::test_p[1]',
      't.py::test_p[2]',
    ]);
    for (const seed of ['a', 'b', 'c', 'd']) {
      const picked = await selectWith('random', parametrized, 3, { workspaceRoot: root, seed });
      expect(picked.filter((nodeid) => nodeid.startsWith('t.py::test_p['))).toHaveLength(1);
    }
  });
});
