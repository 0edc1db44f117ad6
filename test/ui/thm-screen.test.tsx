import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { ThmScreen } from '../../source/ui/screens/thm-screen';
import { initialView, reduceAll, reduceView } from '../../source/ui/view-state';
import type { EventOf } from '../../source/engine/events';
import { start } from './agent-on';
import { frameShows, KEYS, sampleReport, until } from './helpers';
import { reviewOn } from './thm-review-on';

const approval = () => {
  const resolve = vi.fn();
  return { prompt: { kind: 'approve-tests' as const, report: sampleReport(), resolve }, resolve };
};

describe('ThmScreen', () => {
  it('shows a progress bar while the suite runs', () => {
    let view = reduceView(initialView(), { type: 'thm.phase', phase: 'probe' }, 1000);
    view = reduceView(view, { type: 'thm.collected', phase: 'probe', total: 40 });
    for (let i = 0; i < 10; i++)
      view = reduceView(view, {
        type: 'thm.test',
        phase: 'probe',
        nodeid: `t${i}`,
        outcome: i < 3 ? 'failed' : 'passed',
        reached: i < 3,
        durationMs: 1,
      });
    const { lastFrame } = render(<ThmScreen view={view} width={100} height={30} />);
    expect(lastFrame()).toContain('10/40 tests · 3 failing');
    expect(lastFrame()).toContain('███');
  });

  it('lists clusters with the proposal marked, the chain of the row under the cursor, and keys', () => {
    const { prompt } = approval();
    const { lastFrame } = render(<ThmScreen view={initialView()} prompt={prompt} width={100} height={30} />);
    const frame = lastFrame()!;
    expect(frame).toContain('THM 9 tests · 5 passed · 4 failing (1 unreached) · 2 clusters · 1.2 s');
    expect(frame).toContain('Selected 2 (T=2)');
    expect(frame).toMatch(/❯ ▾ t\.py::test_direct · 1 test · depth 1 ★/);
    expect(frame).toMatch(/▸ m\.py::g · 2 tests · depth 2 ★/);
    expect(frame).toContain('Failing without reaching the target (1)');
    expect(frame).toContain('t.py::test_direct → m.py::f');
    expect(frame).toContain('Enter approve');
  });

  it('names a broken test module (it fails to import on the original code too) with its error, and counts those that fail only blank', () => {
    const report = {
      ...sampleReport(),
      mode: 'blank' as const,
      importErrors: [
        {
          module: 'tests/test_paths.py',
          message: "ModuleNotFoundError: No module named 'ipython_helpers'",
          broken: true,
        },
        { module: 'tests/test_more.py', message: "ModuleNotFoundError: No module named 'x'", broken: true },
        { module: 'tests/test_table.py', message: 'NotImplementedError', broken: false },
      ],
    };
    const { lastFrame } = render(
      <ThmScreen
        view={initialView()}
        prompt={{ kind: 'approve-tests', report, resolve: vi.fn() }}
        width={100}
        height={30}
      />,
    );
    const frame = lastFrame()!.replace(/\s*\n\s*/g, ' ');
    expect(frame).toContain(
      "2 broken test modules (tests/test_paths.py: ModuleNotFoundError: No module named 'ipython_helpers'; 1 more)",
    );
    expect(frame).toContain('1 module failed to import blank');
  });

  it('says which of the failing is a test module whose import fails blank: one entry, outside the tests in scope', () => {
    const base = sampleReport();
    const report = {
      ...base,
      mode: 'blank' as const,
      failing: [
        ...base.failing,
        { ...base.failing.find((f) => f.reached)!, nodeid: 'tests/test_table.py', outcome: 'collection' as const },
      ],
      counts: { ...base.counts, failing: base.counts.failing + 1 },
      importErrors: [{ module: 'tests/test_table.py', message: 'NotImplementedError', broken: false }],
    };
    const frame = reviewOn(report, 120)
      .ui.lastFrame()!
      .replace(/\s*\n\s*/g, ' ');
    expect(frame).toContain('THM 9 tests · 5 passed · 5 failing (1 unreached, 1 of them a module) ·');
  });

  it("shows the run's warning (stub mode on a real body) while the suite runs and over the review", () => {
    const warned = reduceView(
      reduceView(
        initialView(),
        { type: 'warning', message: 'f already has a real body, not a stub: pass --blank' },
        1000,
      ),
      { type: 'thm.phase', phase: 'probe' },
      1000,
    );
    expect(render(<ThmScreen view={warned} width={100} height={30} />).lastFrame()).toMatch(
      /^! f already has a real body, not a stub: pass --blank\nTest Harness Mechanism/,
    );
    const { prompt } = approval();
    expect(render(<ThmScreen view={warned} prompt={prompt} width={100} height={30} />).lastFrame()).toMatch(
      /^! f already has a real body, not a stub: pass --blank\nTHM 9 tests/,
    );
  });

  it('names a broken module with the place of its error, and counts it once, not among the unreached tests (stub mode)', () => {
    const base = sampleReport();
    const report = {
      ...base,
      failing: [
        ...base.failing,
        { ...base.failing.find((f) => !f.reached)!, nodeid: 'tests/test_units.py', outcome: 'collection' as const },
      ],
      counts: { ...base.counts, failing: base.counts.failing + 1, unreached: base.counts.unreached + 1 },
      importErrors: [
        {
          module: 'tests/test_units.py',
          message: "SyntaxError: expected ':'",
          broken: true,
          kind: 'syntax-error' as const,
          at: 'pkg/units.py:2',
        },
      ],
    };
    const frame = render(
      <ThmScreen
        view={initialView()}
        prompt={{ kind: 'approve-tests', report, resolve: vi.fn() }}
        width={100}
        height={30}
      />,
    )
      .lastFrame()!
      .replace(/\s*\n\s*/g, ' ');
    expect(frame).toContain('4 failing (1 unreached)');
    expect(frame).toContain("1 broken test module (tests/test_units.py: SyntaxError: expected ':' at pkg/units.py:2)");
  });

  it('an override: expand, take a test in and another out, approve with Enter', async () => {
    const { prompt, resolve } = approval();
    const { stdin, lastFrame } = render(<ThmScreen view={initialView()} prompt={prompt} width={100} height={30} />);
    await frameShows(lastFrame, 'Selected');
    stdin.write(KEYS.down); // test_direct's test row
    await frameShows(lastFrame, 'test 1/1 of its cluster');
    stdin.write(KEYS.down); // cluster m.py::g
    await frameShows(lastFrame, 'cluster 2/2');
    stdin.write(KEYS.right); // expand it
    await frameShows(lastFrame, 't.py::test_b depth 3');
    stdin.write(KEYS.down);
    await frameShows(lastFrame, 'test 1/2 of its cluster');
    stdin.write(KEYS.down); // test_b
    await frameShows(lastFrame, 't.py::test_b → m.py::h → m.py::g → m.py::f');
    stdin.write(KEYS.space); // in
    await frameShows(lastFrame, 'Selected 3 (T=2) · changed from the proposal: 1 added by you');
    stdin.write(KEYS.up);
    await frameShows(lastFrame, 'test 1/2 of its cluster');
    stdin.write(KEYS.space); // test_a out
    await frameShows(lastFrame, 'changed from the proposal: 1 added and 1 removed by you');
    stdin.write(KEYS.enter);
    await until(() => resolve.mock.calls.length > 0);
    expect(resolve).toHaveBeenCalledWith({ chosen: ['t.py::test_direct', 't.py::test_b'], by: 'human', T: 2 });
  });

  it('+ and - change T and propose again; a accepts the proposal as it is', async () => {
    const { prompt, resolve } = approval();
    const { stdin, lastFrame } = render(<ThmScreen view={initialView()} prompt={prompt} width={100} height={30} />);
    await frameShows(lastFrame, 'Selected');
    stdin.write('+');
    await frameShows(lastFrame, 'Selected 3 (T=3)');
    stdin.write('-');
    await frameShows(lastFrame, 'Selected 2 (T=2)');
    stdin.write('-');
    await frameShows(lastFrame, 'Selected 1 (T=1)');
    stdin.write('a');
    await until(() => resolve.mock.calls.length > 0);
    expect(resolve).toHaveBeenCalledWith({ chosen: ['t.py::test_direct', 't.py::test_a'], by: 'human', T: 2 });
  });

  it('v shows the source of the test under the cursor', async () => {
    const { prompt } = approval();
    const sourceOf = vi.fn(async (nodeid: string) => `def ${nodeid.split('::')[1]}():\n    assert f(1) == 2`);
    const { stdin, lastFrame } = render(
      <ThmScreen view={initialView()} prompt={prompt} width={100} height={30} sourceOf={sourceOf} />,
    );
    await frameShows(lastFrame, 'Selected');
    stdin.write('v');
    await frameShows(lastFrame, 'def test_direct():');
    stdin.write(KEYS.escape);
    await frameShows(lastFrame, 'Selected 2');
  });

  it('still works in a small terminal', () => {
    const { prompt } = approval();
    const { lastFrame } = render(<ThmScreen view={initialView()} prompt={prompt} width={40} height={12} />);
    expect(lastFrame()).toContain('Selected 2 (T=2)');
  });

  it('shows how the highlighted test fails when the terminal has room, and not in a short one', () => {
    const { prompt } = approval();
    prompt.report.failing[0]!.longrepr =
      't.py:3: in test_direct\n    assert f(1) == 2\nm.py:2: in f\n    raise NotImplementedError\nE   NotImplementedError';
    const tall = render(<ThmScreen view={initialView()} prompt={prompt} width={100} height={40} />).lastFrame()!;
    expect(tall).toContain('how it fails (failed):');
    expect(tall).toContain('    assert f(1) == 2');
    expect(tall).toContain('E   NotImplementedError');
    const short = render(<ThmScreen view={initialView()} prompt={prompt} width={100} height={14} />).lastFrame()!;
    expect(short).not.toContain('how it fails');
  });

  it('while the suite is collected, the files and tests found so far', async () => {
    let view = reduceView(initialView(), { type: 'thm.phase', phase: 'probe' }, Date.now());
    view = reduceView(view, { type: 'thm.collecting', phase: 'probe', files: 12, tests: 340 });
    const { lastFrame, unmount } = render(<ThmScreen view={view} width={100} height={30} />);
    await frameShows(lastFrame, 'collecting the tests: 12 files, 340 tests so far');
    unmount();
    view = reduceView(view, { type: 'thm.collected', phase: 'probe', total: 400 });
    expect(render(<ThmScreen view={view} width={100} height={30} />).lastFrame()).toContain('0/400 tests · 0 failing');
  });

  it('when the bar is full but a few tests still run, names them and how long they have run', async () => {
    const now = Date.now();
    let view = reduceView(initialView(), { type: 'thm.phase', phase: 'probe' }, now - 60_000);
    view = reduceView(view, { type: 'thm.collected', phase: 'probe', total: 3 });
    view = reduceView(view, {
      type: 'thm.test',
      phase: 'probe',
      nodeid: 't.py::fast',
      outcome: 'passed',
      reached: false,
      durationMs: 1,
    });
    view = reduceView(view, {
      type: 'thm.running',
      phase: 'probe',
      tests: [
        { nodeid: 'tests/test_io.py::test_waits_for_a_socket', since: now - 3_000 },
        { nodeid: 'tests/test_io.py::test_slow_pipe', since: now - 41_000 },
      ],
    });
    const { lastFrame, unmount } = render(<ThmScreen view={view} width={100} height={30} />);
    await frameShows(lastFrame, 'still running:');
    const rows = lastFrame()!.split('\n');
    const at = rows.findIndex((r) => r.includes('still running:'));
    // Longest first, each with its time; the time moves on without events.
    expect(rows[at + 1]).toMatch(/tests\/test_io\.py::test_slow_pipe · 4[12] s/);
    expect(rows[at + 2]).toMatch(/test_waits_for_a_socket · [34] s/);
    await frameShows(lastFrame, /test_waits_for_a_socket · [56] s/, 4000);
    unmount();
    view = reduceView(view, { type: 'thm.running', phase: 'probe', tests: [] });
    expect(render(<ThmScreen view={view} width={100} height={30} />).lastFrame()).not.toContain('still running');
    // Every test ran, nothing runs: what the full bar waits for is pytest's own end.
    view = reduceView(view, {
      type: 'thm.test',
      phase: 'probe',
      nodeid: 't.py::a',
      outcome: 'passed',
      reached: false,
      durationMs: 1,
    });
    view = reduceView(view, {
      type: 'thm.test',
      phase: 'probe',
      nodeid: 't.py::b',
      outcome: 'passed',
      reached: false,
      durationMs: 1,
    });
    expect(render(<ThmScreen view={view} width={100} height={30} />).lastFrame()).toMatch(
      /3\/3 tests · 0 failing · [\d.]+ s · \d+ tests\/s · pytest is finishing/,
    );
  });

  it('the elapsed time ticks while the suite is collected, though no event comes', async () => {
    const view = reduceView(initialView(), { type: 'thm.phase', phase: 'probe' }, Date.now() - 2000);
    const { lastFrame, unmount } = render(<ThmScreen view={view} width={100} height={30} />);
    expect(lastFrame()).toMatch(/collecting the tests · 2\.\d s/);
    // A second later (or more, on a loaded machine) the clock says so.
    await frameShows(lastFrame, /collecting the tests · ([3-9]|\d\d)\.\d s/);
    unmount();
  });

  it('names the target and the repository, and its clock runs from the session start while the workspace is made and the tests are collected (issue 37.12)', async () => {
    const view = reduceView(
      initialView(),
      { ...(start as EventOf<'session.start'>), target: 'invoicing/tax.py::tax_for', repo: '/home/dev/invoicing' },
      Date.now() - 2000,
    );
    const { lastFrame, unmount } = render(<ThmScreen view={view} width={100} height={30} />);
    expect(lastFrame()).toContain('Test Harness Mechanism · invoicing/tax.py::tax_for in /home/dev/invoicing');
    expect(lastFrame()).toContain('preparing the workspace');
    expect(lastFrame()).toMatch(/starting · 2\.\d s/);
    unmount();
    // THM starts and collects: the clock goes on from the session's start, it does not read 0.0 s.
    const collecting = reduceView(
      reduceView(view, {
        type: 'thm.start',
        target: 'invoicing/tax.py::tax_for',
        mode: 'stub',
        twins: false,
        shards: 1,
        testArgs: [],
      }),
      { type: 'thm.phase', phase: 'probe' },
    );
    const again = render(<ThmScreen view={collecting} width={100} height={30} />);
    expect(again.lastFrame()).toMatch(/collecting the tests · 2\.\d s/);
    await frameShows(again.lastFrame, /collecting the tests · ([3-9]|\d\d)\.\d s/);
    again.unmount();
  });

  it('says "approved" only once the tests are approved, not between the report and the review (issue 37.12)', () => {
    const reported = reduceView(initialView(), { type: 'thm.report', report: sampleReport() });
    const before = render(<ThmScreen view={reported} width={100} height={30} />).lastFrame()!;
    expect(before).toContain('THM 9 tests');
    expect(before).not.toContain('approved');
    const approved = reduceView(reported, {
      type: 'thm.approval',
      proposed: sampleReport().selected,
      chosen: sampleReport().selected,
      by: 'human',
      T: 2,
    });
    expect(render(<ThmScreen view={approved} width={100} height={30} />).lastFrame()).toContain('approved');
  });

  it("a replay's progress is timed by the recorded events, not the wall clock", () => {
    const start = Date.parse('2026-01-01T00:00:00Z');
    const at = (ms: number) => new Date(start + ms).toISOString();
    const view = reduceAll([
      { type: 'thm.start', target: 'm.py::f', mode: 'stub', twins: false, shards: 1, testArgs: [], ts: at(0) },
      { type: 'thm.phase', phase: 'probe', ts: at(10) },
      { type: 'thm.collected', phase: 'probe', total: 4, ts: at(300) },
      ...[0, 1, 2, 3].map((i) => ({
        type: 'thm.test' as const,
        phase: 'probe' as const,
        nodeid: `t${i}`,
        outcome: 'passed',
        reached: false,
        durationMs: 1,
        ts: at(400 + 100 * i),
      })),
    ]);
    const { lastFrame } = render(<ThmScreen view={view} width={100} height={30} clock="recorded" />);
    expect(lastFrame()).toContain('4/4 tests · 0 failing · 0.7 s · 6 tests/s · pytest is finishing');
  });

  it('changing T proposes again and is not an override; only taking tests in or out is', async () => {
    const { prompt, resolve } = approval();
    const { stdin, lastFrame } = render(<ThmScreen view={initialView()} prompt={prompt} width={100} height={30} />);
    await frameShows(lastFrame, 'Selected');
    stdin.write('+');
    await frameShows(lastFrame, 'Selected 3 (T=3)');
    expect(lastFrame()).not.toContain('changed from the proposal');
    stdin.write(KEYS.enter);
    await until(() => resolve.mock.calls.length > 0);
    // The T chosen goes with the tests, so the proposal they are compared with is T=3's.
    expect(resolve).toHaveBeenCalledWith({
      chosen: ['t.py::test_direct', 't.py::test_a', 't.py::test_b'],
      by: 'human',
      T: 3,
    });
    const approved = (chosen: string[]) =>
      reduceAll([
        { type: 'thm.report', report: sampleReport() },
        { type: 'thm.approval', proposed: sampleReport().selected, chosen, by: 'human', T: 3 },
      ]).agent.items;
    expect(approved(['t.py::test_direct', 't.py::test_a', 't.py::test_b'])).toEqual([]);
    expect(approved(['t.py::test_direct', 't.py::test_b'])).toMatchObject([
      {
        kind: 'note',
        tone: 'human',
        text: expect.stringContaining('proposed for T=3: t.py::test_direct, t.py::test_a, t.py::test_b'),
      },
    ]);
  });
  it('a test that fails through a cached fixture says which, in its row and under the list', async () => {
    const report = sampleReport();
    report.failing.push({
      ...report.failing[3]!,
      nodeid: 't.py::test_cached',
      failsThrough: 'conftest.py::db',
      message: 'NotImplementedError',
    });
    report.counts = { ...report.counts, failing: 5, unreached: 2 };
    const prompt = { kind: 'approve-tests' as const, report, resolve: vi.fn() };
    const { stdin, lastFrame } = render(<ThmScreen view={initialView()} prompt={prompt} width={100} height={30} />);
    await frameShows(lastFrame, 'Selected');
    expect(lastFrame()).toContain('Failing without reaching the target (2)');
    expect(lastFrame()).toMatch(/t\.py::test_subprocess not reached/);
    expect(lastFrame()).toMatch(/t\.py::test_cached fails through db/);
    // The tests that never reached the target are in natural order: test_cached first.
    for (let i = 0; i < 4; i++) stdin.write(KEYS.down);
    await frameShows(lastFrame, /❯\s+t\.py::test_cached/);
    expect(lastFrame()).toContain('t.py::test_cached fails through:');
    expect(lastFrame()).toContain('conftest.py::db, a wider-scoped fixture, called the target in an earlier test');
  });
});

describe('the open cluster (issue 37.8)', () => {
  it('follows the cluster, not its position, when the list changes (a new cluster comes first)', async () => {
    const { prompt } = approval();
    const view = { ...initialView(), thm: { ...initialView().thm, report: sampleReport() } };
    const ui = render(<ThmScreen view={view} prompt={prompt} width={100} height={30} />);
    await frameShows(ui.lastFrame, '❯ ▾ t.py::test_direct');
    ui.stdin.write(KEYS.left); // the first cluster closed
    await frameShows(ui.lastFrame, '❯ ▸ t.py::test_direct');
    ui.stdin.write(KEYS.down);
    await frameShows(ui.lastFrame, '❯ ▸ m.py::g');
    ui.stdin.write(KEYS.right); // m.py::g open: its tests show
    await frameShows(ui.lastFrame, '▾ m.py::g');
    // A test of the developer's makes a cluster of its own, first in the list.
    const base = sampleReport();
    const mine = {
      ...base.failing[0]!,
      nodeid: 't_by_developer.py::test_mine',
      chain: ['t_by_developer.py::test_mine', 'm.py::f'],
      caller: 't_by_developer.py::test_mine',
    };
    const grown = {
      ...base,
      failing: [mine, ...base.failing],
      clusters: [
        { caller: 't_by_developer.py::test_mine', tests: [mine.nodeid], representative: mine.nodeid, depth: 1 },
        ...base.clusters,
      ],
    };
    ui.rerender(
      <ThmScreen view={{ ...view, thm: { ...view.thm, report: grown } }} prompt={prompt} width={100} height={30} />,
    );
    await frameShows(ui.lastFrame, 't_by_developer.py::test_mine');
    const frame = ui.lastFrame()!;
    expect(frame).toMatch(/▾ m\.py::g/);
    expect(frame).toContain('t.py::test_b');
    expect(frame).toMatch(/▸ t\.py::test_direct/);
    ui.unmount();
  });
});

describe('-T all in the THM review (issue 37.8)', () => {
  it('shows T=all with every reached test selected, and Enter approves with T=all (not the default 3)', async () => {
    const resolve = vi.fn();
    const all = { ...sampleReport(), T: null, selected: ['t.py::test_direct', 't.py::test_a', 't.py::test_b'] };
    const ui = render(
      <ThmScreen
        view={initialView()}
        prompt={{ kind: 'approve-tests', report: all, resolve }}
        width={100}
        height={30}
      />,
    );
    await frameShows(ui.lastFrame, 'Selected 3 (T=all)');
    ui.stdin.write(KEYS.enter);
    await until(() => resolve.mock.calls.length > 0);
    expect(resolve).toHaveBeenCalledWith({ chosen: all.selected, by: 'human', T: null });
    ui.unmount();
  });

  it('- from all goes below what all selects; + at all stays all', async () => {
    const all = { ...sampleReport(), T: null, selected: ['t.py::test_direct', 't.py::test_a', 't.py::test_b'] };
    const ui = render(
      <ThmScreen
        view={initialView()}
        prompt={{ kind: 'approve-tests', report: all, resolve: vi.fn() }}
        width={100}
        height={30}
      />,
    );
    await frameShows(ui.lastFrame, 'Selected 3 (T=all)');
    ui.stdin.write('+');
    await new Promise((r) => setTimeout(r, 50));
    expect(ui.lastFrame()).toContain('Selected 3 (T=all)');
    ui.stdin.write('-');
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    ui.unmount();
  });
});
