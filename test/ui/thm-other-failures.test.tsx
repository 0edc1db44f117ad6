import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { ThmReport } from '../../source/engine/protocol/thm-report';
import { ThmScreen } from '../../source/ui/screens/thm-screen';
import { initialView } from '../../source/ui/view-state';
import { frameShows, KEYS, sampleReport } from './helpers';

// Issue 45, item 0: in stub mode the review shows the tests failing for another reason apart from
// the target's, with where each stopped; they cannot be selected.
const report = (): ThmReport => {
  const base = sampleReport();
  return {
    ...base,
    otherFailures: [
      {
        nodeid: 'tests/test_units.py::test_metres',
        outcome: 'failed',
        phase: 'call',
        message: "ValueError: could not convert string to float: ''",
        longrepr: "geo/units.py:9: in parse_length\nE   ValueError: could not convert string to float: ''",
        stoppedAt: { name: 'geo/units.py::parse_length', line: 9 },
        file: 'tests/test_units.py',
        line: 4,
        timedOut: false,
        crashed: false,
      },
    ],
    counts: { ...base.counts, otherFailures: 1 },
  };
};

describe('the THM review in stub mode', () => {
  it('counts the tests failing for another reason, lists them last, and tells where the highlighted one stopped', async () => {
    const resolve = vi.fn();
    const ui = render(
      <ThmScreen
        view={initialView()}
        prompt={{ kind: 'approve-tests', report: report(), resolve }}
        width={100}
        height={40}
      />,
    );
    expect(ui.lastFrame()).toContain('4 failing (1 unreached) · 1 failing for another reason · 2 clusters');
    expect(ui.lastFrame()).toContain("Failing for another reason (1): not the target's tests");
    ui.stdin.write(KEYS.end);
    await frameShows(ui.lastFrame, 'tests/test_units.py::test_metres fails for another reason:');
    const frame = ui.lastFrame()!;
    expect(frame).toMatch(/❯ +tests\/test_units\.py::test_metres · another reason/);
    expect(frame).toContain('stops in geo/units.py::parse_length (line 9); it never reaches the target');
    expect(frame).toContain("E   ValueError: could not convert string to float: ''");
    // Space does not select it, and says why.
    ui.stdin.write(KEYS.space);
    await frameShows(ui.lastFrame, 'Not selectable: tests/test_units.py::test_metres never reaches the target');
    expect(ui.lastFrame()).toContain('Selected 2 (T=2)');
    ui.unmount();
  });
});
