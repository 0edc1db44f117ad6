import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import { ThmScreen } from '../../source/ui/screens/thm-screen';
import { initialView } from '../../source/ui/view-state';
import { bigClusterReport, frameShows, KEYS, resize, rowsOf } from './helpers';

// Issue 46.14: with 198 or 637 failing tests the review's chain read `chain of …:` and a single
// `…`, at 120×36 as at 250×60: the list took the rows first and left the chain its minimum.

describe('the chain of the highlighted test, with a long list', () => {
  for (const [width, height] of [
    [120, 36],
    [250, 60],
    [80, 24],
  ] as const) {
    it(`is shown whole at ${width}×${height} with 637 failing tests`, async () => {
      const report = bigClusterReport(637);
      const ui = render(
        <ThmScreen
          view={initialView()}
          prompt={{ kind: 'approve-tests', report, resolve: vi.fn() }}
          width={width}
          height={height - 1}
        />,
      );
      resize(ui.stdout, width, height);
      await frameShows(ui.lastFrame, 'Selected 2 (T=2)');
      ui.stdin.write(KEYS.down); // the first cluster is open: its test, then the big cluster
      await frameShows(ui.lastFrame, 'test 1/1 of its cluster');
      ui.stdin.write(KEYS.down);
      await frameShows(ui.lastFrame, 'cluster 2/2');
      ui.stdin.write(KEYS.right); // the big cluster open
      await frameShows(ui.lastFrame, '▾ src/click');
      ui.stdin.write(KEYS.down);
      await frameShows(ui.lastFrame, 'test 1/637 of its cluster');
      ui.stdin.write(KEYS.down);
      await frameShows(ui.lastFrame, 'test 2/637 of its cluster');
      const frame = ui.lastFrame()!;
      expect(frame).toMatch(/chain of .*test_wrap_text_case_002:/);
      expect(frame).toContain('src/click/formatting.py::wrap_text');
      expect(rowsOf(frame).length).toBeLessThan(height);
      ui.unmount();
    });
  }
});
