import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures';
import { thmOn } from '../helpers/thm';

// Issue 33, item 3: the direct caller by which THM clusters. The default rule, `use`, names the
// nearest frame that uses the target, past its plumbing (a frame that holds the target without
// naming it: the decorator object of networkx's _dispatchable, sympy's Printer._print), and
// never a plumbing frame: networkx's is_tree binds `is_connected = nx.is_connected` and calls it,
// which made it look like plumbing, and its tests were clustered under the dispatcher of is_tree
// itself. `--caller nearest` is the paper's literal rule: the nearest frame, plumbing included.
const REPO = join(FIXTURES, 'dispatch');
const callersOf = async (target: string, caller: 'use' | 'nearest', onePass = true) => {
  const { report } = await thmOn(REPO, target, { blank: true, T: 10, jobs: 1, onePass, caller });
  return { report, callers: report.clusters.map((c) => c.caller).sort() };
};

describe('the direct caller, rule `use` (the default)', () => {
  it.each([
    ['a blank twin per test', true],
    ['two passes', false],
  ])(
    'a decorator object and a use that binds the target to a local of its name (%s)',
    async (_mode, onePass) => {
      const { report, callers } = await callersOf('graphs/algos.py::is_connected', 'use', onePass);
      expect(callers).toEqual([
        'graphs/algos.py::count_components',
        'graphs/algos.py::is_tree',
        'tests/test_graphs.py::test_connected',
      ]);
      expect(report.callerRule).toBeUndefined();
      // The plumbing stays in the chain, between the use and the target.
      const tree = report.failing.find((f) => f.nodeid === 'tests/test_graphs.py::test_tree')!;
      expect(tree.chain.slice(-4)).toEqual([
        'graphs/algos.py::is_tree',
        'graphs/dispatch.py::dispatchable.__call__',
        'graphs/dispatch.py::dispatchable._call_if_no_backends',
        'graphs/algos.py::is_connected',
      ]);
    },
    60_000,
  );

  it('a dispatcher that looks the method up by a computed name', async () => {
    const { callers } = await callersOf('graphs/printer.py::StrPrinter._print_Add', 'use');
    expect(callers).toEqual(['graphs/printer.py::Printer.doprint', 'graphs/printer.py::StrPrinter.parenthesize']);
  }, 60_000);
});

describe("the direct caller, rule `nearest` (the paper's literal rule)", () => {
  it.each([
    ['graphs/algos.py::is_connected', 'graphs/dispatch.py::dispatchable._call_if_no_backends'],
    ['graphs/printer.py::StrPrinter._print_Add', 'graphs/printer.py::Printer._print'],
  ])(
    '%s: every test under the frame right above the target',
    async (target, caller) => {
      const { report, callers } = await callersOf(target, 'nearest');
      expect(callers).toEqual([caller]);
      expect(report.callerRule).toBe('nearest');
    },
    60_000,
  );
});
