import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { EngineEvent, RunResult } from '../../source/engine/events';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { ResultScreen } from '../../source/ui/screens/result-screen';
import { reduceAll } from '../../source/ui/view-state';
import { frameShows, KEYS, sampleConfig, sampleReport, until } from './helpers';

const V1 = 'from m import f\n\ndef test_one():\n    assert f(1) == 2\n';
const V2 = 'from m import f\n\ndef test_one():\n    assert f(1) == 1\n\ndef test_zero():\n    assert f(0) == 0\n';
const events: EngineEvent[] = [
  {
    type: 'session.start',
    sessionId: 's1',
    target: 'm.py::f',
    mode: 'blank',
    strategy: 'tdd',
    model: 'm',
    modelLabel: 'gpt-test (OpenAI)',
    provider: 'openai',
    repo: '/r',
    config: sampleConfig(),
  },
  { type: 'thm.report', report: sampleReport() },
  { type: 'thm.approval', proposed: sampleReport().selected, chosen: [], by: 'strategy', T: 2 },
  { type: 'agent.phase', phase: 'tdd-setup', rounds: 15 },
  { type: 'model.request', round: 1, messages: 1, tools: [], newMessages: [] },
  { type: 'tests.submission', code: V1, ok: true, path: 'tests/test_by_agent.py', message: 'Wrote 1 test' },
  { type: 'agent.phase', phase: 'tdd', round: 1, rounds: 10 },
  { type: 'model.request', round: 2, messages: 3, tools: [], newMessages: [] },
  { type: 'submission', code: 'def f(x):\n    return x\n', ok: true, message: 'in place' },
  {
    type: 'tests.run',
    purpose: 'agent',
    report: '',
    outcomes: { 'tests/test_by_agent.py::test_one': 'failed' },
    passed: 0,
    total: 1,
  },
  { type: 'agent.phase', phase: 'tdd', round: 2, rounds: 10 },
  { type: 'model.request', round: 3, messages: 5, tools: [], newMessages: [] },
  { type: 'tests.submission', code: V2, ok: true, path: 'tests/test_by_agent.py', message: 'Wrote 2 tests' },
  {
    type: 'tests.run',
    purpose: 'agent',
    report: '',
    outcomes: { 'tests/test_by_agent.py::test_one': 'passed', 'tests/test_by_agent.py::test_zero': 'passed' },
    passed: 2,
    total: 2,
  },
];

describe('TDD sessions in the TUI', () => {
  it('folds the test file, its revisions per round (which side each touched) and its grid', () => {
    const view = reduceAll(events);
    expect(view.agent.tdd).toMatchObject({
      iteration: 2,
      iterations: 10,
      testFile: { path: 'tests/test_by_agent.py', code: V2, versions: 2 },
      outcomes: { 'tests/test_by_agent.py::test_one': 'passed', 'tests/test_by_agent.py::test_zero': 'passed' },
      revisions: [
        { iteration: 0, side: 'tests' },
        { iteration: 1, side: 'code' },
        { iteration: 2, side: 'tests' },
      ],
    });
    const revision = view.agent.items.filter((i) => i.kind === 'revision').at(-1);
    expect(revision).toMatchObject({
      side: 'tests',
      iteration: 2,
      number: 2,
      against: 'the previous tests',
      added: 4,
      removed: 1,
    });
    // Every line, the unchanged ones too: short code is shown whole.
    expect(revision?.kind === 'revision' && revision.diff.split('\n')).toEqual([
      ' from m import f',
      ' ',
      ' def test_one():',
      '-    assert f(1) == 2',
      '+    assert f(1) == 1',
      '+',
      '+def test_zero():',
      '+    assert f(0) == 0',
    ]);
  });

  it('shows the phase, the test file panel with its revision track, and the diff of the latest revision', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    for (const event of events) controller.dispatch(event);
    await frameShows(ui.lastFrame, 'co-refinement · test run 2/10 · model call 3');
    const frame = ui.lastFrame()!;
    expect(frame).toContain('co-refinement · test run 2/10 · model call 3');
    expect(frame).toContain('generated tests tests/test_by_agent.py · version 2 · 8 lines · revisions first:T 1:C 2:T');
    expect(frame).toContain('✓ tests/test_by_agent.py::test_zero');
    expect(frame).toContain('✎ tests, version 2 (test run 2 · against the previous tests · +4 −1)');
    ui.unmount();
  });

  it('v reads the whole test file, numbered and scrollable; Esc closes it', async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    const long = `${V2}${Array.from({ length: 40 }, (_, i) => `\ndef test_more_${i}():\n    assert f(${i}) == ${i}\n`).join('')}`;
    for (const event of events) controller.dispatch(event);
    controller.dispatch({
      type: 'tests.submission',
      code: long,
      ok: true,
      path: 'tests/test_by_agent.py',
      message: 'ok',
    });
    await frameShows(ui.lastFrame, 'generated tests tests/test_by_agent.py · version 3');
    ui.stdin.write('v');
    // Waits for the frames (a loaded machine renders late); `until` also lets the viewer's keys subscribe.
    const shows = (pattern: RegExp) =>
      until(
        () => pattern.test(ui.lastFrame() ?? ''),
        () => ui.lastFrame() ?? '',
      );
    await shows(/lines 1–\d+ of 127/);
    const frame = ui.lastFrame()!;
    expect(frame).toContain('tests/test_by_agent.py · version 3');
    expect(frame).toMatch(/ 1 from m import f/);
    ui.stdin.write('\u001B[F'); // End
    await shows(/127 {5}assert f\(39\) == 39/);
    ui.stdin.write(KEYS.escape);
    await shows(/generated tests tests\/test_by_agent\.py · version 3/);
    ui.unmount();
  });

  it("measuring the agent's tests shows as such, with a clock, not as 'preparing the tools'", async () => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />);
    for (const event of events) controller.dispatch(event);
    controller.dispatch({ type: 'agent.phase', phase: 'evaluate' });
    controller.dispatch({ type: 'agent.phase', phase: 'quality' });
    // (What it measures gives way to the mode in a 100-column header: the clock stays.)
    await frameShows(ui.lastFrame, /measuring the tests · 0 s/);
    expect(ui.lastFrame()).not.toContain('preparing the tools');
    // A second later (or more, on a loaded machine) the clock says so, though no event came.
    await frameShows(ui.lastFrame, /measuring the tests · [1-9]\d* s/);
    ui.unmount();
  });

  it('the result screen reports the quality of the generated tests and the failure taxonomy', () => {
    const result: RunResult = {
      type: 'result',
      sessionId: 's1',
      target: 'm.py::f',
      strategy: 'tdd',
      pass: false,
      stopReason: 'finished',
      selectedTests: { passed: 0, total: 0 },
      hiddenTests: { passed: 3, total: 4 },
      tests: {},
      usage: { inputTokens: 10, outputTokens: 5, modelCalls: 3, toolCalls: 4 },
      rounds: { pregen: 0, rrwAttempts: 0, total: 3, tddSetup: 1, tddIterations: 2 },
      costUsd: 0,
      costOfPass: null,
      wallMs: 1000,
      patch: '',
      model: 'm',
      testQuality: {
        file: 'tests/test_by_agent.py',
        tests: 2,
        subject: 'ground truth',
        groundTruth: { passed: 2, total: 2, failing: [] },
        coverage: { lines: { covered: 3, total: 4 }, branches: { covered: 1, total: 2 } },
        mutation: { killed: 6, survived: 3, timedOut: 1, total: 10, score: 0.7, baselinePassed: true },
        problems: [],
      },
      failure: { kind: 'matched', hints: [] },
    };
    // ink-testing-library's terminal is 100 columns wide: the line wraps (at spaces).
    const frame = render(<ResultScreen result={result} width={100} height={30} />)
      .lastFrame()!
      .replace(/\n/g, ' ');
    expect(frame).toContain(
      'generated tests (tests/test_by_agent.py, 2): 2/2 pass on the ground truth · lines 75%, branches 50% of the ground truth · mutation score 70% (7/10 killed)',
    );
    expect(frame).toContain("matched failure: its own tests pass, the repository's do not");
  });
});
