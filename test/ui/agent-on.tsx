import { render } from 'ink-testing-library';
import type { EngineEvent } from '../../source/engine/events';
import type { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { frameShows, sampleConfig, sampleReport } from './helpers';

export const start: EngineEvent = {
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

/** The live app in the agent's first round: THM's report in, its proposal approved with `a`. */
export async function agentOn(controller: TuiController) {
  const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
  controller.dispatch(start);
  controller.dispatch({ type: 'thm.report', report: sampleReport() });
  const approved = controller.approveTests(sampleReport());
  await frameShows(ui.lastFrame, 'a accept');
  ui.stdin.write('a');
  await approved;
  controller.dispatch({
    type: 'thm.approval',
    proposed: sampleReport().selected,
    chosen: sampleReport().selected,
    by: 'human',
    T: 2,
  });
  controller.dispatch({ type: 'agent.phase', phase: 'pregen', rounds: 15 });
  controller.dispatch({ type: 'model.request', round: 1, messages: 1, tools: [], newMessages: [] });
  await frameShows(ui.lastFrame, 'pre-generation · round 1/15');
  return ui;
}
