import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { StartScreen } from '../../source/ui/screens/start-screen';
import { initialView, reduceView } from '../../source/ui/view-state';
import { frameShows, sampleStart } from './helpers';

describe('the start screen names the repository instructions the model will get', () => {
  it('on the model line, so the list keeps its rows', async () => {
    const ui = render(
      <StartScreen
        repo="/r"
        functions={['m.py::f']}
        modelLabel="gpt-4.1-mini (OpenAI)"
        instructions="AGENTS.md, 1.2 kB"
        onStart={vi.fn()}
      />,
    );
    await frameShows(ui.lastFrame, '1 of 1 functions');
    expect(ui.lastFrame()).toContain('model: gpt-4.1-mini (OpenAI) · instructions: AGENTS.md, 1.2 kB');
    const without = render(
      <StartScreen repo="/r" functions={['m.py::f']} modelLabel="gpt-4.1-mini (OpenAI)" onStart={vi.fn()} />,
    );
    await frameShows(without.lastFrame, '1 of 1 functions');
    expect(without.lastFrame()).not.toContain('instructions');
    // The same number of rows either way.
    expect(ui.lastFrame()!.split('\n').length).toBe(without.lastFrame()!.split('\n').length);
  });
});

describe('a live session names them at its start', () => {
  it('as a note of the transcript, from the recorded session.start', () => {
    const start = sampleStart();
    if (start.type !== 'session.start') throw new Error('sampleStart begins with session.start');
    const withFile = reduceView(
      initialView(),
      { ...start, config: { ...start.config, instructions: { file: 'AGENTS.md', text: 'x', bytes: 1234 } } },
      0,
    );
    expect(withFile.agent.items.map((i) => (i.kind === 'note' ? i.text : ''))).toContain(
      "Instructions: AGENTS.md, 1.2 kB (the repository's, in the system prompt)",
    );
    expect(reduceView(initialView(), start, 0).agent.items).toEqual([]);
  });
});
