import { describe, expect, it, vi } from 'vitest';
import type { DebuggerSession } from '../../source/engine/tools/debugger/session';
import { TuiController } from '../../source/ui/controller';
import { agentOn } from './agent-on';
import { frameShows, KEYS, until } from './helpers';

/** A debugger session that is open and answers nothing: enough for the takeover's keys. */
export const idleDebugger = () => ({ running: true, transcript: [], interrupt: vi.fn(), run: vi.fn(async () => '') }) as unknown as DebuggerSession;

describe('footer notices', () => {
  it('the takeover notice (Ctrl+C went to the program) clears when the debugger is handed back', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    const session = idleDebugger();
    controller.attach({ debugger: session, selectedTests: [] });
    ui.stdin.write('t');
    const waiting = controller.beforeModelCall();
    await frameShows(ui.lastFrame, 'you have the debugger');
    ui.stdin.write(KEYS.ctrlC);
    await frameShows(ui.lastFrame, 'Ctrl+C went to the program being debugged');
    expect(session.interrupt).toHaveBeenCalled();
    ui.stdin.write(KEYS.escape); // an empty line: hands back
    await waiting;
    await until(() => !ui.lastFrame()!.includes('Ctrl+C went to the program'), () => ui.lastFrame()!);
    expect(ui.lastFrame()).toContain('t take over'); // the key hints are back
    ui.unmount();
  });
});
