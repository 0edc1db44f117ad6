import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { partialStringFields } from '../../source/ui/components/partial-json';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { AgentScreen } from '../../source/ui/screens/agent-screen';
import { initialView, reduceView } from '../../source/ui/view-state';
import type { ViewState } from '../../source/ui/view/types';
import { approvedStart, frameShows, until } from './helpers';

const approved = approvedStart();
const request: EngineEvent = { type: 'model.request', round: 1, messages: 1, tools: [], newMessages: [] };

const fold = (events: EngineEvent[], now = Date.now()) =>
  events.reduce<ViewState>((view, event) => reduceView(view, event, now), initialView());
const screen = (view: ViewState) => (
  <AgentScreen
    view={view}
    takeover="off"
    width={100}
    height={30}
    allowAlways={() => undefined}
    onSend={() => undefined}
  />
);

describe("a tool call's arguments, decoded as they stream", () => {
  it('reads the string fields of JSON that is still coming, even cut inside an escape', () => {
    expect(partialStringFields('{"code": "def f(x):\\n    retu')).toEqual({ code: 'def f(x):\n    retu' });
    expect(partialStringFields('{"code": "a\\')).toEqual({ code: 'a' });
    expect(partialStringFields('{"n": 3, "path": "a.py", "code": "x = \\"\\u00e9\\"\\n')).toEqual({
      path: 'a.py',
      code: 'x = "é"\n',
    });
    expect(partialStringFields('{"cod')).toEqual({});
    expect(partialStringFields('not json')).toEqual({});
  });
});

describe('a model call at work', () => {
  it('shows the submitted code growing on screen as the model writes it', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    for (const event of [...approved, request]) controller.dispatch(event);
    const args = JSON.stringify({
      code: 'def f(x):\n    total = 0\n    for item in x:\n        total += item\n    return total\n',
    });
    const cut = args.indexOf('for item');
    controller.dispatch({ type: 'model.tool-delta', index: 0, name: 'submit_implementation', arguments: '' });
    controller.dispatch({
      type: 'model.tool-delta',
      index: 0,
      name: 'submit_implementation',
      arguments: args.slice(0, cut),
    });
    await frameShows(ui.lastFrame, '→ submit_implementation  (writing…)');
    expect(ui.lastFrame()).toContain('    total = 0');
    expect(ui.lastFrame()).not.toContain('for item in x:');
    controller.dispatch({
      type: 'model.tool-delta',
      index: 0,
      name: 'submit_implementation',
      arguments: args.slice(cut),
    });
    await frameShows(ui.lastFrame, '        total += item');
    expect(ui.lastFrame()).toContain('    return total');
    expect(ui.lastFrame()).toContain(`~${Math.round(args.length / 4)} tokens`);
    // The answer is whole: the call becomes a transcript item, the streamed rows go.
    controller.dispatch({
      type: 'model.response',
      content: '',
      toolCalls: [{ id: 'c1', name: 'submit_implementation', arguments: args }],
      usage: { inputTokens: 10, outputTokens: 40 },
      costUsd: 0,
      durationMs: 5,
      model: 'm',
      stopReason: 'tool_calls',
    });
    controller.dispatch({ type: 'tool.call', id: 'c1', name: 'submit_implementation', arguments: args });
    await frameShows(ui.lastFrame, '→ submit_implementation code=(5 lines)');
    expect(ui.lastFrame()).not.toContain('(writing…)');
    ui.unmount();
  });

  it('a spinner with the time the call has taken and the tokens streamed so far', async () => {
    const view = fold([...approved, request, { type: 'model.delta', text: 'x'.repeat(400) }], Date.now() - 2000);
    const ui = render(screen(view));
    await frameShows(ui.lastFrame, /model · 2 s · ~100 tokens/);
    // Nothing else comes; the clock moves on its own.
    await frameShows(ui.lastFrame, /model · 3 s · ~100 tokens/, 4000);
    ui.unmount();
  });

  it("a retry's countdown ticks", async () => {
    const view = fold([
      ...approved,
      request,
      { type: 'model.retry', attempt: 1, maxAttempts: 5, reason: 'rate limited (429)', delayMs: 2500 },
    ]);
    const ui = render(screen(view));
    await frameShows(ui.lastFrame, /model call failed: rate limited \(429\); retry 1 of 4 in 2\.\d s/);
    const seconds = () => Number(/in (\d+\.\d) s/.exec(ui.lastFrame()!)?.[1] ?? 0);
    const first = seconds();
    await until(
      () => seconds() < first - 0.5,
      () => ui.lastFrame()!,
      4000,
    );
    await frameShows(ui.lastFrame, 'retry 1 of 4 now', 5000);
    ui.unmount();
  });

  it('no spinner once the answer came, nor while a cancelled call waits for the developer', async () => {
    const answered = fold([
      ...approved,
      request,
      {
        type: 'model.response',
        content: 'ok',
        toolCalls: [],
        usage: { inputTokens: 1, outputTokens: 1 },
        costUsd: 0,
        durationMs: 1,
        model: 'm',
        stopReason: 'stop',
      },
    ]);
    const ui = render(screen(answered));
    await frameShows(ui.lastFrame, 'model (1 in / 1 out)');
    expect(ui.lastFrame()).not.toMatch(/model · \d+ s/);
    const cancelled = render(
      <AgentScreen
        view={fold([...approved, request])}
        prompt={{ kind: 'cancelled-call', resolve: () => undefined }}
        takeover="off"
        width={100}
        height={30}
        allowAlways={() => undefined}
        onSend={() => undefined}
      />,
    );
    await frameShows(cancelled.lastFrame, 'The model call was cancelled.');
    expect(cancelled.lastFrame()).not.toMatch(/model · \d+ s/);
    ui.unmount();
    cancelled.unmount();
  });
});

describe("the developer's answer to a shell command", () => {
  it('goes before the call in the transcript, so the call stays live until its output comes (the live screen prints the rest for good)', () => {
    const events: EngineEvent[] = [
      { type: 'tool.call', id: 'c1', name: 'run_debugger_cmd', arguments: '{"cmd":"echo hi"}' },
      { type: 'command.approval', command: 'echo hi', decision: 'approved', by: 'human' } as EngineEvent,
    ];
    const open = events.reduce((state, event) => reduceView(state, event, 0), initialView());
    expect(open.agent.items.map((item) => item.kind)).toEqual(['note', 'tool']);
    expect(open.agent.items.at(-1)).toMatchObject({ kind: 'tool', callId: 'c1' });
    const done = reduceView(
      open,
      { type: 'tool.result', id: 'c1', name: 'run_debugger_cmd', ok: true, text: 'hi', durationMs: 1 },
      0,
    );
    expect(done.agent.items.at(-1)).toMatchObject({ kind: 'tool', result: { text: 'hi' } });
    expect(new Set(done.agent.items.map((item) => item.id)).size).toBe(2);
  });
});
