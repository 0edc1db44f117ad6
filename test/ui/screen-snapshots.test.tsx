import { join } from 'node:path';
import { stripVTControlCharacters } from 'node:util';
import { cleanup, render } from 'ink-testing-library';
import stringWidth from 'string-width';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import type { RunResult } from '../../source/engine/events';
import type { CatalogEntry } from '../../source/engine/session/catalog';
import { loadEvents } from '../../source/engine/session/event-log';
import type { LoadedSession } from '../../source/engine/session/load';
import { TuiController } from '../../source/ui/controller';
import { LiveApp } from '../../source/ui/live-app';
import { PlanScreen } from '../../source/ui/screens/plan-screen';
import { ReplayScreen } from '../../source/ui/screens/replay-screen';
import { SessionsScreen } from '../../source/ui/screens/sessions-screen';
import { StartScreen } from '../../source/ui/screens/start-screen';
import { ROOT } from '../helpers/fixtures';
import { agentOn, start } from './agent-on';
import { fakeDebugger } from './fake-debugger';
import { proposal } from './plan-fixture';
import { frameShows, resize, sampleReport, settle, typeKeys, until } from './helpers';

// Every screen's frame (the plan's too) at 80×24 and 120×36, kept in files under __snapshots__/screens/: a change
// to a screen shows up in review as a diff of these files (`npx vitest run -u` writes them anew).
// What varies from run to run is held still: the clock (Date only; timers run), the time zone,
// and colours (stripped: whether there are any depends on the terminal the tests run in).

const SIZES = [
  [80, 24],
  [120, 36],
] as const;

type Ui = ReturnType<typeof render>;
/** Draws a screen at a size and returns it once it shows what it is for. */
type Screen = (columns: number, rows: number) => Promise<Ui>;

const sized = (ui: Ui, columns: number, rows: number) => {
  resize(ui.stdout, columns, rows);
  return ui;
};

/** The last frame once drawing stopped: two looks, a settle apart, see the same frame. */
async function steadyFrame(ui: Ui): Promise<string> {
  let seen: string | undefined;
  await until(() => {
    const now = ui.lastFrame();
    const same = now === seen;
    seen = now;
    return same;
  });
  await settle();
  return stripVTControlCharacters(ui.lastFrame() ?? '');
}

const result = (): RunResult => ({
  type: 'result',
  sessionId: 's1',
  target: 'm.py::f',
  strategy: 'tenet',
  pass: true,
  stopReason: 'passed',
  selectedTests: { passed: 2, total: 2 },
  hiddenTests: { passed: 1, total: 2 },
  tests: { 't.py::test_direct': 'passed', 't.py::test_b': 'failed' },
  usage: { inputTokens: 1200, outputTokens: 80, modelCalls: 3, toolCalls: 4 },
  rounds: { pregen: 2, rrwAttempts: 5, total: 3 },
  costUsd: 0.0123,
  costOfPass: 0.0123,
  wallMs: 4200,
  patch: '--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n def f():\n-    pass\n+    return 1\n',
  model: 'm',
});

/** The agent's first round as the live screen shows it: text, a tool call with its output, a test run. */
function firstRound(controller: TuiController): void {
  controller.dispatch({
    type: 'model.response',
    content: 'Looking at the callers.',
    toolCalls: [{ id: 'c1', name: 'search_method', arguments: '{"method_name":"g"}' }],
    usage: { inputTokens: 1000, outputTokens: 50, cacheReadTokens: 800, cacheWriteTokens: 0 },
    costUsd: 0.01,
    durationMs: 5,
    model: 'm',
    stopReason: 'tool_calls',
  });
  controller.dispatch({ type: 'tool.call', id: 'c1', name: 'search_method', arguments: '{"method_name":"g"}' });
  controller.dispatch({
    type: 'tool.result',
    id: 'c1',
    name: 'search_method',
    ok: true,
    text: Array.from({ length: 12 }, (_, i) => `line ${i + 1}`).join('\n'),
    durationMs: 3,
  });
  controller.dispatch({
    type: 'tests.run',
    purpose: 'validate',
    report: '',
    outcomes: { 't.py::test_direct': 'passed', 't.py::test_a': 'failed' },
    passed: 1,
    total: 2,
  });
}

/** The live app, sized, in the agent's first round (THM's proposal approved). */
async function agentAt(columns: number, rows: number, step = false) {
  const controller = new TuiController({ autoApproveCommands: true, step });
  const ui = sized(await agentOn(controller), columns, rows);
  firstRound(controller);
  await frameShows(ui.lastFrame, '→ search_method');
  return { controller, ui };
}

/** A step pause before model call 2, a pdb session attached. */
async function stepPause(columns: number, rows: number) {
  const { controller, ui } = await agentAt(columns, rows, true);
  const session = fakeDebugger();
  controller.attach({ debugger: session, selectedTests: [] });
  void controller.beforeRequest({ round: 2, lastTurn: [] });
  await frameShows(ui.lastFrame, '⏸ step: before model call 2');
  return { controller, ui, session };
}

const entry = (id: string, more: Partial<CatalogEntry> = {}): CatalogEntry => ({
  id,
  created: '2026-12-04T10:00:00Z',
  updated: '2026-12-04T10:05:00Z',
  repo: '/r',
  target: 'invoicing/tax.py::tax_for',
  strategy: 'tenet',
  provider: 'openai',
  model: 'gpt-4o-mini',
  status: 'passed',
  pass: true,
  tokens: { input: 1000, output: 200 },
  costUsd: 0.0123,
  events: 40,
  logBytes: 100,
  ...more,
});

const demo = () => loadEvents(join(ROOT, 'sessions', 'demo', 'events.jsonl')).events;

const SCREENS: Record<string, Screen> = {
  start: async (columns, rows) => {
    const functions = [
      'click/formatting.py::wrap_text',
      'click/termui.py::style',
      'click/core.py::Option.flag_value@310',
      'click/core.py::Option.flag_value@318',
    ];
    const ui = sized(
      render(<StartScreen repo="/r" functions={functions} modelLabel="gpt-test (OpenAI)" onStart={() => undefined} />),
      columns,
      rows,
    );
    await frameShows(ui.lastFrame, '4 of 4 functions');
    return ui;
  },
  'thm-review': async (columns, rows) => {
    const controller = new TuiController({ autoApproveCommands: true });
    const ui = sized(
      render(<LiveApp controller={controller} finished={false} onQuit={() => undefined} />),
      columns,
      rows,
    );
    controller.dispatch(start);
    controller.dispatch({ type: 'thm.report', report: sampleReport() });
    void controller.approveTests(sampleReport());
    await frameShows(ui.lastFrame, 'a accept');
    return ui;
  },
  agent: async (columns, rows) => (await agentAt(columns, rows)).ui,
  'step-pause': async (columns, rows) => (await stepPause(columns, rows)).ui,
  'pdb-pane': async (columns, rows) => {
    const { controller, ui } = await stepPause(columns, rows);
    // The agent's last command in pdb, as the real session reports it: where it stopped, and the prompt.
    const stopped = '> /w/m.py(2)f()\n-> return n * 2\n(Pdb) ';
    controller.dispatch({ type: 'debugger.input', who: 'agent', input: 'c', mode: 'pdb' });
    controller.dispatch({ type: 'debugger.output', chunk: stopped });
    const entry = { who: 'agent', input: 'c', output: stopped, mode: 'pdb', startedAt: 0, durationMs: 0 } as const;
    controller.dispatch({ type: 'debugger.entry', entry: { ...entry, interrupted: false } });
    // The developer's command is typed, not sent.
    ui.stdin.write('t');
    await frameShows(ui.lastFrame, 'you have the debugger');
    await typeKeys(ui, 'p n');
    return ui;
  },
  result: async (columns, rows) => {
    const { controller, ui } = await agentAt(columns, rows);
    void controller.acceptPatch(result());
    await frameShows(ui.lastFrame, 'apply the patch');
    return ui;
  },
  sessions: async (columns, rows) => {
    const rows_ = [
      entry('20261204-100000-aaaaaa'),
      entry('20261204-110000-bbbbbb', { status: 'interrupted', pass: null, model: 'claude-sonnet-4-5', costUsd: 1.5 }),
      entry('20261204-120000-cccccc', {
        parent: { id: '20261204-100000-aaaaaa', at: 12 },
        status: 'failed',
        pass: false,
      }),
    ];
    const load = (id: string) => ({ id, source: `/s/${id}`, warnings: [], events: demo() }) as unknown as LoadedSession;
    const ui = sized(render(<SessionsScreen rows={rows_} load={load} />), columns, rows);
    await frameShows(ui.lastFrame, 'Sessions (3)');
    return ui;
  },
  plan: async (columns, rows) => {
    const ui = sized(
      render(<PlanScreen proposal={proposal()} width={columns} height={rows} onDecide={() => undefined} />),
      columns,
      rows,
    );
    await frameShows(ui.lastFrame, 'plan of 3 targets');
    return ui;
  },
  replay: async (columns, rows) => {
    const events = demo();
    const at = events.findIndex((e) => e.type === 'tests.run') + 1;
    const ui = sized(
      render(<ReplayScreen id="demo" events={events} onBack={() => undefined} at={at} autoplay={false} />),
      columns,
      rows,
    );
    await frameShows(ui.lastFrame, `event ${at}/${events.length} · ⏸`);
    return ui;
  },
};

const zone = process.env.TZ;
beforeAll(() => {
  process.env.TZ = 'UTC';
  vi.useFakeTimers({ toFake: ['Date'], now: new Date('2026-12-04T12:00:00Z') });
});
afterAll(() => {
  vi.useRealTimers();
  if (zone === undefined) delete process.env.TZ;
  else process.env.TZ = zone;
});
afterEach(cleanup);

describe('every screen, at 80×24 and 120×36', () => {
  for (const [name, draw] of Object.entries(SCREENS))
    for (const [columns, rows] of SIZES)
      it(`${name} at ${columns}×${rows}`, async () => {
        const frame = await steadyFrame(await draw(columns, rows));
        // Never wider than the terminal: a snapshot that wraps would hide a screen that overflows.
        for (const row of frame.split('\n')) expect(stringWidth(row)).toBeLessThanOrEqual(columns);
        await expect(frame).toMatchFileSnapshot(`__snapshots__/screens/${name}-${columns}x${rows}.txt`);
      });
});
