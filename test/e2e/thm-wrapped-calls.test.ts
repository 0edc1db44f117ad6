import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures';
import { thmOn } from '../helpers/thm';

// Clustering by the function that uses the target (TENET's THM): a decorator's wrapper is
// plumbing between a use and the target, not a use. It was skipped for plain functions only: an
// `async def` or a generator is reached through a call probe, whose chain skipped no wrapper, so
// all its tests fell into one cluster under the wrapper. And a module's body that calls the
// target as it is imported was taken for a wrapper (its locals are its globals, the imported
// target among them), so each test module importing it became a cluster of its own.
const REPO = join(FIXTURES, 'wrapped');
/** The ways THM runs the two worlds of benchmark mode. */
const MODES: [string, Parameters<typeof thmOn>[2]][] = [
  ['twins', { onePass: true, jobs: 1 }],
  ['worlds in lanes', { onePass: true, worlds: true, jobs: 2 }],
  ['two passes', { onePass: false, jobs: 1 }],
];
const clustersOf = async (target: string) => {
  const { report } = await thmOn(REPO, target, { blank: true, T: 10 });
  return { report, callers: report.clusters.map((c) => c.caller).sort() };
};

describe.each([
  ['an async def', 'wrapping/core.py::fetch', ['wrapping/use.py::fetch_one', 'wrapping/use.py::fetch_sum']],
  ['a generator', 'wrapping/core.py::count_up', ['wrapping/use.py::listed', 'wrapping/use.py::total']],
])("%s under the repository's own decorator", (_kind, target, callers) => {
  it("is clustered by the functions that use it, past the decorator's wrapper", async () => {
    const { report, callers: found } = await clustersOf(target);
    expect(found).toEqual(callers);
    // The wrapper is still in the chain, marked, between the use and the target.
    const chain = report.failing.find((f) => f.caller === callers[0])!.chain;
    expect(chain.slice(-2)).toEqual(['wrapping/core.py::logged.<locals>.wrapper', target]);
  }, 60_000);
});

// Twin mode and both worlds from one collection import each module once, on the original code:
// the second test module to import the calling module found it imported, with no call, where a
// blank run fails to import it as the first.
describe.each(MODES)('a module that calls the target as it is imported, %s', (_mode, mode) => {
  it("fails every test module that imports it, clustered under it; the chain leaves importlib's frames out", async () => {
    const { report } = await thmOn(REPO, 'wrapping/core.py::scale', { blank: true, T: 10, ...mode });
    expect(report.clusters.map((c) => c.caller)).toEqual(['wrapping/table.py::<module>']);
    expect(report.failing.map((f) => [f.nodeid, f.chain, f.depth])).toEqual([
      [
        'tests/test_table_again.py',
        ['tests/test_table_again.py::<module>', 'wrapping/table.py::<module>', 'wrapping/core.py::scale'],
        2,
      ],
      [
        'tests/test_table_first.py',
        ['tests/test_table_first.py::<module>', 'wrapping/table.py::<module>', 'wrapping/core.py::scale'],
        2,
      ],
    ]);
    expect(report.counts).toMatchObject({
      collected: 5,
      passed: 5,
      failing: 2,
      collectionErrors: 2,
      alreadyFailing: 0,
    });
    // How they fail, as the agent's prompt shows it: the blank's line, never the original body's.
    for (const f of report.failing) expect(f.longrepr).not.toContain('x * 10');
  }, 60_000);
});

// The failure report of a test goes into the agent's prompt ("It fails now with"). The blank world
// runs the probe in front of the original body, so the target's line in the report was the
// original one (`return word.upper() + "!"`): in benchmark mode, the answer.
describe.each(MODES)('benchmark mode, %s: how a test fails', (_mode, mode) => {
  it("shows the target's line as the blank has it, not the original body", async () => {
    const { report } = await thmOn(REPO, 'wrapping/core.py::shout', { blank: true, ...mode });
    const [failing] = report.failing;
    expect(failing!.nodeid).toBe('tests/test_use.py::test_loud');
    expect(failing!.longrepr).toContain('wrapping/core.py:');
    expect(failing!.longrepr).toContain('    raise NotImplementedError\nE   NotImplementedError');
    expect(failing!.longrepr).not.toContain('upper()');
  }, 60_000);
});
