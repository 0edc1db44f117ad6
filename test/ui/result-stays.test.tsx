import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { RunResult } from '../../source/engine/events';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { approvedStart, frameShows } from './helpers';

// Issue 37.3: `s` (save) and `a` + `y` (apply) quit at once, so one could not save then apply, or
// look around after. Both stay on the result screen and say what they did; `q` quits.

const passed = (): RunResult => ({
  type: 'result', sessionId: 's1', target: 'm.py::f', strategy: 'tenet', pass: true, stopReason: 'passed',
  selectedTests: { passed: 1, total: 1 }, hiddenTests: { passed: 1, total: 1 }, tests: { 't.py::test_a': 'passed', 't.py::test_b': 'passed' },
  usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 1 }, rounds: { pregen: 1, rrwAttempts: 0, total: 1 },
  costUsd: 0, costOfPass: 0, wallMs: 1, patch: '--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n def f():\n-    pass\n+    return 1\n', model: 'm',
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
