import { render } from 'ink-testing-library';
import { describe, expect, it, vi } from 'vitest';
import type { RunResult } from '../../source/engine/events';
import { failuresOf } from '../../source/ui/components/failures';
import { ResultScreen } from '../../source/ui/screens/result-screen';
import { frameShows, KEYS, until } from './helpers';

/** An evaluation report as engine/tools/run-tests.ts writes it. */
const REPORT = [
  'Ran 3 tests: 1 passed, 2 not passing.',
  'PASSED t.py::test_ok',
  'FAILED t.py::test_round',
  'ERROR t.py::test_setup',
  '',
  'FAILED t.py::test_round',
  '    Traceback (most recent call last):',
  '      File "t.py", line 9, in test_round',
  '        assert tax_for(9.99, "de") == 1.9',
  '    AssertionError: assert 1.8981 == 1.9',
  '',
  'ERROR t.py::test_setup',
  '    fixture db failed',
  '    E   RuntimeError: no database',
].join('\n');

const result = (): RunResult => ({
  type: 'result',
  sessionId: 's1',
  target: 'm.py::f',
  strategy: 'tdd',
  pass: false,
  stopReason: 'finished',
  selectedTests: { passed: 0, total: 0 },
  hiddenTests: { passed: 1, total: 3 },
  tests: { 't.py::test_ok': 'passed', 't.py::test_round': 'failed', 't.py::test_setup': 'error' },
  usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 1 },
  rounds: { pregen: 0, rrwAttempts: 0, total: 1 },
  costUsd: 0,
  costOfPass: null,
  wallMs: 1,
  patch: '--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n def f():\n-    pass\n+    return 1\n',
  model: 'm',
});

describe('the result screen shows how a test failed', () => {
  it('reads each failure back from the evaluation report', () => {
    expect(failuresOf(REPORT)).toEqual({
      't.py::test_round':
        'Traceback (most recent call last):\n  File "t.py", line 9, in test_round\n    assert tax_for(9.99, "de") == 1.9\nAssertionError: assert 1.8981 == 1.9',
      't.py::test_setup': 'fixture db failed\nE   RuntimeError: no database',
    });
    expect(
      failuresOf(
        'Ran 1 test: 0 passed, 1 not passing.\nERROR a/t.py (the module failed to import)\n\nERROR collecting a/t.py: ImportError: no x\n    Traceback',
      ),
    ).toEqual({ 'a/t.py': 'The module failed to import: ImportError: no x\nTraceback' });
  });

  it('an unverified verdict shows UNVERIFIED and its reason, not PASS or FAIL (issue 34)', async () => {
    const unverified: RunResult = {
      ...result(),
      stopReason: 'unverified',
      message: 'the checkout changed while the agent worked (.planted_fifo)',
      tests: {},
    };
    const ui = render(
      <ResultScreen
        result={unverified}
        width={100}
        height={30}
        failures={{}}
        prompt={{ kind: 'accept-patch', result: unverified, resolve: vi.fn() }}
      />,
    );
    await frameShows(
      ui.lastFrame,
      'UNVERIFIED: 0/0 selected passed, 1/3 hidden passed (the checkout changed while the agent worked',
    );
    expect(ui.lastFrame()).toContain('(.planted_fifo))');
    expect(ui.lastFrame()).not.toMatch(/\b(PASS|FAIL)\b/);
    ui.unmount();
  });

  it('a on an unverified verdict says why it is not applied, and asks nothing (the engine would refuse it)', async () => {
    const unverified: RunResult = {
      ...result(),
      stopReason: 'unverified',
      message: 'the checkout changed while the agent worked (.planted_fifo)',
      tests: {},
    };
    const resolve = vi.fn();
    const ui = render(
      <ResultScreen
        result={unverified}
        width={100}
        height={30}
        failures={{}}
        prompt={{ kind: 'accept-patch', result: unverified, resolve }}
      />,
    );
    await frameShows(ui.lastFrame, 'UNVERIFIED');
    ui.stdin.write('a');
    await frameShows(ui.lastFrame, 'not applied: the verdict is unverified');
    expect(ui.lastFrame()).not.toContain('Apply the patch');
    expect(resolve).not.toHaveBeenCalled();
    ui.unmount();
  });

  it('Enter on the diff opens the first failed test; in the list, Enter on another opens its own; Esc goes back', async () => {
    const ui = render(
      <ResultScreen
        result={result()}
        width={100}
        height={30}
        failures={failuresOf(REPORT)}
        prompt={{ kind: 'accept-patch', result: result(), resolve: vi.fn() }}
      />,
    );
    await frameShows(ui.lastFrame, 'Enter: how they failed');
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, 'how t.py::test_round failed (failed)');
    expect(ui.lastFrame()).toContain('AssertionError: assert 1.8981 == 1.9');
    expect(ui.lastFrame()).toContain('assert tax_for(9.99, "de") == 1.9');
    ui.stdin.write(KEYS.escape); // back to the list of every test, the cursor on that test
    await frameShows(ui.lastFrame, 'test 1/3 · Enter shows how it failed');
    // The failing tests are in the list, not also in the summary above it.
    expect(ui.lastFrame()!.split('t.py::test_round').length - 1).toBe(1);
    ui.stdin.write(KEYS.down);
    await frameShows(ui.lastFrame, 'test 2/3');
    ui.stdin.write(KEYS.enter);
    await frameShows(ui.lastFrame, 'how t.py::test_setup failed (error)');
    expect(ui.lastFrame()).toContain('E   RuntimeError: no database');
    ui.stdin.write(KEYS.escape);
    await frameShows(ui.lastFrame, 'test 2/3');
    ui.stdin.write(KEYS.down);
    await frameShows(ui.lastFrame, 'test 3/3');
    ui.stdin.write(KEYS.enter); // a passing test: nothing to show
    ui.stdin.write('t');
    await frameShows(ui.lastFrame, 'diff of m.py');
  });
});

describe("keeping the agent's tests (k, after a TDD run)", () => {
  it('asks first, like apply; y writes them and says where; n keeps them out', async () => {
    const keep = vi.fn(async () => 'tests/test_by_agent.py');
    const agentTests = {
      path: 'tests/test_by_agent.py',
      code: 'from m import f\n\ndef test_one():\n    assert f() == 1\n\ndef test_two():\n    assert f() != 2\n',
      keep,
    };
    const resolve = vi.fn();
    const ui = render(
      <ResultScreen
        result={result()}
        width={100}
        height={30}
        prompt={{ kind: 'accept-patch', result: result(), agentTests, resolve }}
      />,
    );
    await frameShows(ui.lastFrame, "k keep the agent's tests");
    ui.stdin.write('k');
    await frameShows(ui.lastFrame, "Write the agent's tests to tests/test_by_agent.py? y/N");
    expect(ui.lastFrame()).toContain("The agent's 2 tests (7 lines) go to tests/test_by_agent.py");
    expect(ui.lastFrame()).toContain('FAIL: 0/0 selected passed, 1/3 hidden passed');
    ui.stdin.write('n');
    await frameShows(ui.lastFrame, 'a apply the patch');
    expect(keep).not.toHaveBeenCalled();
    ui.stdin.write('k');
    await frameShows(ui.lastFrame, 'y/N');
    ui.stdin.write('y');
    await until(() => keep.mock.calls.length === 1);
    expect(resolve).not.toHaveBeenCalled(); // the patch is still to be decided
    ui.rerender(
      <ResultScreen
        result={result()}
        width={100}
        height={30}
        prompt={{ kind: 'accept-patch', result: result(), agentTests, resolve }}
        keptTests="tests/test_by_agent.py"
      />,
    );
    await frameShows(ui.lastFrame, "the agent's tests kept in tests/test_by_agent.py");
    expect(ui.lastFrame()).not.toContain("k keep the agent's tests");
  });

  it('no k when the run wrote no tests of its own', async () => {
    const ui = render(
      <ResultScreen
        result={result()}
        width={100}
        height={30}
        prompt={{ kind: 'accept-patch', result: result(), resolve: vi.fn() }}
      />,
    );
    await frameShows(ui.lastFrame, 'a apply the patch');
    expect(ui.lastFrame()).not.toContain('keep the agent');
  });
});

describe('the verdict of a run whose selected tests passed and hidden ones did not', () => {
  it('says so on the screen and in the apply question, with no bare stop reason', async () => {
    const failedLater = (): RunResult => ({
      ...result(),
      strategy: 'tenet',
      stopReason: 'passed',
      selectedTests: { passed: 2, total: 2 },
      hiddenTests: { passed: 1, total: 3 },
    });
    const resolve = vi.fn();
    const ui = render(
      <ResultScreen
        result={failedLater()}
        width={120}
        height={30}
        prompt={{ kind: 'accept-patch', result: failedLater(), resolve }}
      />,
    );
    await frameShows(
      ui.lastFrame,
      'FAIL: 2/2 selected passed, 1/3 hidden passed (the selected tests passed but hidden tests failed)',
    );
    ui.stdin.write('a');
    await frameShows(ui.lastFrame, 'This patch did not pass the tests.');
    expect(ui.lastFrame()).toContain('(the selected tests passed but hidden tests failed)');
    expect(ui.lastFrame()).not.toContain('(passed)');
    ui.unmount();
  });
});
