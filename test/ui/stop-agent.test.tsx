import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { agentOn } from './agent-on';
import { approvedStart, frameShows, KEYS, until } from './helpers';

// Issue 37.2: `x` stops the agent in every phase, asking first — during a model call too, where
// it used to do nothing (Esc, then x, then y). `?` lists it there.

const QUESTION = 'Stop the agent and evaluate what it has? y/N';

describe('x stops the agent', () => {
  it('during a model call: asks, and y cancels the call and stops the agent without a second question', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    const signal = controller.callSignal();
    expect(ui.lastFrame()).toContain('x stop');
    ui.stdin.write('x');
    await frameShows(ui.lastFrame, QUESTION);
    ui.stdin.write('n');
    await until(
      () => !ui.lastFrame()!.includes(QUESTION),
      () => ui.lastFrame()!,
    );
    expect(signal.aborted).toBe(false);
    ui.stdin.write('x');
    await frameShows(ui.lastFrame, QUESTION);
    ui.stdin.write('y');
    await until(() => signal.aborted);
    // The engine asks what to do after a cancelled call: the developer already said.
    expect(await controller.afterCancelledCall()).toBe('stop');
    await frameShows(ui.lastFrame, 'Stopping the agent');
    ui.unmount();
  });

  it('Esc at the question takes it back and does not cancel the call', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    const signal = controller.callSignal();
    ui.stdin.write('x');
    await frameShows(ui.lastFrame, QUESTION);
    ui.stdin.write(KEYS.escape);
    await until(
      () => !ui.lastFrame()!.includes(QUESTION),
      () => ui.lastFrame()!,
    );
    expect(signal.aborted).toBe(false);
    ui.unmount();
  });

  it('at a step pause: y lets the pause go and the agent stops before the model call', async () => {
    const controller = new TuiController({ autoApproveCommands: true, step: true });
    const ui = await agentOn(controller);
    const request = controller.beforeRequest({ round: 2, lastTurn: [] });
    await frameShows(ui.lastFrame, '⏸ step: before model call 2');
    ui.stdin.write('x');
    await frameShows(ui.lastFrame, QUESTION);
    ui.stdin.write('y');
    await request;
    await expect(controller.beforeModelCall()).rejects.toMatchObject({ name: 'AbortError' });
    // No more pauses on the way out.
    expect(await controller.beforeToolCall({ id: 'c', name: 'search_class', arguments: '{}' })).toBeUndefined();
    ui.unmount();
  });

  it('? lists x on the agent screen', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    ui.stdin.write('?');
    await frameShows(ui.lastFrame, 'stop the agent and evaluate what it has');
    ui.unmount();
  });

  it('during the evaluation the footer offers no take over, cancel call or stop (there is nothing to stop)', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    for (const event of approvedStart()) controller.dispatch(event);
    controller.dispatch({ type: 'agent.phase', phase: 'evaluate' });
    await frameShows(ui.lastFrame, /evaluating the patch on all \d+ failing tests · \d+ s/);
    expect(ui.lastFrame()).not.toContain('take over');
    expect(ui.lastFrame()).not.toContain('cancel');
    expect(ui.lastFrame()).not.toContain('x stop');
    ui.stdin.write('x');
    // `e` after it, which says in a notice that there is nothing to expand: once the notice shows,
    // the `x` before it was handled too (keys are handled in order).
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, 'e expands the latest output when it is cut');
    expect(ui.lastFrame()).not.toContain(QUESTION);
    ui.unmount();
  });
});

describe('the stop question and a question of the engine', () => {
  it('a shell command to approve that comes while the stop question is open takes its place: y answers the command only', async () => {
    const controller = new TuiController({ autoApproveCommands: false });
    const ui = await agentOn(controller);
    const signal = controller.callSignal();
    ui.stdin.write('x');
    await frameShows(ui.lastFrame, QUESTION);
    const decision = controller.approveCommand('echo hi');
    await frameShows(ui.lastFrame, 'The agent wants to run a shell command');
    expect(ui.lastFrame()).not.toContain(QUESTION);
    ui.stdin.write('y');
    expect(await decision).toEqual({ run: true });
    expect(signal.aborted).toBe(false);
    expect(controller.canStop).toBe(true);
    ui.unmount();
  });
});

describe('keys with nothing to do say so (issue 37.8)', () => {
  it('e on whole model text, and v outside TDD, say why nothing opens', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    controller.dispatch({
      type: 'model.response',
      content: 'I will read the caller first.',
      toolCalls: [],
      usage: { inputTokens: 1, outputTokens: 1 },
      costUsd: 0,
      durationMs: 1,
      model: 'm',
      stopReason: 'stop',
    });
    await frameShows(ui.lastFrame, 'I will read the caller first.');
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, 'this one is whole');
    ui.stdin.write('v');
    await frameShows(ui.lastFrame, "v shows the agent's test file");
    ui.unmount();
  });
});

describe('x at a tool call’s pause', () => {
  it('says the call it paused at runs first, then the agent stops before its next model call', async () => {
    const controller = new TuiController({ autoApproveCommands: true, step: true });
    const ui = await agentOn(controller);
    const ran = controller.beforeToolCall({
      id: 'c9',
      name: 'submit_implementation',
      arguments: '{"code":"def f():\\n    return 1\\n"}',
    });
    await frameShows(ui.lastFrame, '⏸ step: before the tool call submit_implementation');
    ui.stdin.write('x');
    await frameShows(ui.lastFrame, QUESTION);
    ui.stdin.write('y');
    expect(await ran).toBeUndefined();
    await frameShows(
      ui.lastFrame,
      'Stopping the agent once submit_implementation (where it paused) has run; then the evaluation.',
    );
    await expect(controller.beforeModelCall()).rejects.toMatchObject({ name: 'AbortError' });
    ui.unmount();
  });
});
