import { render } from 'ink-testing-library';
import { describe, it, vi } from 'vitest';
import { AgentScreen } from '../../source/ui/screens/agent-screen';
import { reduceAll } from '../../source/ui/view-state';
import { approvedStart, frameShows } from './helpers';

// Issue 46.17: the evaluation, the slowest step on a large target (199 s for 637 tests), showed no
// progress in the TUI: a fixed `evaluating on every failing test` for minutes.

describe('the agent screen during the evaluation', () => {
  it('says how many tests it runs, and its clock ticks', async () => {
    vi.useFakeTimers({ now: 1_000_000, toFake: ['Date', 'setInterval', 'clearInterval'] });
    try {
      const view = reduceAll([...approvedStart(), { type: 'agent.phase', phase: 'evaluate' }]);
      const ui = render(
        <AgentScreen
          view={{ ...view, agent: { ...view.agent, phaseAt: Date.now() } }}
          takeover="off"
          width={100}
          height={30}
          allowAlways={vi.fn()}
          onSend={vi.fn()}
        />,
      );
      await frameShows(ui.lastFrame, 'evaluating the patch on all 4 failing tests · 0 s');
      vi.advanceTimersByTime(12_000);
      await frameShows(ui.lastFrame, 'evaluating the patch on all 4 failing tests · 12 s');
      ui.unmount();
    } finally {
      vi.useRealTimers();
    }
  });
});
