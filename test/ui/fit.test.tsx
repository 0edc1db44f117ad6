import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { EngineEvent, RunResult } from '../../source/engine/events';
import { allocate, cap, wrapText } from '../../source/ui/components/lines';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { helpLines } from '../../source/ui/components/help-overlay';
import { DebuggerPane } from '../../source/ui/screens/debugger-pane';
import { fitHeaderLine } from '../../source/ui/screens/agent-header';
import { initialView } from '../../source/ui/view-state';
import { ReplayScreen } from '../../source/ui/screens/replay-screen';
import { frameShows, KEYS, largeReport, resize, rowsOf, sampleConfig, sampleReport, until } from './helpers';

/**
 * Ink clears the whole terminal, and its scrollback with the <Static> history, whenever a live
 * frame is as tall as the window: every frame of every screen must stay shorter. ink-testing-library
 * writes the <Static> output and the live frame together; the live part starts at the banner.
 */
const BANNER = '⚠ scripted demo model';
const liveRows = (frame: string) => rowsOf(frame.slice(frame.lastIndexOf(BANNER)));
const SIZES = [
  [60, 15],
  [100, 30],
] as const;

const start: EngineEvent = {
  type: 'session.start',
  sessionId: 's1',
  target: 'm.py::f',
  mode: 'blank',
  strategy: 'tenet',
  model: 'm',
  modelLabel: 'gpt-test (OpenAI)',
  provider: 'openai',
  repo: '/r',
  config: sampleConfig(),
};
const outcomes = (n: number, failing: number) =>
  Object.fromEntries(
    Array.from({ length: n }, (_, i) => [`tests/test_mod_${i}.py::test_case_${i}`, i < failing ? 'failed' : 'passed']),
  );

function app(width: number, height: number) {
  const controller = new TuiController({ autoApproveCommands: false });
  const ui = render(
    <LiveApp
      controller={controller}
      finished={false}
      onQuit={() => undefined}
      banner={`${BANNER}: replays a script`}
    />,
  );
  resize(ui.stdout, width, height);
  return { controller, ui };
}

describe('the layout helpers', () => {
  it('wrap at spaces, cap lists with a count, and share rows by priority', () => {
    expect(wrapText('a → bb → ccc', 6)).toEqual(['a → bb', '→ ccc']);
    expect(wrapText('abcdefgh', 3)).toEqual(['abc', 'def', 'gh']);
    expect(cap([1, 2, 3, 4], 3, (n) => -n)).toEqual([1, 2, -2]);
    expect(cap([1, 2], 3, (n) => -n)).toEqual([1, 2]);
    // The prompt needs 5, the list at least 3 (wants 10), the pane at least 4: it gets nothing.
    expect(
      allocate(10, [
        { min: 5, want: 5 },
        { min: 3, want: 10 },
        { min: 4, want: 6 },
      ]),
    ).toEqual([5, 5, 0]);
  });
});

describe('every screen fits the terminal', () => {
  it.each(SIZES)(
    'THM with a dozen clusters and wrapped call chains, at %i×%i: the summary and the selection stay on screen',
    async (width, height) => {
      const { controller, ui } = app(width, height);
      controller.dispatch(start);
      controller.dispatch({ type: 'thm.report', report: largeReport() });
      void controller.approveTests(largeReport());
      await frameShows(ui.lastFrame, 'cluster 1/12');
      // Cluster 0 is open (two tests): the second cluster is the fourth row. Each key waits for its frame.
      const keys: [string, string | RegExp][] = [
        [KEYS.down, 'test 1/2 of its cluster'],
        [KEYS.down, 'test 2/2 of its cluster'],
        [KEYS.down, 'cluster 2/12'],
        [KEYS.right, /❯ ▾ .*_installed_1 /],
        [KEYS.down, 'test 1/2 of its cluster'],
      ];
      for (const [key, drawn] of keys) {
        ui.stdin.write(key);
        await frameShows(ui.lastFrame, drawn);
      }
      const rows = rowsOf(ui.lastFrame());
      expect(rows.length).toBeLessThan(height);
      expect(rows[1]).toMatch(/^THM 4000 tests/);
      expect(rows).toContain('Selected 3 (T=3)');
      expect(ui.lastFrame()).toMatch(/❯ +★ .*test_has_path_0 depth 4/); // the cursor on a test of the second cluster
      ui.unmount();
    },
  );

  it.each(SIZES)(
    'the agent with long outputs, many tests, the debugger and a long command, at %i×%i: every frame is shorter than the terminal',
    async (width, height) => {
      const { controller, ui } = app(width, height);
      controller.dispatch(start);
      controller.dispatch({ type: 'thm.report', report: sampleReport() });
      controller.dispatch({
        type: 'thm.approval',
        proposed: sampleReport().selected,
        chosen: sampleReport().selected,
        by: 'auto',
        T: 2,
      });
      controller.dispatch({
        type: 'agent.phase',
        phase: 'rrw',
        attempt: 1,
        attempts: 5,
        stage: 'failure-identification',
      });
      for (let i = 0; i < 3; i++) {
        controller.dispatch({ type: 'tool.call', id: `c${i}`, name: 'search_code', arguments: '{"code":"has_path"}' });
        controller.dispatch({
          type: 'tool.result',
          id: `c${i}`,
          name: 'search_code',
          ok: true,
          text: Array.from({ length: 40 }, (_, j) => `match ${j}: ${'x'.repeat(120)}`).join('\n'),
          durationMs: 1,
        });
      }
      controller.dispatch({
        type: 'tests.run',
        purpose: 'validate',
        report: '',
        outcomes: outcomes(20, 4),
        passed: 16,
        total: 20,
      });
      for (let i = 0; i < 30; i++) controller.dispatch({ type: 'debugger.output', chunk: `(Pdb) line ${i}\n` });
      controller.dispatch({ type: 'model.request', round: 4, messages: 9, tools: [], newMessages: [] });
      controller.dispatch({
        type: 'model.delta',
        text: Array.from({ length: 30 }, (_, i) => `thinking ${i} ${'y'.repeat(90)}`).join('\n'),
      });
      await frameShows(ui.lastFrame, 'attempt 1/5');
      void controller.approveCommand(`python -c "${'print(1); '.repeat(40)}"`);
      await frameShows(ui.lastFrame, 'The agent wants to run a shell command:');
      ui.stdin.write('e'); // the latest output expanded still fits
      await frameShows(ui.lastFrame, 'Why not?'); // the question has the keys: e opens its reason field
      const frames = ui.frames.filter((f) => f.includes(BANNER)).map(liveRows);
      expect(frames.length).toBeGreaterThan(2);
      for (const rows of frames) expect(rows.length).toBeLessThan(height);
      const last = ui.lastFrame()!.slice(ui.lastFrame()!.lastIndexOf(BANNER));
      // (At 60 columns the header gives up tenet's name and the phase's longer words, not the round.)
      expect(last).toMatch(/m\.py::f.* · (refinement )?attempt 1\/5 · failure identification · (model )?call 4/);
      expect(last).toContain('The agent wants to run a shell command:');
      expect(last).toMatch(/0 tokens in/);
      ui.unmount();
    },
  );

  it.each(SIZES)(
    'the result with 30 tests and a long patch, at %i×%i: failing tests named, the diff scrolls',
    async (width, height) => {
      const { controller, ui } = app(width, height);
      controller.dispatch(start);
      controller.dispatch({ type: 'thm.report', report: sampleReport() });
      controller.dispatch({
        type: 'thm.approval',
        proposed: ['tests/test_mod_0.py::test_case_0'],
        chosen: ['tests/test_mod_0.py::test_case_0'],
        by: 'auto',
        T: 1,
      });
      const patch = [
        '--- a/m.py',
        '+++ b/m.py',
        '@@ -1,60 +1,60 @@',
        ...Array.from({ length: 60 }, (_, i) => `+    line_${i} = ${i}`),
      ].join('\n');
      const result: RunResult = {
        type: 'result',
        sessionId: 's1',
        target: 'm.py::f',
        strategy: 'tenet',
        pass: false,
        stopReason: 'budget',
        selectedTests: { passed: 0, total: 1 },
        hiddenTests: { passed: 25, total: 29 },
        tests: outcomes(30, 5),
        usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 1 },
        rounds: { pregen: 1, rrwAttempts: 0, total: 1 },
        costUsd: 0,
        costOfPass: null,
        wallMs: 1,
        patch,
        model: 'm',
      };
      void controller.acceptPatch(result);
      await frameShows(ui.lastFrame, /lines 1–\d+ of 63/);
      let frame = ui.lastFrame()!;
      expect(rowsOf(frame).length).toBeLessThan(height);
      expect(frame).toContain('tests: 25/30 passed · 1 selected, 29 hidden');
      expect(frame).toMatch(/✗ tests\/test_mod_0\.py::test_case_0 failed selected/);
      expect(frame).toMatch(/lines 1–\d+ of 63/);
      ui.stdin.write('\u001B[6~'); // PgDn
      await frameShows(ui.lastFrame, /lines (?!1–)\d+–\d+ of 63/);
      frame = ui.lastFrame()!;
      expect(frame).not.toMatch(/lines 1–/);
      ui.stdin.write('\u001B[F'); // End
      await frameShows(ui.lastFrame, /lines \d+–63 of 63/);
      expect(ui.lastFrame()).toContain('+    line_59 = 59');
      ui.stdin.write('t'); // every test, marked, failing first, with a cursor
      await frameShows(ui.lastFrame, /test 1\/30 · Enter shows how it failed/);
      expect(ui.lastFrame()).toMatch(/❯ ✗ tests\/test_mod_0\.py::test_case_0 failed selected/);
      // The arrows move in the tests now: the footer does not offer to scroll a diff no longer shown.
      expect(ui.lastFrame()).not.toContain('scroll the diff');
      expect(rowsOf(ui.lastFrame()).length).toBeLessThan(height);
      ui.unmount();
    },
  );

  it('a replay of a long TDD session keeps its status line at 100×30', async () => {
    const events: EngineEvent[] = [
      start,
      { type: 'thm.report', report: sampleReport() },
      { type: 'thm.approval', proposed: [], chosen: [], by: 'strategy', T: 2 },
      { type: 'agent.phase', phase: 'tdd-setup', rounds: 15 },
    ];
    let code = 'def test_one():\n    assert True\n';
    for (let round = 1; round <= 6; round++) {
      code += `\ndef test_${round}():\n    assert f(${round}) == ${round}\n`;
      events.push(
        { type: 'agent.phase', phase: 'tdd', round, rounds: 10 },
        { type: 'model.request', round, messages: 1, tools: [], newMessages: [] },
        {
          type: 'model.response',
          content: 'Revising the tests.\n'.repeat(8),
          toolCalls: [],
          usage: { inputTokens: 10, outputTokens: 5 },
          costUsd: 0,
          durationMs: 1,
          model: 'm',
          stopReason: 'tool_calls',
        },
        { type: 'tests.submission', code, ok: true, path: 'tests/test_by_agent.py', message: 'ok' },
        {
          type: 'tests.run',
          purpose: 'agent',
          report: '',
          outcomes: outcomes(round + 8, 2),
          passed: round + 6,
          total: round + 8,
        },
      );
    }
    const ui = render(<ReplayScreen id="tdd" events={events} onBack={() => undefined} autoplay={false} />);
    resize(ui.stdout, 100, 30);
    await frameShows(ui.lastFrame, 'replay tdd · event 0/');
    for (const jump of ['r', 'r', 't', 'r', 't', 't', 't', 't']) {
      const before = rowsOf(ui.lastFrame())[0];
      ui.stdin.write(jump); // each jump moves on: the status line's event changes
      await until(
        () => rowsOf(ui.lastFrame())[0] !== before,
        () => ui.lastFrame() ?? '',
      );
      const rows = rowsOf(ui.lastFrame());
      expect(rows[0]).toMatch(/^ replay tdd · event \d+/);
      expect(rows.length).toBeLessThan(30);
    }
    expect(ui.lastFrame()).toContain('generated tests tests/test_by_agent.py'); // the TDD panel, in replay too
    ui.unmount();
  });

  it('below 40×10 a notice asks for more room instead of a broken screen, wrapped so none of it is cut', async () => {
    const { controller, ui } = app(38, 9);
    controller.dispatch(start);
    await frameShows(ui.lastFrame, '38×9: enlarge it');
    expect(rowsOf(ui.lastFrame())).toEqual(['tenet needs 40×10; this terminal is', '38×9: enlarge it']);
    const before = ui.lastFrame();
    resize(ui.stdout, 20, 3); // fewer rows than the notice wants: it stays shorter than the terminal
    await until(
      () => ui.lastFrame() !== before,
      () => ui.lastFrame() ?? '',
    );
    expect(rowsOf(ui.lastFrame())).toEqual(['tenet needs 40×10;', 'this terminal is']);
    ui.unmount();
  });
});

describe('small terminals', () => {
  it('the help overlay sizes its key column from the longest key: a space always separates key and description', () => {
    const rows = helpLines(['agent', 'field'], 56).map((line) =>
      Array.isArray(line) ? line.map((part) => part.text).join('') : line.text,
    );
    expect(rows.find((row) => row.startsWith('← → Ctrl+A Ctrl+E'))).toMatch(
      /^← → Ctrl\+A Ctrl\+E {2,}move in the line/,
    );
    expect(rows.find((row) => row.startsWith('t '))).toMatch(/^t {18}take over/);
  });

  it("the agent's header keeps the phase and its round at 80 columns and less: tenet's name, longer words, then the target's middle give way", async () => {
    const { controller, ui } = app(80, 24);
    controller.dispatch({ ...start, target: 'invoicing/tax.py::tax_for' } as EngineEvent);
    controller.dispatch({ type: 'thm.report', report: sampleReport() });
    controller.dispatch({
      type: 'thm.approval',
      proposed: sampleReport().selected,
      chosen: sampleReport().selected,
      by: 'auto',
      T: 2,
    });
    controller.dispatch({
      type: 'agent.phase',
      phase: 'rrw',
      attempt: 1,
      attempts: 5,
      stage: 'failure-identification',
    });
    controller.dispatch({ type: 'model.request', round: 2, messages: 3, tools: [], newMessages: [] });
    await frameShows(ui.lastFrame, 'call 2');
    const header = rowsOf(ui.lastFrame()).find((row) => row.includes('call 2'))!;
    expect(header.length).toBeLessThanOrEqual(80);
    expect(header).toMatch(/^invoic.*tax_for \(benchmark\) · attempt 1\/5 · failure identification · call 2$/);
    ui.unmount();
    // Wide enough, all of it; the order in which the rest gives way.
    const phase = {
      long: 'refinement attempt 1/5 · failure identification · round 2',
      short: 'attempt 1/5 · failure identification · round 2',
    };
    expect(fitHeaderLine('invoicing/tax.py::tax_for', '(benchmark)', phase, 120)).toEqual({
      name: true,
      target: 'invoicing/tax.py::tax_for',
      mode: '(benchmark)',
      phase: phase.long,
    });
    expect(fitHeaderLine('invoicing/tax.py::tax_for', '(benchmark)', phase, 98)).toEqual({
      name: false,
      target: 'invoicing/tax.py::tax_for',
      mode: '(benchmark)',
      phase: phase.long,
    });
    expect(fitHeaderLine('invoicing/tax.py::tax_for', '', phase, 80)).toEqual({
      name: false,
      target: 'invoicing/tax.py::tax_for',
      mode: '',
      phase: phase.short,
    });
    expect(fitHeaderLine('invoicing/tax.py::tax_for', '(benchmark)', phase, 60)).toMatchObject({
      name: false,
      mode: '',
      phase: phase.short,
    });
  });

  it('at 60 columns the takeover title still says that Esc hands back', () => {
    const view = {
      ...initialView(),
      debugger: { ...initialView().debugger, mode: 'pdb' as const, lines: [{ who: 'output' as const, text: '(Pdb)' }] },
    };
    const ui = render(
      <DebuggerPane
        view={view}
        takeover="active"
        width={60}
        rows={6}
        onSend={() => undefined}
        onHandBack={() => undefined}
      />,
    );
    expect(rowsOf(ui.lastFrame())[1]).toContain('Esc hands back');
    ui.unmount();
  });
});
