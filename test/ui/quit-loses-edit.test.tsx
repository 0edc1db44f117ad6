import { describe, expect, it, vi } from 'vitest';
import { render } from 'ink-testing-library';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { frameShows, KEYS, until } from './helpers';
import { start } from './agent-on';

// Issue 46.2: arguments edited at a step pause, then Ctrl+C twice: the edit is recorded only when
// the call runs, so it was lost without a word and the resumed pause showed the model's code.

const call = { id: 'c1', name: 'submit_implementation', arguments: '{"code":"def f():\\n    return 1\\n"}' };

describe('quitting at a step pause with edited arguments', () => {
  it('says at the first Ctrl+C that the edit is lost, and what quit prints says it too', async () => {
    const controller = new TuiController({ autoApproveCommands: true, step: true, autoApproveTests: true });
    const onQuit = vi.fn();
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={onQuit} />);
    controller.dispatch(start);
    controller.dispatch({ type: 'thm.approval', proposed: ['t.py::a'], chosen: ['t.py::a'], by: 'auto', T: 2 });
    controller.dispatch({ type: 'agent.phase', phase: 'pregen', rounds: 15 });
    void controller.beforeToolCall(call);
    await frameShows(ui.lastFrame, '⏸ step: before the tool call submit_implementation');
    expect(controller.unsavedEdit()).toBeUndefined();
    controller.setStepArguments('{"code":"def f():\\n    return 2\\n"}');
    await until(() => !!controller.unsavedEdit());
    ui.stdin.write(KEYS.ctrlC);
    await frameShows(ui.lastFrame, 'Ctrl+C again quits and loses your edit');
    expect(controller.unsavedEdit()).toContain("your edit of submit_implementation's arguments");
    ui.stdin.write(KEYS.ctrlC);
    await until(() => onQuit.mock.calls.length === 1);
    ui.unmount();
  });
});
