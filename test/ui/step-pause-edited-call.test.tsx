import { describe, expect, it } from 'vitest';
import { renderPrompt } from '../../source/engine/agent/prompts';
import { TuiController } from '../../source/ui/controller';
import { itemLines } from '../../source/ui/components/transcript-item';
import { lineText } from '../../source/ui/components/lines';
import { reduceAll } from '../../source/ui/view-state';
import { agentOn } from './agent-on';
import { approvedStart, frameShows, until } from './helpers';

// Issue 46.6: a tool call held at a step pause, its arguments edited. The transcript's line for
// the call showed the model's arguments (n=3) and `running…` while it waited; once it ran, its
// preview was the note the model reads before the output, and `… 16 more lines`.

const call = { id: 'c1', name: 'search_target_usage', arguments: '{"n":3}' };
const EDITED = '{"n":1}';

describe('a tool call held at a step pause', () => {
  it('shows the arguments it will run with and that it waits, not the model’s and `running…`', async () => {
    const controller = new TuiController({ autoApproveCommands: true, step: true });
    const ui = await agentOn(controller);
    controller.dispatch({ type: 'tool.call', id: call.id, name: call.name, arguments: call.arguments });
    const ran = controller.beforeToolCall(call);
    await frameShows(ui.lastFrame, '⏸ step: before the tool call search_target_usage');
    expect(ui.lastFrame()).toContain('→ search_target_usage n=3');
    expect(ui.lastFrame()).toContain('⏸ waits for you');
    expect(ui.lastFrame()).not.toContain('running…');
    controller.setStepArguments(EDITED);
    await until(
      () => ui.lastFrame()!.includes('→ search_target_usage ✎ your arguments n=1'),
      () => ui.lastFrame()!,
    );
    expect(ui.lastFrame()).not.toContain('n=3');
    ui.stdin.write('\r');
    expect(await ran).toBe(EDITED);
    ui.unmount();
  });

  it('once run with edited arguments, its preview is the tool’s output, not the note the model reads before it', () => {
    const output = Array.from({ length: 20 }, (_, i) => `usage ${i + 1}`).join('\n');
    const note = renderPrompt('developer-edit', { arguments: EDITED });
    const view = reduceAll([
      ...approvedStart(),
      { type: 'tool.call', id: call.id, name: call.name, arguments: call.arguments },
      { type: 'tool.edit', id: call.id, name: call.name, original: call.arguments, arguments: EDITED },
      { type: 'tool.result', id: call.id, name: call.name, ok: true, text: `${note}\n${output}`, durationMs: 5 },
    ]);
    const rows = itemLines(view.agent.items.at(-1)!, 100).map(lineText);
    expect(rows[0]).toContain('✎ your arguments n=1');
    expect(rows.slice(1, 5)).toEqual(['  usage 1', '  usage 2', '  usage 3', '  usage 4']);
    expect(rows.join('\n')).not.toContain('The developer changed');
    expect(rows.at(-1)).toContain('… 16 more lines');
  });
});
