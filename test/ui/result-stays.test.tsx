import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { EngineEvent, RunResult } from '../../source/engine/events';
import { ResultScreen, wallText } from '../../source/ui/screens/result-screen';
import { reduceAll, sessionWallMs } from '../../source/ui/view-state';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { approvedStart, frameShows } from './helpers';

// Issue 37.3: `s` (save) and `a` + `y` (apply) quit at once, so one could not save then apply, or
// look around after. Both stay on the result screen and say what they did; `q` quits.

const passed = (): RunResult => ({
  type: 'result',
  sessionId: 's1',
  target: 'm.py::f',
  strategy: 'tenet',
  pass: true,
  stopReason: 'passed',
  selectedTests: { passed: 1, total: 1 },
  hiddenTests: { passed: 1, total: 1 },
  tests: { 't.py::test_a': 'passed', 't.py::test_b': 'passed' },
  usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 1 },
  rounds: { pregen: 1, rrwAttempts: 0, total: 1 },
  costUsd: 0,
  costOfPass: 0,
  wallMs: 1,
  patch: '--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n def f():\n-    pass\n+    return 1\n',
  model: 'm',
});

function atResult() {
  const controller = new TuiController({ autoApproveCommands: true });
  // No file is written by a test: the write is the controller's.
  const save = vi.fn((_file: string, _patch: string): string | undefined => undefined);
  controller.savePatch = save;
  const app = (finished: boolean) => <LiveApp controller={controller} finished={finished} onQuit={() => undefined} />;
  const ui = render(app(false));
  for (const event of approvedStart()) controller.dispatch(event);
  const answer = controller.acceptPatch(passed());
  return { controller, save, ui, answer, app };
}

describe('the result screen stays after a decision', () => {
  it('s saves the patch and stays; a then y applies it after; the screen says both, and stays until q', async () => {
    const { controller, save, ui, answer, app } = atResult();
    await frameShows(ui.lastFrame, 'a apply the patch to the checkout');
    ui.stdin.write('s');
    await frameShows(ui.lastFrame, /patch saved to \S+tenet-s1\.patch/);
    expect(save).toHaveBeenCalledWith(expect.stringMatching(/tenet-s1\.patch$/), passed().patch);
    expect(ui.lastFrame()).toContain('a apply the patch to the checkout');
    ui.stdin.write('a');
    await frameShows(ui.lastFrame, 'Apply the patch (+1 −1) to m.py? y/N');
    ui.stdin.write('y');
    expect(await answer).toBe('accept');
    controller.dispatch({ type: 'patch.decision', decision: 'accept', applied: true });
    controller.dispatch(passed());
    ui.rerender(app(true));
    await frameShows(ui.lastFrame, 'patch applied to the checkout');
    expect(ui.lastFrame()).toContain('q quit');
    ui.unmount();
  });

  it('q after s records where the patch was saved', async () => {
    const { ui, answer } = atResult();
    await frameShows(ui.lastFrame, 'a apply the patch to the checkout');
    ui.stdin.write('s');
    await frameShows(ui.lastFrame, 'patch saved to');
    ui.stdin.write('q');
    expect(await answer).toEqual({ saveTo: expect.stringMatching(/tenet-s1\.patch$/) });
    ui.unmount();
  });

  it('r rejects and stays, saying so', async () => {
    const { controller, ui, answer, app } = atResult();
    await frameShows(ui.lastFrame, 'a apply the patch to the checkout');
    ui.stdin.write('r');
    expect(await answer).toBe(false);
    controller.dispatch({ type: 'patch.decision', decision: 'reject', applied: false });
    controller.dispatch(passed());
    ui.rerender(app(true));
    await frameShows(ui.lastFrame, 'patch rejected');
    ui.unmount();
  });

  it('when every test passed, the footer offers no Enter for a failure to show (issue 37.8)', async () => {
    const { ui } = atResult();
    await frameShows(ui.lastFrame, 'a apply the patch to the checkout');
    expect(ui.lastFrame()).not.toContain('Enter show how a failed test failed');
    expect(ui.lastFrame()).not.toContain('Enter failure');
    ui.unmount();
  });
});

describe('the wall time of a resumed session (issue 37.6)', () => {
  it('shows the last part’s time and the session’s over its parts, not the time it lay stopped', async () => {
    const t0 = Date.parse('2026-12-04T10:00:00Z');
    const at = (s: number) => new Date(t0 + s * 1000).toISOString();
    const events = [
      { ...approvedStart()[0]!, ts: at(0) },
      { type: 'agent.phase', phase: 'pregen', rounds: 15, ts: at(10) },
      { type: 'session.interrupted', reason: 'Ctrl+C', ts: at(249.5) },
      { type: 'session.resumed', fromSeq: 3, position: 'pregen', ts: at(3600) },
      { type: 'agent.phase', phase: 'evaluate', ts: at(3660) },
      { ...passed(), wallMs: 64_500, ts: at(3664.5) },
    ] as (EngineEvent & { ts: string })[];
    const view = reduceAll(events);
    expect(view.clock.parts).toBe(2);
    expect(sessionWallMs(view)).toBe(314_000);
    expect(wallText(64_500, { wallMs: sessionWallMs(view), parts: view.clock.parts })).toBe(
      '64.5 s this part · 5 min 14 s in all (2 parts)',
    );
    // A session in one part keeps the one figure.
    expect(wallText(64_500, { wallMs: 64_500, parts: 1 })).toBe('64.5 s');
    const ui = render(
      <ResultScreen
        result={view.result!}
        width={100}
        height={30}
        session={{ wallMs: sessionWallMs(view), parts: view.clock.parts }}
      />,
    );
    await frameShows(ui.lastFrame, /64\.5 s this\s+part · 5 min 14 s in all \(2 parts\)/);
    ui.unmount();
  });
});
