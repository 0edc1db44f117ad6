import { describe, expect, it } from 'vitest';
import { TuiController } from '../../source/ui/controller';
import { agentOn } from './agent-on';
import { frameShows, KEYS } from './helpers';

const OSC_52 = '\x1b]52;c;cm0gLXJmIH4=\x07';
const OSC_0 = '\x1b]0;owned\x1b\\';
const CLEAR = '\x1b[2J\x1b[H';
/** What must never reach the terminal from untrusted text: OSC strings, clear screen, bells, 8-bit CSI. */
const HOSTILE = /\x1b\]|\x1b\[2J|\x1b\[H|\x07|\x9b/;

describe('the TUI never passes terminal control sequences of untrusted text through', () => {
  it('model text, tool output and debugger output are shown without them', async () => {
    const controller = new TuiController({ autoApproveCommands: false });
    const ui = await agentOn(controller);
    controller.dispatch({ type: 'model.delta', text: `Thinking ${OSC_52}${OSC_0}aloud${CLEAR}\x9b2J.` });
    await frameShows(ui.lastFrame, 'Thinking aloud');
    expect(ui.lastFrame()).toContain('Thinking aloud');
    expect(ui.lastFrame()).not.toMatch(HOSTILE);
    controller.dispatch({
      type: 'model.response',
      content: `Thinking ${OSC_52}aloud.`,
      toolCalls: [{ id: 'c1', name: 'run_debugger_cmd', arguments: '{"cmd":"printf x"}' }],
      usage: { inputTokens: 10, outputTokens: 5 },
      costUsd: 0,
      durationMs: 5,
      model: 'm',
      stopReason: 'tool_calls',
    });
    controller.dispatch({ type: 'tool.call', id: 'c1', name: 'run_debugger_cmd', arguments: '{"cmd":"printf x"}' });
    controller.dispatch({ type: 'debugger.output', chunk: `shell says ${CLEAR}${OSC_0}hi\n` });
    controller.dispatch({
      type: 'tool.result',
      id: 'c1',
      name: 'run_debugger_cmd',
      ok: true,
      text: `output ${OSC_52}${CLEAR}done\n[shell]`,
      durationMs: 3,
    });
    await frameShows(ui.lastFrame, 'output done');
    // Nothing of it is cut: `e` says so, in a notice (drawn with what the key changed).
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, 'this one is whole');
    const frame = ui.lastFrame()!;
    expect(frame).toContain('output done');
    expect(frame).not.toMatch(HOSTILE);
    ui.unmount();
  });

  it('a shell command to approve shows its control characters, so nothing of what runs is hidden', async () => {
    const controller = new TuiController({ autoApproveCommands: false });
    const ui = await agentOn(controller);
    const asked = controller.approveCommand(`ls ${OSC_0}\x1b[2K\recho $(cat ~/.ssh/id_rsa)`);
    await frameShows(ui.lastFrame, 'The agent wants to run a shell command:');
    const frame = ui.lastFrame()!;
    expect(frame).toContain('\\x1b]0;owned\\x1b\\\\x1b[2K\\x0decho $(cat ~/.ssh/id_rsa)');
    expect(frame).not.toMatch(HOSTILE);
    ui.stdin.write(KEYS.escape);
    await asked;
    ui.unmount();
  });
});
