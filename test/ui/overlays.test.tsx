import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { RunResult } from '../../source/engine/events';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { ReplayScreen } from '../../source/ui/screens/replay-screen';
import { agentOn, start } from './agent-on';
import { approvedStart, frameShows, KEYS, resize, sampleReport, until } from './helpers';

// An overlay (the help, the apply question, "too small") covers a screen without unmounting it:
// what the developer chose, opened or scrolled on the screen is there when the overlay closes.

const HELP = 'Keys (? or Esc to close)';

/** A result whose diff is longer than the screen: its position line says how far it is scrolled. */
const longResult = (): RunResult => ({
  type: 'result',
  sessionId: 's1',
  target: 'm.py::f',
  strategy: 'tenet',
  pass: true,
  stopReason: 'passed',
  selectedTests: { passed: 2, total: 2 },
  hiddenTests: { passed: 1, total: 1 },
  tests: { 't.py::test_direct': 'passed' },
  usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 1 },
  rounds: { pregen: 1, rrwAttempts: 0, total: 1 },
  costUsd: 0,
  costOfPass: 0,
  wallMs: 1,
  model: 'm',
  patch: `--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,61 @@\n def f():\n-    pass\n${Array.from({ length: 60 }, (_, i) => `+    x${i} = ${i}`).join('\n')}\n`,
});

describe('an overlay keeps the screen under it as it was', () => {
  it('THM review: the tests taken out by hand are still out after ? and Esc', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    resize(ui.stdout, 100, 40);
    controller.dispatch(start);
    controller.dispatch({ type: 'thm.report', report: sampleReport() });
    const approved = controller.approveTests(sampleReport());
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    ui.stdin.write(KEYS.space); // the first cluster's test out
    await frameShows(ui.lastFrame, '1 removed by you');
    ui.stdin.write('?');
    await frameShows(ui.lastFrame, HELP);
    expect(ui.lastFrame()).not.toContain('removed by you'); // the help covers the review
    ui.stdin.write(KEYS.escape); // the help's: the review does not see it
    await frameShows(ui.lastFrame, 'Selected 1 (T=2) · changed from the proposal: 1 removed by you');
    ui.stdin.write(KEYS.enter);
    expect(await approved).toEqual({ chosen: ['t.py::test_a'], by: 'human', T: 2 });
    ui.unmount();
  });

  it('THM review: a filter and an open cluster survive the terminal being too small for a moment', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    resize(ui.stdout, 100, 40);
    controller.dispatch(start);
    controller.dispatch({ type: 'thm.report', report: sampleReport() });
    void controller.approveTests(sampleReport());
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    ui.stdin.write('/');
    await frameShows(ui.lastFrame, 'filter clusters and tests');
    ui.stdin.write('test_b');
    await frameShows(ui.lastFrame, '1 test matches');
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, 'filter "test_b"');
    resize(ui.stdout, 30, 8);
    await frameShows(ui.lastFrame, 'enlarge it');
    resize(ui.stdout, 100, 40);
    await frameShows(ui.lastFrame, 'filter "test_b": 1 test matches');
    ui.unmount();
  });

  it('agent screen: the latest output stays expanded after ? and Esc', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    resize(ui.stdout, 100, 40);
    controller.dispatch({ type: 'tool.call', id: 'c1', name: 'search_method', arguments: '{"method_name":"g"}' });
    controller.dispatch({
      type: 'tool.result',
      id: 'c1',
      name: 'search_method',
      ok: true,
      text: Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n'),
      durationMs: 3,
    });
    await frameShows(ui.lastFrame, /more lines?/);
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, 'line 20');
    ui.stdin.write('?');
    await frameShows(ui.lastFrame, HELP);
    ui.stdin.write('?');
    await until(
      () => !ui.lastFrame()!.includes(HELP),
      () => ui.lastFrame()!,
    );
    expect(ui.lastFrame()).toContain('line 20');
    ui.unmount();
  });

  it('result screen: the diff stays where it was scrolled after ?, and after a no to the apply question', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    resize(ui.stdout, 100, 30);
    void controller.acceptPatch(longResult());
    await frameShows(ui.lastFrame, /lines 1–\d+ of 65/);
    for (let i = 0; i < 5; i++) ui.stdin.write(KEYS.down);
    await frameShows(ui.lastFrame, /lines 6–\d+ of 65/);
    ui.stdin.write('?');
    await frameShows(ui.lastFrame, HELP);
    ui.stdin.write(KEYS.down); // the help's (it has little to scroll): not the diff's
    ui.stdin.write(KEYS.escape);
    await frameShows(ui.lastFrame, /lines 6–\d+ of 65/);
    ui.stdin.write('a');
    await frameShows(ui.lastFrame, 'y/N');
    ui.stdin.write('n');
    await frameShows(ui.lastFrame, /lines 6–\d+ of 65/);
    ui.unmount();
  });

  it('replay: the latest output stays expanded after ? and Esc', async () => {
    const text = Array.from({ length: 20 }, (_, i) => `line ${i + 1}`).join('\n');
    const events = [
      ...approvedStart(),
      { type: 'tool.call' as const, id: 'c1', name: 'search_method', arguments: '{"method_name":"g"}' },
      { type: 'tool.result' as const, id: 'c1', name: 'search_method', ok: true, text, durationMs: 1 },
    ];
    const ui = render(<ReplayScreen id="s1" events={events} onBack={() => undefined} autoplay={false} />);
    resize(ui.stdout, 100, 40);
    for (let i = 0; i < events.length; i++) ui.stdin.write(KEYS.right);
    await frameShows(ui.lastFrame, `event ${events.length}/${events.length}`);
    await frameShows(ui.lastFrame, /more lines?/);
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, 'line 20');
    ui.stdin.write('?');
    await frameShows(ui.lastFrame, HELP);
    ui.stdin.write(KEYS.escape);
    await frameShows(ui.lastFrame, `event ${events.length}/${events.length}`);
    expect(ui.lastFrame()).toContain('line 20');
    ui.unmount();
  });
});
