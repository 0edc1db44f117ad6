import { render } from 'ink-testing-library';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { loadEvents } from '../../source/engine/session/event-log';
import type { DeveloperTests, TestDesk } from '../../source/engine/run/test-desk';
import { TuiController } from '../../source/ui/controller';
import { ReplayScreen } from '../../source/ui/screens/replay-screen';
import { LiveApp } from '../../source/ui/live-app';
import { MessageBox, messageBoxRows } from '../../source/ui/components/message-box';
import { ROOT } from '../helpers/fixtures';
import { frameShows, KEYS, resize, rowsOf, sampleConfig, sampleReport, typeKeys, until as waitUntil } from './helpers';

// Issue 14: the keys that steer a live session (m writes to the agent, s steps, e edits a call).

const start: EngineEvent = {
  type: 'session.start',
  sessionId: 's1',
  target: 'm.py::f',
  mode: 'stub',
  strategy: 'tenet',
  model: 'm',
  modelLabel: 'gpt-test (OpenAI)',
  provider: 'openai',
  repo: '/r',
  config: sampleConfig(),
};

async function agentOn(controller: TuiController) {
  const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
  controller.dispatch(start);
  controller.dispatch({ type: 'thm.report', report: sampleReport() });
  controller.dispatch({
    type: 'thm.approval',
    proposed: sampleReport().selected,
    chosen: sampleReport().selected,
    by: 'auto',
    T: 2,
  });
  controller.dispatch({ type: 'agent.phase', phase: 'pregen', rounds: 15 });
  controller.dispatch({ type: 'model.request', round: 1, messages: 1, tools: [], newMessages: [] });
  await frameShows(ui.lastFrame, 'pre-generation · round 1/15');
  return ui;
}

/**
 * Waits until the frame shows (or, `gone`, no longer shows) the text: a loaded machine renders
 * late. Then the field's key handler, which subscribes after it is drawn, is there (waitUntil).
 */
async function until(ui: ReturnType<typeof render>, text: string, gone = false): Promise<void> {
  await waitUntil(
    () => (ui.lastFrame() ?? '').includes(text) !== gone,
    () => ui.lastFrame() ?? '',
  );
}

/** Types the text a key at a time, and waits until the box shows it. */
const type = async (ui: ReturnType<typeof render>, text: string) => {
  await typeKeys(ui, text);
  await frameShows(ui.lastFrame, text);
};

describe('m: a message to the agent', () => {
  it("'m' and the message typed fast come as one chunk: the box opens with the rest in it", async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    ui.stdin.write('mtry the tax table');
    await until(ui, 'Message to the agent');
    expect(ui.lastFrame()).toContain('› try the tax table');
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, '✉ 1 message for the next model call');
    expect(await controller.beforeRequest({ round: 2, lastTurn: [] })).toEqual([
      { text: 'try the tax table', via: 'tui' },
    ]);
    ui.unmount();
  });

  it("keys typed after 'm', one chunk each, before the box listens, are the message: its s, x and o step, stop and open nothing", async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    // All before React draws again: the box is drawn but does not listen yet.
    for (const char of 'mso fix the tax') ui.stdin.write(char);
    await until(ui, '› so fix the tax');
    expect(ui.lastFrame()).not.toContain('Stop the agent');
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, '✉ 1 message for the next model call');
    expect(ui.lastFrame()).not.toMatch(/step mode|Stop the agent/);
    expect(await controller.beforeRequest({ round: 2, lastTurn: [] })).toEqual([
      { text: 'so fix the tax', via: 'tui' },
    ]);
    ui.unmount();
  });

  it('opens a box; Enter queues the text for the next model call (the footer says so); the request takes it, and the record shows it', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    expect(ui.lastFrame()).toContain('m message');
    ui.stdin.write('m');
    await until(ui, 'Message to the agent');
    expect(ui.lastFrame()).toContain('Message to the agent');
    // Keys go to the box: `t` is typed, it does not take over the debugger.
    await type(ui, 'try the tax table');
    expect(ui.lastFrame()).toContain('try the tax table');
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, '✉ 1 message for the next model call');
    await until(ui, 'Message to the agent', true);
    expect(ui.lastFrame()).not.toContain('Message to the agent');
    expect(ui.lastFrame()).toContain('✉ 1 message for the next model call');
    expect(await controller.beforeRequest({ round: 2, lastTurn: [] })).toEqual([
      { text: 'try the tax table', via: 'tui' },
    ]);
    expect(await controller.beforeRequest({ round: 3, lastTurn: [] })).toEqual([]);
    controller.dispatch({ type: 'developer.message', text: 'try the tax table', round: 2, via: 'tui' });
    await frameShows(ui.lastFrame, 'You told the agent: try the tax table');
    expect(ui.lastFrame()).not.toContain('✉ 1 message');
    expect(ui.lastFrame()).toContain('You told the agent: try the tax table');
    ui.unmount();
  });

  it('a message longer than the box shows the lines around the cursor and says which line it is on; the box is as tall as it says', async () => {
    const ui = render(<MessageBox title="t" width={60} onSend={() => undefined} onCancel={() => undefined} />);
    await frameShows(ui.lastFrame, 'Message to the agent');
    ui.stdin.write('\u001B[200~one\rtwo\rthree\rfour\rfive\rsix\u001B[201~');
    await frameShows(ui.lastFrame, 'line 6 of 6');
    const frame = ui.lastFrame()!;
    for (const word of ['three', 'four', 'five', 'six']) expect(frame).toContain(word);
    expect(frame).not.toContain('two');
    expect(rowsOf(frame)).toHaveLength(messageBoxRows('one\ntwo\nthree\nfour\nfive\nsix'));
    expect(messageBoxRows('one')).toBe(5);
    ui.unmount();
  });

  it('a pasted traceback keeps its lines: the box shows them all (issue 37.11), and the agent gets the whole text', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    resize(ui.stdout, 80, 24);
    ui.stdin.write('m');
    await until(ui, 'Message to the agent');
    // A bracketed paste as a terminal with mode 2004 on sends it (its last newline too), then Enter.
    ui.stdin.write('\u001B[200~it fails here:\r  File "tax.py", line 3\rKeyError: 2024\r\u001B[201~');
    await until(ui, 'KeyError: 2024');
    // Every line at once, each on its own row of the box, the first marked as the message's start.
    const rows = rowsOf(ui.lastFrame());
    const first = rows.findIndex((row) => row.includes('› it fails here:'));
    expect(first).toBeGreaterThan(-1);
    expect(rows[first + 1]).toContain('  File "tax.py", line 3');
    expect(rows[first + 2]).toContain('KeyError: 2024');
    expect(ui.lastFrame()).not.toContain(' of 4');
    // The screen made room for the taller box: the frame still fits the terminal.
    expect(rows.length).toBeLessThan(24);
    ui.stdin.write(KEYS.enter);
    await until(ui, 'Message to the agent', true);
    expect(await controller.beforeRequest({ round: 2, lastTurn: [] })).toEqual([
      { text: 'it fails here:\n  File "tax.py", line 3\nKeyError: 2024', via: 'tui' },
    ]);
    ui.unmount();
  });

  it('Esc takes back the text, then closes the box, sending nothing; a question of the engine takes the keys and the box comes back with the draft', async () => {
    const controller = new TuiController({ autoApproveCommands: false });
    const ui = await agentOn(controller);
    ui.stdin.write('m');
    await until(ui, 'Message to the agent');
    await type(ui, 'not this');
    ui.stdin.write(KEYS.escape); // takes back the text
    await until(ui, 'not this', true);
    expect(ui.lastFrame()).toContain('Message to the agent');
    ui.stdin.write(KEYS.escape); // then the box
    await until(ui, 'Message to the agent', true);
    expect(ui.lastFrame()).not.toContain('Message to the agent');
    expect(await controller.beforeRequest({ round: 2, lastTurn: [] })).toEqual([]);

    ui.stdin.write('m');
    await until(ui, 'Message to the agent');
    await type(ui, 'half');
    const asked = controller.approveCommand('ls');
    await frameShows(ui.lastFrame, 'The agent wants to run a shell command:');
    expect(ui.lastFrame()).toContain('The agent wants to run a shell command:');
    expect(ui.lastFrame()).not.toContain('Message to the agent');
    ui.stdin.write('y');
    expect(await asked).toEqual({ run: true });
    await until(ui, 'Message to the agent');
    expect(ui.lastFrame()).toContain('Message to the agent');
    await type(ui, ' done');
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, '✉ 1 message for the next model call');
    expect(await controller.beforeRequest({ round: 2, lastTurn: [] })).toEqual([{ text: 'half done', via: 'tui' }]);
    ui.unmount();
  });

  it('once the agent is done there is no one to write to: m does nothing', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    controller.dispatch({ type: 'agent.phase', phase: 'evaluate' });
    await frameShows(ui.lastFrame, /evaluating the patch on all \d+ failing tests · \d+ s/);
    ui.stdin.write('m');
    // `m` draws nothing to wait for: `?` after it does; once the help has opened and closed, `m` was handled.
    ui.stdin.write('?');
    await frameShows(ui.lastFrame, 'Keys (? or Esc to close)');
    ui.stdin.write('?');
    await until(ui, 'Keys (? or Esc to close)', true);
    expect(ui.lastFrame()).not.toContain('Message to the agent');
    expect(ui.lastFrame()).not.toContain('m message');
    ui.unmount();
  });
});

describe('s: step mode', () => {
  const call = { id: 'c1', name: 'search_class', arguments: '{"class_name":"Kart"}' };

  it('s turns it on; a pause before a model call shows what the request adds; Enter goes on; m at a pause queues a message', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    expect(controller.stepping()).toBe(false);
    ui.stdin.write('s');
    await frameShows(ui.lastFrame, '⏸ step mode');
    expect(controller.stepping()).toBe(true);
    expect(ui.lastFrame()).toContain('⏸ step mode');
    const request = controller.beforeRequest({
      round: 2,
      lastTurn: [
        { role: 'tool', toolCallId: 'c0', name: 'search_method', content: 'def subtotal(self):\n    return 1' },
      ],
    });
    await frameShows(ui.lastFrame, '⏸ step: before model call 2 · the request adds:');
    const frame = ui.lastFrame()!;
    expect(frame).toContain('⏸ step: before model call 2 · the request adds:');
    expect(frame).toContain('result of search_method:');
    expect(frame).toContain('def subtotal(self):');
    expect(frame).toContain('Enter go on');
    ui.stdin.write('m');
    await until(ui, 'Message to the agent');
    await type(ui, 'look at pricing');
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, 'Your message goes with the next model call.');
    expect(ui.lastFrame()).toContain('Your message goes with the next model call.');
    ui.stdin.write(KEYS.enter);
    expect(await request).toEqual([{ text: 'look at pricing', via: 'tui' }]);
    ui.unmount();
  });

  it('at a pause, m and the message typed in one chunk open the box with the message in it', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    ui.stdin.write('s');
    await until(ui, '⏸ step mode');
    const request = controller.beforeRequest({ round: 2, lastTurn: [] });
    await until(ui, '⏸ step: before model call 2');
    ui.stdin.write('mlook at pricing');
    await until(ui, 'Message to the agent');
    await until(ui, 'look at pricing');
    expect(ui.lastFrame()).toContain('› look at pricing');
    ui.stdin.write(KEYS.enter);
    await until(ui, 'Your message goes with the next model call.');
    ui.stdin.write(KEYS.enter);
    expect(await request).toEqual([{ text: 'look at pricing', via: 'tui' }]);
    ui.unmount();
  });

  it('e at a tool call opens the arguments in the editor; Enter runs it with them; invalid JSON is refused with the reason', async () => {
    const edits = ['{\n  "class_name": "Cart"\n}\n', 'not json'];
    const opened: string[] = [];
    const editor = {
      async editFile(path: string) {
        const { readFileSync, writeFileSync } = await import('node:fs');
        opened.push(readFileSync(path, 'utf8'));
        writeFileSync(path, edits.shift()!);
      },
    };
    const controller = new TuiController({ autoApproveCommands: true, step: true, editor });
    const ui = await agentOn(controller);
    const ran = controller.beforeToolCall(call);
    await frameShows(ui.lastFrame, '⏸ step: before the tool call search_class');
    expect(ui.lastFrame()).toContain('"class_name": "Kart"');
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, '(your arguments)');
    expect(opened[0]).toBe('{\n  "class_name": "Kart"\n}\n');
    expect(ui.lastFrame()).toContain('(your arguments)');
    expect(ui.lastFrame()).toContain('"class_name": "Cart"');
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, 'Not changed: the arguments are not JSON');
    expect(opened[1]).toContain('"Cart"'); // the second edit starts from the first
    expect(ui.lastFrame()).toContain('Not changed: the arguments are not JSON');
    ui.stdin.write(KEYS.enter);
    expect(await ran).toBe('{"class_name":"Cart"}');
    ui.unmount();
  });

  it('s at a pause turns step mode off and the agent goes on with the model’s arguments', async () => {
    const controller = new TuiController({ autoApproveCommands: true, step: true });
    const ui = await agentOn(controller);
    const ran = controller.beforeToolCall(call);
    await frameShows(ui.lastFrame, '⏸ step: before the tool call search_class');
    ui.stdin.write('s');
    expect(await ran).toBeUndefined();
    expect(controller.stepping()).toBe(false);
    expect(await controller.beforeToolCall(call)).toBeUndefined(); // no pause any more
    ui.unmount();
  });

  it('an edit shows on the call in the transcript, marked as the developer’s', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = await agentOn(controller);
    controller.dispatch({ type: 'tool.call', ...call });
    controller.dispatch({
      type: 'tool.edit',
      id: 'c1',
      name: 'search_class',
      original: call.arguments,
      arguments: '{"class_name":"Cart"}',
    });
    await frameShows(ui.lastFrame, /→ search_class ✎ your arguments class_name=Cart/);
    ui.unmount();
  });
});

describe('n and e in the THM review: the developer writes tests', () => {
  const mine = {
    ...sampleReport().failing[1]!,
    nodeid: 't.py::test_mine',
    chain: ['t.py::test_mine', 'm.py::f'],
    chainLines: [1, 1],
    depth: 1,
    caller: 't.py::test_mine',
  };

  /** A desk as the engine's: the editor runs on the file, then THM's verdict comes back (and is recorded). */
  function fakeDesk(controller: TuiController, verdicts: DeveloperTests[]) {
    const opened: { path: string; template?: string }[] = [];
    const desk = {
      root: '/w',
      added: [] as string[],
      newFile: () => ({ path: 't_by_developer.py', template: '# write here\n' }),
      async edit(path: string, edit: (file: string) => Promise<void>, template?: string) {
        opened.push({ path, ...(template ? { template } : {}) });
        await edit(`/w/${path}`);
        const verdict = verdicts.shift()!;
        controller.dispatch({ type: 'tests.added', ...verdict });
        return verdict;
      },
    };
    return { desk: desk as unknown as TestDesk, opened };
  }

  it('n opens the editor on a new file; a test that fails on the stub joins (✎, selected), one that passes is named with why; Enter approves with it', async () => {
    const edited: string[] = [];
    const controller = new TuiController({
      autoApproveCommands: true,
      editor: { editFile: async (file) => void edited.push(file) },
    });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    controller.dispatch(start);
    controller.dispatch({ type: 'thm.report', report: sampleReport() });
    const verdict: DeveloperTests = {
      files: [{ path: 't_by_developer.py', content: 'def test_mine(): ...' }],
      accepted: [mine],
      rejected: [{ nodeid: 't_by_developer.py::test_other', reason: 'it passes on the stub' }],
      removed: [],
    };
    const { desk, opened } = fakeDesk(controller, [verdict]);
    const approved = controller.approveTests(sampleReport(), desk);
    await frameShows(ui.lastFrame, 'n new test');
    ui.stdin.write('n');
    // The verdict and the view of the developer's test may come in separate frames: wait for both.
    await frameShows(ui.lastFrame, '✎ joins t.py::test_mine');
    await frameShows(ui.lastFrame, /▸ t\.py::test_mine · 1 test · depth 1 ★ ✎/);
    expect(opened).toEqual([{ path: 't_by_developer.py', template: '# write here\n' }]);
    expect(edited).toEqual(['/w/t_by_developer.py']);
    const frame = ui.lastFrame()!;
    expect(frame).toContain('✎ joins t.py::test_mine');
    expect(frame).toContain('✗ kept out t_by_developer.py::test_other: it passes on the stub');
    expect(frame).toContain('✎ 1 of yours');
    expect(frame).toMatch(/▸ t\.py::test_mine · 1 test · depth 1 ★ ✎/);
    ui.stdin.write(KEYS.enter);
    // THM proposes again over the pool with the developer's test in it (a cluster of its own, depth 1).
    expect(await approved).toEqual({ chosen: ['t.py::test_direct', 't.py::test_mine'], by: 'human', T: 2 });
    ui.unmount();
  });

  it('e opens the highlighted test’s file; an editor that fails is said, and nothing changes', async () => {
    const controller = new TuiController({
      autoApproveCommands: true,
      editor: {
        editFile: async () => {
          throw new Error('the editor "nvim" was not found; set $EDITOR');
        },
      },
    });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    controller.dispatch(start);
    controller.dispatch({ type: 'thm.report', report: sampleReport() });
    const { desk, opened } = fakeDesk(controller, []);
    void controller.approveTests(sampleReport(), desk);
    await frameShows(ui.lastFrame, 'n new test');
    ui.stdin.write('e'); // the first cluster: t.py::test_direct
    await frameShows(ui.lastFrame, 'Could not open your editor');
    expect(opened).toEqual([{ path: 't.py' }]);
    expect(ui.lastFrame()).toContain('Could not open your editor: the editor "nvim" was not found; set $EDITOR');
    expect(ui.lastFrame()).toContain('Selected 2 (T=2)');
    ui.unmount();
  });
});

describe('replay shows the developer’s steering where it happened', () => {
  it('their tests in the THM review, their message and their edit of a call in the transcript', async () => {
    const report = sampleReport();
    const mine = {
      ...report.failing[1]!,
      nodeid: 't.py::test_mine',
      chain: ['t.py::test_mine', 'm.py::f'],
      chainLines: [1, 1],
      depth: 1,
      caller: 't.py::test_mine',
    };
    const events: EngineEvent[] = [
      start,
      { type: 'thm.report', report },
      { type: 'tests.added', files: [{ path: 't.py', content: '' }], accepted: [mine], rejected: [], removed: [] },
      {
        type: 'thm.approval',
        proposed: report.selected,
        chosen: [...report.selected, 't.py::test_mine'],
        by: 'human',
        T: 2,
      },
      { type: 'agent.phase', phase: 'pregen', rounds: 15 },
      { type: 'developer.message', text: 'mind the rounding', round: 1, via: 'tui' },
      { type: 'model.request', round: 1, messages: 2, tools: [], newMessages: [] },
      {
        type: 'model.response',
        content: '',
        toolCalls: [{ id: 'c1', name: 'search_class', arguments: '{"class_name":"Kart"}' }],
        usage: { inputTokens: 10, outputTokens: 2 },
        costUsd: 0,
        durationMs: 1,
        model: 'm',
        stopReason: 'tool_calls',
      },
      { type: 'step.pause', before: 'tool', callId: 'c1', name: 'search_class' },
      { type: 'tool.call', id: 'c1', name: 'search_class', arguments: '{"class_name":"Kart"}' },
      {
        type: 'tool.edit',
        id: 'c1',
        name: 'search_class',
        original: '{"class_name":"Kart"}',
        arguments: '{"class_name":"Cart"}',
      },
      { type: 'tool.result', id: 'c1', name: 'search_class', ok: true, text: 'class Cart', durationMs: 1 },
    ];
    const ui = render(<ReplayScreen id="s1" events={events} onBack={() => undefined} autoplay={false} />);
    // Each step waits for its frame (fixed waits failed on a busy machine).
    await frameShows(ui.lastFrame, 'replay s1 · event');
    for (let i = 0; i < 3; i++) ui.stdin.write(KEYS.right);
    await frameShows(ui.lastFrame, '✎ 1 of yours');
    expect(ui.lastFrame()).toMatch(/t\.py::test_mine · 1 test · depth 1 ★ ✎/);
    for (let i = 0; i < 3; i++) ui.stdin.write(KEYS.right);
    await frameShows(ui.lastFrame, 'You told the agent: mind the rounding');
    for (let i = 0; i < 6; i++) ui.stdin.write(KEYS.right);
    await frameShows(ui.lastFrame, /→ search_class ✎ your arguments class_name=Cart/);
    ui.unmount();
  });
});

describe('f in a replay: fork the session here', () => {
  const demo = loadEvents(join(ROOT, 'sessions', 'demo', 'events.jsonl')).events;

  it('asks first; y forks from the event on screen; any other key does not; past the agent’s work it says why not', async () => {
    const onFork = vi.fn();
    const ui = render(
      <ReplayScreen id="demo" events={demo} onBack={() => undefined} onFork={onFork} autoplay={false} />,
    );
    await frameShows(ui.lastFrame, 'f fork');
    const event = () => Number(/event (\d+)\//.exec(ui.lastFrame() ?? '')?.[1]);
    ui.stdin.write('n'); // to the first tool call
    await waitUntil(
      () => event() > 0,
      () => ui.lastFrame() ?? '',
    );
    const at = event();
    ui.stdin.write('f');
    await frameShows(ui.lastFrame, `Fork demo at event ${at}? A new session`);
    ui.stdin.write('x');
    await waitUntil(
      () => !ui.lastFrame()!.includes('Fork demo at event'),
      () => ui.lastFrame() ?? '',
    );
    expect(onFork).not.toHaveBeenCalled();
    expect(ui.lastFrame()).not.toContain('Fork demo at event');
    ui.stdin.write('f');
    await frameShows(ui.lastFrame, `Fork demo at event ${at}? A new session`);
    ui.stdin.write('y');
    await waitUntil(
      () => !ui.lastFrame()!.includes('Fork demo at event'),
      () => ui.lastFrame() ?? '',
    );
    expect(onFork).toHaveBeenCalledWith(demo[at - 1]!.seq);
    // At the end the agent's work is over: nothing to go on from.
    for (let i = 0; i < 12; i++) ui.stdin.write('t');
    await frameShows(ui.lastFrame, 'no later test run');
    ui.stdin.write(KEYS.right);
    for (let i = 0; i < 400; i++) ui.stdin.write(KEYS.right);
    await frameShows(ui.lastFrame, `event ${demo.length}/${demo.length}`);
    ui.stdin.write('f');
    await frameShows(ui.lastFrame, "comes after the agent's work ended");
    ui.unmount();
  });
});

describe('spend limits in the footer', () => {
  it('shows what is left of the session’s cost and token limits, and the stop where it happened', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    controller.dispatch({
      ...start,
      config: { ...sampleConfig(), limits: { maxCostUsd: 1, maxTokens: 100_000 } },
    } as EngineEvent);
    controller.dispatch({ type: 'thm.report', report: sampleReport() });
    controller.dispatch({
      type: 'thm.approval',
      proposed: sampleReport().selected,
      chosen: sampleReport().selected,
      by: 'auto',
      T: 2,
    });
    controller.dispatch({ type: 'agent.phase', phase: 'pregen', rounds: 15 });
    controller.dispatch({ type: 'model.request', round: 1, messages: 1, tools: [], newMessages: [] });
    controller.dispatch({
      type: 'model.response',
      content: 'ok',
      toolCalls: [],
      usage: { inputTokens: 60_000, outputTokens: 1_000 },
      costUsd: 0.85,
      durationMs: 1,
      model: 'm',
      stopReason: 'stop',
    });
    await frameShows(ui.lastFrame, '$0.1500 of $1.00 left · 39,000 of 100,000 tokens left');
    controller.dispatch({ type: 'model.request', round: 2, messages: 3, tools: [], newMessages: [] });
    controller.dispatch({
      type: 'model.response',
      content: 'more',
      toolCalls: [],
      usage: { inputTokens: 1_000, outputTokens: 10 },
      costUsd: 0.2,
      durationMs: 1,
      model: 'm',
      stopReason: 'stop',
    });
    controller.dispatch({ type: 'limit.reached', limit: 'cost', spent: 1.05, max: 1 });
    await frameShows(ui.lastFrame, "The session's cost limit is reached ($1.05 of $1.00)");
    expect(ui.lastFrame()).toContain('$0.0000 of $1.00 left');
    expect(ui.lastFrame()).toContain("The session's cost limit is reached ($1.05 of $1.00)");
    ui.unmount();
  });
});
