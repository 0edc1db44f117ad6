import { describe, expect, it } from 'vitest';
import type { DebuggerSession } from '../../source/engine/tools/debugger/session';
import { takeoverTest, TuiController } from '../../source/ui/controller';

const A = 'tests/test_a.py::test_one';
const B = 'tests/test_a.py::test_two';
const OWN = 'tests/test_by_agent.py::test_zero';

describe('where a takeover with no session open starts pdb', () => {
  it('a selected test that failed in the last run, else one of the agent own failing tests, else the first selected', () => {
    expect(takeoverTest([A, B], { [A]: 'passed', [B]: 'failed' })).toBe(B);
    expect(takeoverTest([A, B], { [A]: 'error', [B]: 'failed' })).toBe(A);
    expect(takeoverTest([], { [OWN]: 'failed', 'tests/test_by_agent.py::test_one': 'passed' })).toBe(OWN);
    expect(takeoverTest([A, B], { [A]: 'passed', [B]: 'passed' })).toBe(A);
    expect(takeoverTest([A], {})).toBe(A);
    expect(takeoverTest([], { [OWN]: 'passed' })).toBeUndefined();
  });

  it('the controller starts pdb at the test that failed in the latest run, not the first selected one', () => {
    const sent: string[] = [];
    const session = { running: false, transcript: [], run: async (line: string) => (sent.push(line), '') } as unknown as DebuggerSession;
    const controller = new TuiController({ autoApproveCommands: true });
    controller.attach({ debugger: session, selectedTests: [A, B] });
    controller.dispatch({ type: 'agent.phase', phase: 'rrw', attempt: 1, attempts: 5, stage: 'failure-identification' });
    controller.dispatch({ type: 'tests.run', purpose: 'validate', report: '', outcomes: { [A]: 'passed', [B]: 'failed' }, passed: 1, total: 2 });
    controller.requestTakeover();
    expect(sent).toEqual([`python -m pytest ${B} --trace -q -p no:cacheprovider`]);
  });
});
