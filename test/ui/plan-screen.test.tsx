import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { EngineEvent, RunResult } from '../../source/engine/events';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { Header } from '../../source/ui/screens/agent-header';
import { PlanScreen } from '../../source/ui/screens/plan-screen';
import { ResultScreen } from '../../source/ui/screens/result-screen';
import { initialView, reduceView } from '../../source/ui/view-state';
import { start } from './agent-on';
import { frameShows, KEYS, until } from './helpers';
import { AREA, DESCRIBE, PERIMETER, proposal } from './plan-fixture';

// The plan screen of issue 45: before the first THM the developer sees the targets, their order
// and the tests that reach each, moves a target up or down, skips one, runs or stops; during the
// run the header says `target 2/3 · area`; the result screen shows one verdict per target, and
// `a` applies the passed ones.

/** The order of the targets as the screen lists them (the numbered rows). */
const listed = (frame: string | undefined) =>
  [...(frame ?? '').matchAll(/\d\. (describe|area|perimeter)/g)].map((m) => m[1]);

describe('the plan screen', () => {
  it('shows the targets in order with the tests that reach each; u/d move one, s skips it, Enter runs the plan so', async () => {
    const onDecide = vi.fn();
    const ui = render(<PlanScreen proposal={proposal()} width={100} height={30} onDecide={onDecide} />);
    await frameShows(ui.lastFrame, 'plan of 3 targets in geo/shapes.py');
    expect(listed(ui.lastFrame())).toEqual(['describe', 'area', 'perimeter']);
    expect(ui.lastFrame()).toContain('○ 2. area · 2 tests reach it');
    expect(ui.lastFrame()).toContain("def area(width, height): — The rectangle's area.");
    expect(ui.lastFrame()).toContain('file order: the code shows no target calling another');

    // The cursor to describe's row, moved down twice: it goes last.
    ui.stdin.write('d');
    await until(
      () => listed(ui.lastFrame()).join() === 'area,describe,perimeter',
      () => ui.lastFrame() ?? '',
    );
    ui.stdin.write('d');
    await until(
      () => listed(ui.lastFrame()).join() === 'area,perimeter,describe',
      () => ui.lastFrame() ?? '',
    );
    // Up from the top moves nothing; perimeter up goes before area.
    ui.stdin.write(KEYS.up);
    ui.stdin.write(KEYS.up);
    ui.stdin.write(KEYS.down);
    await frameShows(ui.lastFrame, /❯ ○ 2\. perimeter/);
    ui.stdin.write('u');
    await until(
      () => listed(ui.lastFrame()).join() === 'perimeter,area,describe',
      () => ui.lastFrame() ?? '',
    );
    // The cursor followed it to the top: skip perimeter, then take the skip back and skip area.
    ui.stdin.write('s');
    await frameShows(ui.lastFrame, '⏭ 1. perimeter · 1 test reaches it · skipped');
    ui.stdin.write('s');
    await frameShows(ui.lastFrame, '○ 1. perimeter');
    ui.stdin.write(KEYS.down);
    ui.stdin.write('s');
    await frameShows(ui.lastFrame, '⏭ 2. area');
    ui.stdin.write(KEYS.enter);
    await until(() => onDecide.mock.calls.length === 1);
    expect(onDecide).toHaveBeenCalledWith({ order: [PERIMETER, DESCRIBE], skipped: [AREA], by: 'human' });
  });

  it('Enter with nothing changed runs the proposal as proposed; x stops before anything runs', async () => {
    const run = vi.fn();
    const ui = render(<PlanScreen proposal={proposal()} width={100} height={30} onDecide={run} />);
    await frameShows(ui.lastFrame, 'Enter run · x stop');
    ui.stdin.write(KEYS.enter);
    await until(() => run.mock.calls.length === 1);
    expect(run).toHaveBeenCalledWith({ order: [DESCRIBE, AREA, PERIMETER], skipped: [], by: 'auto' });

    const stop = vi.fn();
    const other = render(<PlanScreen proposal={proposal()} width={100} height={30} onDecide={stop} />);
    await frameShows(other.lastFrame, 'Enter run · x stop');
    other.stdin.write('x');
    await until(() => stop.mock.calls.length === 1);
    expect(stop).toHaveBeenCalledWith({ stop: true });
  });
});

describe('the plan screen in the live app', () => {
  it("answers the engine's plan question before THM's screen, and gives the keys back once decided", async () => {
    const controller = new TuiController({ autoApproveCommands: false });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    controller.dispatch(start);
    const decided = controller.approvePlan(proposal());
    await frameShows(ui.lastFrame, 'plan of 3 targets in geo/shapes.py');
    ui.stdin.write(KEYS.down);
    ui.stdin.write('s');
    await frameShows(ui.lastFrame, '⏭ 2. area');
    ui.stdin.write(KEYS.enter);
    expect(await decided).toEqual({ order: [DESCRIBE, PERIMETER], skipped: [AREA], by: 'human' });
    await frameShows(ui.lastFrame, 'Test Harness Mechanism');
    expect(ui.lastFrame()).not.toContain('plan of 3 targets');
  });
});

describe('a plan while it runs', () => {
  it('the header says `target 2/3 · area` and each target’s status', async () => {
    const events: EngineEvent[] = [
      {
        type: 'plan',
        targets: proposal().targets,
        proposed: [DESCRIBE, AREA, PERIMETER],
        order: [AREA, PERIMETER, DESCRIBE],
        skipped: [],
        by: 'human',
        why: [],
        stopOnFail: false,
        files: [],
      },
      { type: 'plan.target', target: AREA, index: 1, total: 3 },
      {
        type: 'plan.target.end',
        target: AREA,
        pass: true,
        stopReason: 'passed',
        selectedTests: { passed: 2, total: 2 },
        hiddenTests: { passed: 0, total: 0 },
        attempts: 0,
        kept: true,
        failing: [],
        selected: [],
      },
      { type: 'plan.target', target: PERIMETER, index: 2, total: 3 },
    ];
    const view = events.reduce((state, event) => reduceView(state, event, 0), initialView());
    const ui = render(<Header view={view} width={100} clock="recorded" />);
    await frameShows(ui.lastFrame, 'target 2/3 · perimeter');
    expect(ui.lastFrame()).toContain('plan: ✓ area · ◐ perimeter · ○ describe');
  });
});

describe("a plan's result screen", () => {
  const planResult = (): RunResult => ({
    type: 'result',
    sessionId: 's1',
    target: 'geo/shapes.py (3 targets)',
    strategy: 'tenet',
    pass: false,
    stopReason: 'budget',
    message: '2 of 3 targets passed; describe: budget',
    selectedTests: { passed: 5, total: 6 },
    hiddenTests: { passed: 1, total: 1 },
    tests: {},
    usage: { inputTokens: 1, outputTokens: 1, modelCalls: 3, toolCalls: 3 },
    rounds: { pregen: 3, rrwAttempts: 0, total: 3 },
    costUsd: 0,
    costOfPass: null,
    wallMs: 1,
    patch:
      '--- a/geo/shapes.py\n+++ b/geo/shapes.py\n@@ -1,2 +1,2 @@\n def area(w, h):\n-    pass\n+    return w * h\n',
    model: 'm',
    targets: [
      {
        target: AREA,
        pass: true,
        stopReason: 'passed',
        selectedTests: { passed: 3, total: 3 },
        hiddenTests: { passed: 1, total: 1 },
        attempts: 0,
      },
      {
        target: PERIMETER,
        pass: true,
        stopReason: 'passed',
        selectedTests: { passed: 2, total: 2 },
        hiddenTests: { passed: 0, total: 0 },
        attempts: 0,
      },
      {
        target: DESCRIBE,
        pass: false,
        stopReason: 'budget',
        selectedTests: { passed: 0, total: 1 },
        hiddenTests: { passed: 0, total: 0 },
        attempts: 5,
      },
    ],
  });

  const renderResult = () => {
    const resolve = vi.fn();
    const result = planResult();
    const ui = render(
      <ResultScreen result={result} width={100} height={40} prompt={{ kind: 'accept-patch', result, resolve }} />,
    );
    return { ui, resolve };
  };

  it('shows one verdict per target, and `a` applies the targets that passed', async () => {
    const { ui, resolve } = renderResult();
    await frameShows(ui.lastFrame, '1 [x] ✓ area  selected 3/3 · hidden 1/1');
    expect(ui.lastFrame()).toContain('2 [x] ✓ perimeter  selected 2/2 · hidden 0/0');
    expect(ui.lastFrame()).toContain('3 [ ] ✗ describe  selected 0/1 · hidden 0/0 · budget');
    ui.stdin.write('a');
    await frameShows(ui.lastFrame, 'y/N');
    ui.stdin.write('y');
    await until(() => resolve.mock.calls.length === 1);
    expect(resolve).toHaveBeenCalledWith({ targets: [AREA, PERIMETER] });
  });

  it('lets the developer choose per target: a number takes one out or puts one in, and asks twice for failing code', async () => {
    const { ui, resolve } = renderResult();
    await frameShows(ui.lastFrame, '1 [x] ✓ area');
    ui.stdin.write('2');
    await frameShows(ui.lastFrame, '2 [ ] ✓ perimeter');
    ui.stdin.write('3');
    await frameShows(ui.lastFrame, '3 [x] ✗ describe');
    ui.stdin.write('a');
    // describe did not pass: the first question is whether to apply failing code.
    await frameShows(ui.lastFrame, 'Apply a patch that failed?');
    ui.stdin.write('y');
    await frameShows(ui.lastFrame, 'y/N');
    ui.stdin.write('y');
    await until(() => resolve.mock.calls.length === 1);
    expect(resolve).toHaveBeenCalledWith({ targets: [AREA, DESCRIBE] });
  });

  it('says so when no target is chosen, and applies nothing', async () => {
    const { ui, resolve } = renderResult();
    await frameShows(ui.lastFrame, '1 [x] ✓ area');
    ui.stdin.write('1');
    await frameShows(ui.lastFrame, '1 [ ] ✓ area');
    ui.stdin.write('2');
    await frameShows(ui.lastFrame, '2 [ ] ✓ perimeter');
    ui.stdin.write('a');
    await frameShows(ui.lastFrame, 'no target chosen');
    expect(resolve).not.toHaveBeenCalled();
  });
});
