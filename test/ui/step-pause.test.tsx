import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import { Conversation } from '../../source/engine/agent/conversation';
import type { EngineEvent } from '../../source/engine/events';
import type { Model } from '../../source/engine/model/types';
import type { Message } from '../../source/engine/protocol/messages';
import type { ToolContext } from '../../source/engine/tools/context';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { initialView, reduceView } from '../../source/ui/view-state';
import { itemLines } from '../../source/ui/components/transcript-item';
import { lineText } from '../../source/ui/components/lines';
import { agentOn, start } from './agent-on';
import { fakeDebugger } from './fake-debugger';
import { frameShows, KEYS, resize, sampleReport, until } from './helpers';

// Step mode's pause only waits for the developer: the screen's keys (t, ?, o, d) work around it.

const type = async (ui: ReturnType<typeof render>, text: string) => {
  for (const char of text) ui.stdin.write(char);
  await frameShows(ui.lastFrame, text);
};

/** A prompt of 30 lines: a pause shows its first ones. */
const longPrompt = {
  role: 'user' as const,
  content: Array.from({ length: 30 }, (_, i) => `prompt line ${i + 1}`).join('\n'),
};
const call = { id: 'c1', name: 'search_class', arguments: '{"class_name":"Kart"}' };

/** The agent screen at a step pause before model call 2, a pdb session attached. */
async function pausedBeforeCall2() {
  const controller = new TuiController({ autoApproveCommands: true, step: true });
  const ui = await agentOn(controller);
  const session = fakeDebugger();
  controller.attach({ debugger: session, selectedTests: [] });
  const request = controller.beforeRequest({ round: 2, lastTurn: [] });
  await frameShows(ui.lastFrame, '⏸ step: before model call 2');
  return { controller, ui, session, request };
}

describe('a step pause', () => {
  it('t takes over the debugger at once; handed back, the pause is there again and the request takes what the developer did, as the takeover’s note', async () => {
    const { controller, ui, session, request } = await pausedBeforeCall2();
    expect(ui.lastFrame()).toContain('t take over');
    expect(ui.lastFrame()).not.toContain('Esc cancel call'); // nothing is in flight at a pause
    ui.stdin.write('t');
    await frameShows(ui.lastFrame, 'you have the debugger');
    await type(ui, 'p x');
    ui.stdin.write(KEYS.enter);
    await until(() => session.transcript.length === 1);
    ui.stdin.write(KEYS.escape); // an empty line: hands back
    await until(
      () => !ui.lastFrame()!.includes('you have the debugger'),
      () => ui.lastFrame()!,
    );
    expect(ui.lastFrame()).toContain('⏸ step: before model call 2');
    ui.stdin.write(KEYS.enter);
    // Not a message of the developer's: the engine asks for the takeover's note after the pause.
    expect(await request).toEqual([]);
    const note = await controller.beforeModelCall();
    expect(note).toContain('The developer took over the debugger session');
    expect(note).toContain('(Pdb) p x\nran p x');
    expect(await controller.beforeModelCall()).toBeUndefined(); // said once
    ui.unmount();
  });

  it("keys typed after 'm', one chunk each, before the box listens, are the message: its o and s open and end nothing", async () => {
    const { ui, request } = await pausedBeforeCall2();
    // All before React draws again: the box is not drawn yet, and then does not listen yet.
    for (const char of 'mso go on') ui.stdin.write(char);
    await frameShows(ui.lastFrame, '› so go on');
    expect(ui.lastFrame()).not.toContain('Outputs so far');
    ui.stdin.write(KEYS.enter); // sends it; the pause stays
    await frameShows(ui.lastFrame, 'Your message goes with the next model call.');
    expect(ui.lastFrame()).toContain('⏸ step: before model call 2');
    ui.stdin.write(KEYS.enter);
    expect(await request).toEqual([{ text: 'so go on', via: 'tui' }]);
    ui.unmount();
  });

  it('two takeovers at one pause: the request takes what both ran, in one note', async () => {
    const { controller, ui, session, request } = await pausedBeforeCall2();
    for (const [n, line] of ['p x', 'p y'].entries()) {
      ui.stdin.write('t');
      await frameShows(ui.lastFrame, 'you have the debugger');
      await type(ui, line);
      ui.stdin.write(KEYS.enter);
      await until(() => session.transcript.length === n + 1);
      ui.stdin.write(KEYS.escape);
      await until(
        () => !ui.lastFrame()!.includes('you have the debugger'),
        () => ui.lastFrame()!,
      );
    }
    ui.stdin.write(KEYS.enter);
    expect(await request).toEqual([]);
    const note = await controller.beforeModelCall();
    expect(note).toContain('(Pdb) p x\nran p x\n(Pdb) p y\nran p y');
    expect(note!.match(/The developer took over/g)).toHaveLength(1);
    expect(await controller.beforeModelCall()).toBeUndefined();
    ui.unmount();
  });

  it('a takeover at a model call’s pause goes with that very request as the takeover’s note, never recorded as the developer’s message', async () => {
    // QA: at a model call's pause (`--step`, or `s` in a resumed session) `t` sent the note as
    // "A message from the developer", recorded as developer.message ("You told the agent: …").
    const controller = new TuiController({ autoApproveCommands: true, step: true });
    const ui = await agentOn(controller);
    const session = fakeDebugger();
    controller.attach({ debugger: session, selectedTests: [] });
    const events: EngineEvent[] = [];
    const sent: Message[][] = [];
    const model: Model = {
      provider: 'scripted',
      name: 'm',
      label: 'm',
      complete: async (request) => (
        sent.push([...request.messages]),
        { content: 'ok', toolCalls: [], usage: { inputTokens: 1, outputTokens: 1 }, stopReason: 'stop', model: 'm' }
      ),
    };
    const conversation = new Conversation({
      model,
      system: 's',
      ctx: {} as ToolContext,
      emit: (event) => void events.push(event),
      price: undefined,
      temperature: 0,
      maxTokens: 100,
      beforeModelCall: () => controller.beforeModelCall(),
      steering: {
        stepping: () => controller.stepping(),
        beforeRequest: (preview) => controller.beforeRequest(preview),
      },
    });
    conversation.say('the task');
    const round = conversation.round([]);
    await frameShows(ui.lastFrame, '⏸ step: before model call 1');
    ui.stdin.write('t');
    await frameShows(ui.lastFrame, 'you have the debugger');
    await type(ui, 'p x');
    ui.stdin.write(KEYS.enter);
    await until(() => session.transcript.length === 1);
    ui.stdin.write(KEYS.escape);
    await until(
      () => !ui.lastFrame()!.includes('you have the debugger'),
      () => ui.lastFrame()!,
    );
    ui.stdin.write(KEYS.enter);
    await round;
    expect(events.filter((e) => e.type === 'developer.message')).toEqual([]);
    expect(sent).toHaveLength(1);
    const last = sent[0]!.at(-1)!;
    expect(last.role).toBe('user');
    expect(last.content).toMatch(/^The developer took over the debugger session and ran these commands/);
    expect(last.content).toContain('(Pdb) p x\nran p x');
    expect(last.content).not.toContain('A message from the developer');
    ui.unmount();
  });

  it('a takeover at a tool call’s pause reaches the model with its next call', async () => {
    const controller = new TuiController({ autoApproveCommands: true, step: true });
    const ui = await agentOn(controller);
    const session = fakeDebugger();
    controller.attach({ debugger: session, selectedTests: [] });
    const ran = controller.beforeToolCall(call);
    await frameShows(ui.lastFrame, '⏸ step: before the tool call search_class');
    ui.stdin.write('t');
    await frameShows(ui.lastFrame, 'you have the debugger');
    await type(ui, 'w');
    ui.stdin.write(KEYS.enter);
    await until(() => session.transcript.length === 1);
    ui.stdin.write(KEYS.escape);
    await until(
      () => !ui.lastFrame()!.includes('you have the debugger'),
      () => ui.lastFrame()!,
    );
    ui.stdin.write(KEYS.enter);
    expect(await ran).toBeUndefined();
    expect(await controller.beforeModelCall()).toContain('(Pdb) w\nran w');
    ui.unmount();
  });

  it('e shows what the request adds in full (it scrolls), and again only the first lines', async () => {
    const controller = new TuiController({ autoApproveCommands: true, step: true });
    const ui = await agentOn(controller);
    void controller.beforeRequest({ round: 2, lastTurn: [longPrompt] });
    await frameShows(ui.lastFrame, '… 26 more lines');
    expect(ui.lastFrame()).not.toContain('prompt line 5');
    expect(ui.lastFrame()).toContain('e all of it');
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, 'prompt line 5');
    expect(ui.lastFrame()).toContain('e first lines only');
    expect(ui.lastFrame()).toMatch(/lines 1–\d+ of 31 · ↑ ↓ PgUp PgDn scroll/);
    ui.stdin.write(KEYS.end);
    await frameShows(ui.lastFrame, 'prompt line 30');
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, '… 26 more lines');
    ui.unmount();
  });

  it('? opens the help and Esc closes it; o opens earlier outputs; the edited arguments survive both', async () => {
    const editor = {
      editFile: async (path: string) => (await import('node:fs')).writeFileSync(path, '{"class_name": "Cart"}'),
    };
    const controller = new TuiController({ autoApproveCommands: true, step: true, editor });
    const ui = await agentOn(controller);
    const ran = controller.beforeToolCall(call);
    await frameShows(ui.lastFrame, '⏸ step: before the tool call search_class');
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, '(your arguments)');
    ui.stdin.write('?');
    await frameShows(ui.lastFrame, 'Keys (? or Esc to close)');
    ui.stdin.write(KEYS.escape);
    await frameShows(ui.lastFrame, '⏸ step: before the tool call search_class (your arguments)');
    ui.stdin.write('o');
    await frameShows(ui.lastFrame, 'Outputs so far');
    ui.stdin.write(KEYS.escape);
    await frameShows(ui.lastFrame, '⏸ step: before the tool call search_class (your arguments)');
    ui.stdin.write(KEYS.enter);
    expect(await ran).toBe('{"class_name":"Cart"}');
    ui.unmount();
  });

  it('a pause that comes while a viewer is open is shown, not hidden behind it', async () => {
    const controller = new TuiController({ autoApproveCommands: true, step: true });
    const ui = await agentOn(controller);
    ui.stdin.write('o');
    await frameShows(ui.lastFrame, 'Outputs so far');
    void controller.beforeToolCall(call);
    await frameShows(ui.lastFrame, '⏸ step: before the tool call search_class');
    ui.unmount();
  });

  it('m opens the message box without cutting the pause’s text when the terminal has room for both', async () => {
    const controller = new TuiController({ autoApproveCommands: true, step: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    resize(ui.stdout, 100, 40);
    controller.dispatch(start);
    controller.dispatch({
      type: 'thm.approval',
      proposed: sampleReport().selected,
      chosen: sampleReport().selected,
      by: 'auto',
      T: 2,
    });
    controller.dispatch({ type: 'agent.phase', phase: 'pregen', rounds: 15 });
    void controller.beforeRequest({
      round: 1,
      lastTurn: [
        { role: 'tool', toolCallId: 'c0', name: 'search_method', content: 'a\nb\nc' },
        { role: 'user', content: 'd\ne\nf' },
      ],
    });
    await frameShows(ui.lastFrame, '⏸ step: before model call 1');
    ui.stdin.write('m');
    await frameShows(ui.lastFrame, 'Message to the agent');
    expect(ui.lastFrame()).toContain('  f');
    expect(ui.lastFrame()).not.toContain('more line');
    ui.unmount();
  });
});

describe('a shell command’s question', () => {
  it('? opens the help over it; while a reason is typed, ? is part of the reason', async () => {
    const controller = new TuiController({ autoApproveCommands: false });
    const ui = await agentOn(controller);
    const decision = controller.approveCommand('rm -rf build');
    await frameShows(ui.lastFrame, 'The agent wants to run a shell command');
    ui.stdin.write('?');
    await frameShows(ui.lastFrame, 'Keys (? or Esc to close)');
    ui.stdin.write(KEYS.escape);
    await frameShows(ui.lastFrame, 'The agent wants to run a shell command');
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, 'Why not?');
    await type(ui, 'why?');
    expect(ui.lastFrame()).not.toContain('Keys (? or Esc to close)');
    ui.stdin.write(KEYS.enter);
    expect(await decision).toEqual({ run: false, reason: 'why?' });
    ui.unmount();
  });
});

describe('a step pause before a submission (issue 37.1)', () => {
  const code = 'def f(x):\n    """Return the double of x, for every caller that needs it."""\n    return x * 3\n';
  const submit = { id: 'c2', name: 'submit_implementation', arguments: JSON.stringify({ code }) };

  it('shows the code as code, and e opens it in $EDITOR as a .py file; Enter runs the edit, shown as a diff against the model’s', async () => {
    const opened: { path: string; text: string }[] = [];
    const editor = {
      editFile: async (path: string) => {
        const fs = await import('node:fs');
        opened.push({ path, text: fs.readFileSync(path, 'utf8') });
        fs.writeFileSync(path, fs.readFileSync(path, 'utf8').replace('x * 3', 'x * 2'));
      },
    };
    const controller = new TuiController({ autoApproveCommands: true, step: true, editor });
    const ui = await agentOn(controller);
    const ran = controller.beforeToolCall(submit);
    await frameShows(ui.lastFrame, '⏸ step: before the tool call submit_implementation');
    expect(ui.lastFrame()).toContain('    return x * 3');
    expect(ui.lastFrame()).not.toContain('\\n');
    expect(ui.lastFrame()).not.toContain('"code"');
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, '(your arguments)');
    expect(opened[0]!.path).toMatch(/\.py$/);
    expect(opened[0]!.text).toBe(code);
    expect(ui.lastFrame()).toContain("code (your edit of the model's: +1 −1)");
    expect(ui.lastFrame()).toContain('-    return x * 3');
    expect(ui.lastFrame()).toContain('+    return x * 2');
    ui.stdin.write(KEYS.enter);
    expect(JSON.parse((await ran)!)).toEqual({ code: code.replace('x * 3', 'x * 2') });
    ui.unmount();
  });

  it('an edit then s (step mode off) runs the edited code, not the model’s', async () => {
    const editor = {
      editFile: async (path: string) => (await import('node:fs')).writeFileSync(path, 'def f(x):\n    return x * 2\n'),
    };
    const controller = new TuiController({ autoApproveCommands: true, step: true, editor });
    const ui = await agentOn(controller);
    const ran = controller.beforeToolCall(submit);
    await frameShows(ui.lastFrame, '⏸ step: before the tool call submit_implementation');
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, '(your arguments)');
    ui.stdin.write('s');
    expect(JSON.parse((await ran)!)).toEqual({ code: 'def f(x):\n    return x * 2\n' });
    expect(controller.stepping()).toBe(false);
    ui.unmount();
  });

  it('the transcript shows an edited submission as a diff against the model’s code', () => {
    let view = initialView();
    for (const event of [
      { type: 'tool.call', id: 'c2', name: 'submit_implementation', arguments: submit.arguments },
      {
        type: 'tool.edit',
        id: 'c2',
        name: 'submit_implementation',
        original: submit.arguments,
        arguments: JSON.stringify({ code: code.replace('x * 3', 'x * 2') }),
      },
      { type: 'tool.result', id: 'c2', name: 'submit_implementation', ok: true, text: 'accepted', durationMs: 1 },
    ] as EngineEvent[])
      view = reduceView(view, event);
    const rows = itemLines(view.agent.items.at(-1)!, 100).map(lineText);
    expect(rows).toContain("  ✎ you changed the model's code (+1 −1):");
    expect(rows).toContain('    -    return x * 3');
    expect(rows).toContain('    +    return x * 2');
  });
});
