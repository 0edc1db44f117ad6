import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { DEMO } from '../../source/commands/demo';
import { startModelLine } from '../../source/commands/start';
import { loadScript } from '../../source/engine/model/scripted';
import { StartScreen } from '../../source/ui/screens/start-screen';
import { frameShows, resize } from './helpers';

// Issue 46.12: bare `tenet` on the example with no model configured said `model: scripted demo
// model` and nothing else: not that this is because no model is set, nor how to set one.

describe('the start screen with no model configured, on the example', () => {
  it('says the demo script answers because no model is configured, and what to set', async () => {
    const line = await startModelLine(DEMO.repo(), {}, {}, {}, loadScript(DEMO.script()));
    expect(line).toMatchObject({ label: expect.stringContaining('scripted') });
    const note = 'note' in line ? (line.note ?? '') : '';
    expect(note).toContain("No model is configured, so the example's scripted demo answers");
    expect(note).toContain('OPENAI_API_KEY');
  });

  it('says nothing of the kind when a model is configured', async () => {
    const line = await startModelLine(DEMO.repo(), {}, {}, { OPENAI_API_KEY: 'sk-test' }, loadScript(DEMO.script()));
    expect(line).not.toHaveProperty('note');
  });

  it('shows the note under the model line', async () => {
    const note =
      "No model is configured, so the example's scripted demo answers (no API call). To use a model, set OPENAI_API_KEY.";
    const ui = render(
      <StartScreen
        repo="/r"
        functions={['m.py::f']}
        model={async () => ({ label: 'scripted demo model', note })}
        onStart={vi.fn()}
      />,
    );
    resize(ui.stdout, 120, 30);
    await frameShows(ui.lastFrame, 'model: scripted demo model');
    await frameShows(ui.lastFrame, 'No model is configured, so the example');
    ui.unmount();
  });
});
