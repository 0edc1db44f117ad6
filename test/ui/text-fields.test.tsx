import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import {
  editLine,
  emptyLine,
  expandTabs,
  type EditOptions,
  type LineState,
} from '../../source/ui/components/line-editor';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { CommandPrompt } from '../../source/ui/screens/agent-prompts';
import { DebuggerPane } from '../../source/ui/screens/debugger-pane';
import { StartScreen } from '../../source/ui/screens/start-screen';
import { initialView, reduceView } from '../../source/ui/view-state';
import { frameShows, KEYS, sampleConfig, sampleReport, typeKeys, until } from './helpers';

/** Types `inputs` (each one chunk, as a terminal would deliver it) into a fresh line. */
function typed(
  inputs: (string | [string, Record<string, boolean>])[],
  newlines: EditOptions['newlines'] = 'single',
  history?: string[],
) {
  let state: LineState = emptyLine();
  const submitted: string[] = [];
  for (const input of inputs) {
    const [text, key] = typeof input === 'string' ? [input, {}] : input;
    const result = editLine(state, text, key, { newlines, ...(history ? { history } : {}) });
    state = result.state;
    submitted.push(...result.submitted);
  }
  return { state, submitted };
}

describe('the line editor every text field shares', () => {
  it('replays a chunk of several keys (key repeat, a paste) character by character', () => {
    expect(typed(['abcd\x7f\x7fx']).state).toEqual({ value: 'abx', cursor: 3 });
    // A paste into a single-line field: inner newlines become spaces, tabs spaces.
    expect(typed(['one\ntwo\tthree']).state.value).toBe('one two    three');
    // A newline at the end of a chunk is Enter.
    expect(typed(['why not\r']).submitted).toEqual(['why not']);
  });

  it('in lines mode (pdb) every newline ends a line, in order', () => {
    const { state, submitted } = typed(['p 1+1\r\np 2+2\rp 3', '+3\r'], 'lines');
    expect(submitted).toEqual(['p 1+1', 'p 2+2', 'p 3+3']);
    expect(state.value).toBe('');
  });

  it('moves and edits: ← →, Ctrl+A, Ctrl+E, Ctrl+U, Ctrl+W, raw or as Ink names them', () => {
    const ctrl = (letter: string): [string, Record<string, boolean>] => [letter, { ctrl: true }];
    expect(typed(['hello world', ctrl('w')]).state).toEqual({ value: 'hello ', cursor: 6 });
    expect(typed(['hello world', ctrl('a'), 'X']).state).toEqual({ value: 'Xhello world', cursor: 1 });
    expect(typed(['hello world', ['', { leftArrow: true }], ['', { leftArrow: true }], ctrl('u')]).state).toEqual({
      value: 'ld',
      cursor: 0,
    });
    expect(typed(['abc', ctrl('a'), ctrl('e'), 'd']).state.value).toBe('abcd');
    // The same keys inside a chunk (a fast typist): \x01 is Ctrl+A, \x17 Ctrl+W.
    expect(typed(['one two\x17\x01>']).state).toEqual({ value: '>one ', cursor: 1 });
    expect(typed(['abc', ['', { leftArrow: true }], 'X']).state).toEqual({ value: 'abXc', cursor: 3 });
  });

  it('walks the history with ↑ ↓ and comes back to the line being typed', () => {
    const up: [string, Record<string, boolean>] = ['', { upArrow: true }];
    const down: [string, Record<string, boolean>] = ['', { downArrow: true }];
    const history = ['p x', 'where'];
    expect(typed(['dra', up], 'lines', history).state.value).toBe('where');
    expect(typed(['dra', up, up], 'lines', history).state.value).toBe('p x');
    expect(typed(['dra', up, up, up], 'lines', history).state.value).toBe('p x');
    expect(typed(['dra', up, up, down, down], 'lines', history).state.value).toBe('dra');
    expect(typed([up, ['', { return: true }]], 'lines', history).submitted).toEqual(['where']);
  });

  it('keeps a bracketed paste apart from Enter, however the terminal cut it into chunks', () => {
    // Ink hands each marker over on its own; a chunk that is just a newline comes as Enter.
    const pasted: (string | [string, Record<string, boolean>])[] = [
      '[200~',
      'Traceback (most recent call last):',
      ['\r', { return: true }],
      '  File "x.py"\r',
      '[201~',
    ];
    const text = typed(pasted, 'text');
    expect(text.submitted).toEqual([]);
    expect(text.state.value).toBe('Traceback (most recent call last):\n  File "x.py"\n');
    expect(text.state.pasting).toBeUndefined();
    // Enter after the paste sends the whole text.
    expect(typed([...pasted, ['\r', { return: true }]], 'text').submitted).toEqual([
      'Traceback (most recent call last):\n  File "x.py"\n',
    ]);
    // A search keeps a pasted newline as a space, and does not search on it.
    expect(typed(['[200~', 'one\r', '[201~'], 'single')).toMatchObject({ submitted: [], state: { value: 'one ' } });
    // pdb still gets a pasted block line by line.
    expect(typed(['[200~', 'p 1\rp 2\r', '[201~'], 'lines').submitted).toEqual(['p 1', 'p 2']);
  });

  it('in text (a message) keeps newlines: pasted inside a chunk, typed with Alt+Enter or Ctrl+J; ↑ ↓ move between lines', () => {
    // A terminal without bracketed paste: a newline inside the chunk is pasted, the last one is Enter.
    expect(typed(['def f():\n    return 1'], 'text').state.value).toBe('def f():\n    return 1');
    expect(typed(['def f():\n    return 1\r'], 'text').submitted).toEqual(['def f():\n    return 1']);
    expect(typed(['first', ['\r', { return: true, meta: true }], 'second'], 'text').state.value).toBe('first\nsecond');
    expect(typed(['first', '\n', 'second'], 'text').state.value).toBe('first\nsecond');
    const up: [string, Record<string, boolean>] = ['', { upArrow: true }];
    const down: [string, Record<string, boolean>] = ['', { downArrow: true }];
    expect(typed(['abcdef\nxy', up], 'text').state.cursor).toBe(2);
    expect(typed(['abcdef\nxy', up, down], 'text').state.cursor).toBe(9);
    expect(typed(['abcdef\nxy', up, 'Z'], 'text').state.value).toBe('abZcdef\nxy');
  });

  it('expands tabs to the next stop of 8 columns', () => {
    expect(expandTabs('1\tx\n12345678\ty')).toBe('1       x\n12345678        y');
  });
});

describe('Esc takes back the innermost thing', () => {
  it('on the start screen: the search first, and only an empty search quits', async () => {
    const onQuit = vi.fn();
    const ui = render(
      <StartScreen
        repo="/r"
        functions={['a.py::parse', 'b.py::render']}
        modelLabel="m"
        onStart={() => undefined}
        onQuit={onQuit}
      />,
    );
    await frameShows(ui.lastFrame, '2 of 2 functions');
    ui.stdin.write('rend');
    await frameShows(ui.lastFrame, '1 of 2 functions');
    ui.stdin.write(KEYS.escape);
    await frameShows(ui.lastFrame, '2 of 2 functions');
    expect(onQuit).not.toHaveBeenCalled();
    ui.stdin.write(KEYS.escape);
    await until(() => onQuit.mock.calls.length === 1);
  });

  it('the search takes key repeat and pastes: backspaces erase, the list follows', async () => {
    const onStart = vi.fn();
    const ui = render(
      <StartScreen repo="/r" functions={['a.py::parse', 'b.py::render']} modelLabel="m" onStart={onStart} />,
    );
    await frameShows(ui.lastFrame, '2 of 2 functions');
    ui.stdin.write('renxx\x7f\x7f'); // one chunk
    await frameShows(ui.lastFrame, '1 of 2 functions');
    expect(ui.lastFrame()).toContain('target: ren');
    ui.stdin.write(KEYS.enter);
    await until(() => onStart.mock.calls.length === 1);
    expect(onStart).toHaveBeenCalledWith({ target: 'b.py::render', blank: false });
  });

  it('on the command box: Esc denies the command, x asks before it stops the agent', async () => {
    const resolve = vi.fn();
    const prompt = { kind: 'approve-command' as const, command: 'rm -rf build', resolve, allowAlways: vi.fn() };
    const ui = render(<CommandPrompt prompt={prompt} width={100} rows={20} />);
    await frameShows(ui.lastFrame, 'Esc deny it');
    ui.stdin.write('x');
    await frameShows(ui.lastFrame, 'Stop the agent and evaluate what it has? y/N');
    ui.stdin.write('n'); // no: back to the question
    await frameShows(ui.lastFrame, 'y run it, this once');
    ui.stdin.write('x');
    await frameShows(ui.lastFrame, 'Stop the agent');
    ui.stdin.write(KEYS.escape); // the question goes, the command box stays
    await frameShows(ui.lastFrame, 'y run it, this once');
    expect(resolve).not.toHaveBeenCalled();
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, 'Why not?');
    ui.stdin.write('not here');
    await frameShows(ui.lastFrame, 'Why not? not here');
    ui.stdin.write(KEYS.escape); // the reason goes first
    await until(
      () => !ui.lastFrame()!.includes('not here'),
      () => ui.lastFrame()!,
    );
    ui.stdin.write(KEYS.escape); // then the choice to give one
    await frameShows(ui.lastFrame, 'y run it, this once');
    ui.stdin.write(KEYS.escape); // then the command itself: denied, the agent goes on
    await until(() => resolve.mock.calls.length === 1);
    expect(resolve).toHaveBeenCalledWith({ run: false, reason: '' });
  });

  it('x and y on the command box stop the agent', async () => {
    const resolve = vi.fn();
    const ui = render(
      <CommandPrompt
        prompt={{ kind: 'approve-command', command: 'make', resolve, allowAlways: vi.fn() }}
        width={80}
        rows={20}
      />,
    );
    await frameShows(ui.lastFrame, 'make');
    ui.stdin.write('x');
    await frameShows(ui.lastFrame, 'Stop the agent');
    ui.stdin.write('y');
    await until(() => resolve.mock.calls.length === 1);
    expect(resolve).toHaveBeenCalledWith({ stop: true });
  });

  it('a reason typed fast (one chunk, with a backspace) is sent as meant', async () => {
    const resolve = vi.fn();
    const ui = render(
      <CommandPrompt
        prompt={{ kind: 'approve-command', command: 'make', resolve, allowAlways: vi.fn() }}
        width={80}
        rows={20}
      />,
    );
    await frameShows(ui.lastFrame, 'make');
    ui.stdin.write('e');
    await frameShows(ui.lastFrame, 'Why not?');
    ui.stdin.write('use the testx\x7f suite\r');
    await until(() => resolve.mock.calls.length === 1);
    expect(resolve).toHaveBeenCalledWith({ run: false, reason: 'use the test suite' });
  });

  it('in the THM review’s filter, ? is text, not the help; once the field is closed, ? opens the help', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    controller.dispatch({
      type: 'session.start',
      sessionId: 's1',
      target: 'm.py::f',
      mode: 'stub',
      strategy: 'tenet',
      model: 'm',
      modelLabel: 'm',
      provider: 'openai',
      repo: '/r',
      config: sampleConfig(),
    });
    controller.dispatch({ type: 'thm.report', report: sampleReport() });
    void controller.approveTests(sampleReport());
    await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
    ui.stdin.write('/');
    await frameShows(ui.lastFrame, 'filter clusters and tests');
    // Typed a key at a time (a `?` in a chunk of several keys never looked like the help's).
    await typeKeys(ui, 'a?b');
    await frameShows(ui.lastFrame, '/ a?b');
    expect(ui.lastFrame()).not.toContain('Keys (? or Esc to close)');
    ui.stdin.write(KEYS.escape); // clears the text
    await until(
      () => !ui.lastFrame()!.includes('a?b'),
      () => ui.lastFrame()!,
    );
    ui.stdin.write(KEYS.escape); // closes the field
    await until(
      () => !ui.lastFrame()!.includes('filter clusters and tests'),
      () => ui.lastFrame()!,
    );
    ui.stdin.write('?');
    await frameShows(ui.lastFrame, 'Keys (? or Esc to close)');
    ui.unmount();
  });
});

describe("the debugger pane's output", () => {
  const linesOf = (...chunks: string[]) =>
    chunks
      .reduce((state, chunk) => reduceView(state, { type: 'debugger.output', chunk }), initialView())
      .debugger.lines.map((line) => line.text);

  it("is the program's lines however its output was cut: an unbuffered print's newline alone adds no blank line, a line cut mid-way is one line", () => {
    // print() in an unbuffered Python: the text, then its newline, each a write of its own.
    expect(linesOf('collected 3 items', '\n', 'tests/test_tax.py F', '..', '\n', '(Pdb) ')).toEqual([
      'collected 3 items',
      'tests/test_tax.py F..',
      '(Pdb) ',
    ]);
    // Whole lines, and an empty line the program printed, stay as they were.
    expect(linesOf('a\n\nb\n', 'c\n')).toEqual(['a', '', 'b', 'c']);
    // A line typed in between ends the open one: the output after it starts a line of its own.
    const typed = [initialView()]
      .map((state) => reduceView(state, { type: 'debugger.output', chunk: '(Pdb) ' }))
      .map((state) => reduceView(state, { type: 'debugger.input', who: 'agent', input: 'p x', mode: 'pdb' }))
      .map((state) => reduceView(state, { type: 'debugger.output', chunk: '1\n(Pdb) ' }))[0]!;
    // The prompt the line answers is not shown twice (issue 37.9): one `(Pdb) p x` row.
    expect(typed.debugger.lines.map((line) => line.text)).toEqual(['(Pdb) p x', '1', '(Pdb) ']);
    // Tab stops count from the line's start, across chunks.
    expect(linesOf('ab', '\tc\n')).toEqual(['ab      c']);
  });
});

describe('the pdb line of a takeover', () => {
  const view = () => {
    let state = initialView();
    state = reduceView(state, { type: 'debugger.input', who: 'human', input: 'p items', mode: 'pdb' });
    state = reduceView(state, { type: 'debugger.output', chunk: '[1, 2]\n  1  \tdef f():\n(Pdb) ' });
    return state;
  };

  it('sends a pasted block line by line, brings back earlier lines, expands tabs of the output', async () => {
    const sent: string[] = [];
    const onHandBack = vi.fn();
    const ui = render(
      <DebuggerPane
        view={view()}
        takeover="active"
        width={100}
        rows={12}
        onSend={(line) => sent.push(line)}
        onHandBack={onHandBack}
      />,
    );
    await frameShows(ui.lastFrame, 'yours');
    expect(ui.lastFrame()).toContain('  1     def f():');
    ui.stdin.write('p 1+1\np 2+2\np 3+3\n');
    await until(() => sent.length === 3);
    expect(sent).toEqual(['p 1+1', 'p 2+2', 'p 3+3']);
    // The line typed earlier is in the pane once; brought back, it is in the pdb line too.
    const shown = () => ui.lastFrame()!.split('(Pdb) p items').length - 1;
    expect(shown()).toBe(1);
    ui.stdin.write(KEYS.up);
    await until(
      () => shown() === 2,
      () => ui.lastFrame()!,
    );
    ui.stdin.write(KEYS.escape); // clears the line …
    await until(
      () => shown() === 1,
      () => ui.lastFrame()!,
    );
    expect(onHandBack).not.toHaveBeenCalled();
    ui.stdin.write(KEYS.escape); // … then hands back
    await until(() => onHandBack.mock.calls.length === 1);
  });

  it('Ctrl+C in a takeover interrupts the debugged program, not tenet', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    let quit = 0;
    const interrupt = vi.fn();
    const session = { running: true, transcript: [], interrupt, run: vi.fn(async () => '') };
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => quit++} />);
    controller.dispatch({
      type: 'session.start',
      sessionId: 's1',
      target: 'm.py::f',
      mode: 'stub',
      strategy: 'tenet',
      model: 'm',
      modelLabel: 'm',
      provider: 'openai',
      repo: '/r',
      config: sampleConfig(),
    });
    controller.dispatch({ type: 'thm.report', report: sampleReport() });
    controller.dispatch({ type: 'thm.approval', proposed: [], chosen: sampleReport().selected, by: 'auto', T: 2 });
    controller.dispatch({ type: 'agent.phase', phase: 'pregen', rounds: 15 });
    controller.attach({ debugger: session as never, selectedTests: [] });
    await frameShows(ui.lastFrame, 't take over');
    ui.stdin.write('t');
    await frameShows(ui.lastFrame, 'takeover: waiting');
    void controller.beforeModelCall();
    await frameShows(ui.lastFrame, 'you have the debugger');
    ui.stdin.write(KEYS.ctrlC);
    await until(() => interrupt.mock.calls.length === 1);
    ui.stdin.write(KEYS.ctrlC);
    await until(() => interrupt.mock.calls.length === 2);
    expect(quit).toBe(0);
    ui.unmount();
  });
});
