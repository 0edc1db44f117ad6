import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import {
  initialStart,
  noModelKey,
  reduceStart,
  searchKey,
  type StartAction,
} from '../../source/ui/screens/start-state';
import { StartScreen, type ModelLine } from '../../source/ui/screens/start-screen';
import { frameShows } from './helpers';

// Issue 38's pass over the start screen: its state is one reducer, its keys pure functions,
// tested here without rendering. Issue 37.12: the model is loaded after the first frame.

const FUNCTIONS = ['a.py::alpha', 'a.py::beta', 'b.py::gamma', 'b.py::delta'];

describe('the start screen as a reducer', () => {
  it('applies a burst of keys each to what the one before left: three ↓ move three rows, never past the matches', () => {
    const moves: StartAction[] = [
      searchKey('', { downArrow: true }, true),
      searchKey('', { downArrow: true }, true),
      searchKey('', { downArrow: true }, true),
    ] as StartAction[];
    const state = moves.reduce(reduceStart, initialStart(FUNCTIONS, { label: 'm' }));
    expect(state.cursor).toBe(3);
    expect(reduceStart(state, { type: 'move', by: 5 }).cursor).toBe(3);
    // A search starts the list over, at its first match, and clears a notice.
    const noticed = reduceStart(state, { type: 'notice', notice: { text: 'x', tone: 'error' } });
    const searched = reduceStart(noticed, { type: 'query', value: 'b.py' });
    expect(searched).toMatchObject({ query: 'b.py', cursor: 0 });
    expect(searched.notice).toBeUndefined();
    expect(reduceStart(searched, { type: 'move', by: 5 }).cursor).toBe(1);
  });

  it('keys: Tab switches the mode, ? opens the help, Esc clears a search then quits; without a model d is the demo and Enter says why not', () => {
    expect(
      reduceStart(initialStart(FUNCTIONS, undefined), searchKey('', { tab: true }, true) as StartAction).blank,
    ).toBe(true);
    expect(searchKey('?', {}, false)).toEqual({ type: 'help', open: true });
    expect(searchKey('', { escape: true }, false)).toBe('clear');
    expect(searchKey('', { escape: true }, true)).toBe('quit');
    expect(searchKey('x', {}, false)).toBeUndefined(); // typed into the search
    expect(noModelKey('d', {})).toEqual({ type: 'pick', choice: { demo: true } });
    expect(noModelKey('q', {})).toBe('quit');
    expect(noModelKey('', { return: true })).toMatchObject({ type: 'notice', notice: { tone: 'error' } });
  });
});

describe('the start screen with a model loader', () => {
  it('draws its first frame before the model is known, then names it', async () => {
    let answer!: (line: ModelLine) => void;
    const model = vi.fn(() => new Promise<ModelLine>((resolve) => (answer = resolve)));
    const ui = render(<StartScreen repo="/r" functions={FUNCTIONS} model={model} onStart={vi.fn()} />);
    await frameShows(ui.lastFrame, 'mode: ');
    expect(ui.lastFrame()).toContain('model: …');
    answer({ label: 'gpt-4o-mini (OpenAI)' });
    await frameShows(ui.lastFrame, 'model: gpt-4o-mini (OpenAI)');
  });

  it('a model that cannot be used says what to set once it is known, and d runs the demo', async () => {
    const onStart = vi.fn();
    const ui = render(
      <StartScreen
        repo="/r"
        functions={FUNCTIONS}
        model={async () => ({ problem: 'No model is configured.' })}
        onStart={onStart}
      />,
    );
    await frameShows(ui.lastFrame, 'No model is configured.');
    ui.stdin.write('d');
    await vi.waitFor(() => expect(onStart).toHaveBeenCalledWith({ demo: true }));
  });
});
