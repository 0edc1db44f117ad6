import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { StartScreen } from '../../source/ui/screens/start-screen';
import { frameShows } from './helpers';

describe('the start screen names the repository instructions the model will get', () => {
  it('on the model line, so the list keeps its rows', async () => {
    const ui = render(<StartScreen repo="/r" functions={['m.py::f']} modelLabel="gpt-4.1-mini (OpenAI)" instructions="AGENTS.md, 1.2 kB" onStart={vi.fn()} />);
    await frameShows(ui.lastFrame, '1 of 1 functions');
    expect(ui.lastFrame()).toContain('model: gpt-4.1-mini (OpenAI) · instructions: AGENTS.md, 1.2 kB');
    const without = render(<StartScreen repo="/r" functions={['m.py::f']} modelLabel="gpt-4.1-mini (OpenAI)" onStart={vi.fn()} />);
    await frameShows(without.lastFrame, '1 of 1 functions');
    expect(without.lastFrame()).not.toContain('instructions');
    // The same number of rows either way.
    expect(ui.lastFrame()!.split('\n').length).toBe(without.lastFrame()!.split('\n').length);
  });
});
