import { join } from 'node:path';
import { beforeAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures';
import { chains, thmOn, type ThmRun } from '../helpers/thm';

// Issue 12, item 1: a generator, async generator or coroutine target runs none of its body when
// called; its chain is the stack at the call (the frame that evaluated `windowed(...)`), not where
// the body first runs (the first next() or await). Twin mode, two passes and stub mode agree.
const GENERATORS = join(FIXTURES, 'generators');
const FILE = 'gens/windows.py';
const T = 'tests/test_windows.py';

describe.each([
  ['twins', true],
  ['two passes', false],
])('THM on generator and coroutine targets, benchmark mode, %s', (_name, twins) => {
  const runs: Record<string, ThmRun> = {};
  beforeAll(async () => {
    for (const target of ['windowed', 'opened', 'fetch', 'ticks', 'Grid.cells']) {
      runs[target] = await thmOn(GENERATORS, `${FILE}::${target}`, { blank: true, onePass: twins, jobs: 1 });
    }
  }, 120_000);

  it('a generator: the caller that built the iterator, not the one that consumed it', () => {
    expect(chains(runs.windowed!.report)).toEqual({
      [`${T}::test_adjacent`]: [`${T}::test_adjacent`, `${FILE}::adjacent`, `${FILE}::windowed`],
      [`${T}::test_pairwise_sums`]: [`${T}::test_pairwise_sums`, `${FILE}::pairwise_sums`, `${FILE}::windowed`],
      [`${T}::test_windowed`]: [`${T}::test_windowed`, `${FILE}::windowed`],
    });
    // Three callers, three clusters.
    expect(runs.windowed!.report.clusters.map((c) => c.caller)).toEqual([
      `${T}::test_windowed`,
      `${FILE}::adjacent`,
      `${FILE}::pairwise_sums`,
    ]);
  });

  it('a @contextmanager generator: called by the context manager it is given to', () => {
    expect(chains(runs.opened!.report)).toEqual({
      [`${T}::test_opened`]: [
        `${T}::test_opened`,
        'contextlib.py::contextmanager.<locals>.helper',
        'contextlib.py::_GeneratorContextManagerBase.__init__',
        `${FILE}::opened`,
      ],
    });
  });

  it('a coroutine: called where the coroutine is made; a coroutine made and closed fails blank neither', () => {
    const [failing] = runs.fetch!.report.failing;
    expect(runs.fetch!.report.failing).toHaveLength(1);
    expect(failing).toMatchObject({ nodeid: `${T}::test_fetch_all`, reached: true, caller: `${FILE}::fetch_all` });
    expect(failing!.chain[0]).toBe(`${T}::test_fetch_all`);
    expect(runs.fetch!.report.counts).toMatchObject({ passed: 8, failing: 1, alreadyFailing: 1 });
  });

  it('an async generator: reached at its call; its blank stays an async generator, so `async for` meets NotImplementedError', () => {
    expect(runs.ticks!.report.failing).toHaveLength(1);
    expect(runs.ticks!.report.failing[0]).toMatchObject({
      nodeid: `${T}::test_total_ticks`,
      reached: true,
      caller: `${FILE}::total_ticks`,
    });
    // Without a `yield` the blank would be a coroutine function: "'async for' requires an object with __aiter__ method".
    expect(runs.ticks!.report.failing[0]!.message).toMatch(/^NotImplementedError/);
  });

  it('a method with no decorator and no free line above (rebound at the end of its module)', () => {
    expect(chains(runs['Grid.cells']!.report)).toEqual({
      [`${T}::test_grid_cells`]: [`${T}::test_grid_cells`, `${FILE}::Grid.cells`],
      [`${T}::test_grid_count`]: [`${T}::test_grid_count`, `${FILE}::Grid.count`, `${FILE}::Grid.cells`],
    });
    expect(runs['Grid.cells']!.report.warnings).toEqual([]);
  });
});

describe('THM on a generator stub, stub mode', () => {
  it('takes the chain at the call', async () => {
    const { report } = await thmOn(GENERATORS, 'gens/stubs.py::chunks', { jobs: 1 });
    expect(chains(report)).toEqual({
      'tests/test_stubs.py::test_batches': [
        'tests/test_stubs.py::test_batches',
        'gens/stubs.py::batches',
        'gens/stubs.py::chunks',
      ],
    });
  });
});
