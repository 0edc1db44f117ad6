import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { DEVELOPER_INTERRUPT } from '../../source/engine/protocol/debugger';
import { itemLines } from '../../source/ui/components/transcript-item';
import { columns, lineText } from '../../source/ui/components/lines';
import { DebuggerPane, paneTitle, runningText } from '../../source/ui/screens/debugger-pane';
import { initialView, reduceView } from '../../source/ui/view-state';
import { RESUMED_DEBUGGER } from '../../source/ui/view/session-events';
import type { ViewState } from '../../source/ui/view/types';
import { frameShows } from './helpers';

// Issue 37.9: the pdb pane showed `(Pdb)` twice after each command, nothing said a command still
// ran (`sleep(60)` looked idle), and the developer's Ctrl+C was not in the transcript.

const fold = (events: EngineEvent[], now: number) =>
  events.reduce<ViewState>((view, event) => reduceView(view, event, now), initialView());
const pane = (view: ViewState) => (
  <DebuggerPane
    view={view}
    takeover="active"
    width={100}
    rows={10}
    onSend={() => undefined}
    onHandBack={() => undefined}
  />
);

describe('the debugger pane', () => {
  it('says a command is running, and for how long, until its prompt comes back', async () => {
    const started = Date.now() - 12_000;
    const running = fold(
      [
        { type: 'debugger.output', chunk: '(Pdb) ' },
        { type: 'debugger.input', who: 'human', input: 'import time; time.sleep(60)', mode: 'pdb' },
      ],
      started,
    );
    expect(runningText(running.debugger.running, started + 12_400)).toBe('running import time; time.sleep(60) · 12 s');
    const ui = render(pane(running));
    await frameShows(ui.lastFrame, '⧗ running import time; time.sleep(60) · 12 s · Ctrl+C interrupts it');
    const entry = {
      who: 'human' as const,
      input: 'import time; time.sleep(60)',
      output: '',
      mode: 'pdb' as const,
      startedAt: 0,
      durationMs: 12_000,
      interrupted: false,
    };
    const done = reduceView(reduceView(running, { type: 'debugger.output', chunk: '(Pdb) ' }), {
      type: 'debugger.entry',
      entry,
    });
    ui.rerender(pane(done));
    await frameShows(ui.lastFrame, '(Pdb) import time; time.sleep(60)');
    expect(ui.lastFrame()).not.toContain('running');
    ui.unmount();
  });

  it("the developer's Ctrl+C is in the transcript, with the command it stopped", () => {
    const entry = {
      who: 'human' as const,
      input: 'c',
      output: `--KeyboardInterrupt--\n${DEVELOPER_INTERRUPT}`,
      mode: 'pdb' as const,
      startedAt: 0,
      durationMs: 3000,
      interrupted: false,
    };
    const view = reduceView(initialView(), { type: 'debugger.entry', entry });
    expect(lineText(itemLines(view.agent.items.at(-1)!, 100)[0]!)).toContain(
      'You typed in the debugger: c (and stopped it with Ctrl+C)',
    );
  });
});

describe('the debugger pane waiting for the developer’s line', () => {
  it('shows pdb’s waiting prompt once, on the line being typed, not as (Pdb) on a row of its own above it', async () => {
    const view = fold(
      [
        { type: 'debugger.input', who: 'agent', input: 'c', mode: 'pdb' },
        { type: 'debugger.output', chunk: '> /w/m.py(2)f()\n-> return n * 2\n(Pdb) ' },
        {
          type: 'debugger.entry',
          entry: {
            who: 'agent',
            input: 'c',
            output: '(Pdb) ',
            mode: 'pdb',
            startedAt: 0,
            durationMs: 0,
            interrupted: false,
          },
        },
      ],
      Date.now(),
    );
    const ui = render(pane(view));
    ui.stdin.write('p n');
    await frameShows(ui.lastFrame, '(Pdb) p n');
    const rows = ui
      .lastFrame()!
      .split('\n')
      .map((row) => row.replace(/[│╭╮╰╯─]/g, '').trim());
    expect(rows.filter((row) => row.startsWith('(Pdb)'))).toEqual(['(Pdb) c', '(Pdb) p n']);
    expect(rows).toContain('-> return n * 2');
    ui.unmount();
  });
});

describe('the debugger pane’s title', () => {
  it('names every key of a takeover in shorter words as the pane narrows, never cut (80 columns cut `Ctrl+C i…`)', () => {
    expect(paneTitle('pdb', true, 116)).toBe(
      'debugger (pdb) · yours: Esc hands back, Enter sends, ↑ ↓ earlier lines, Ctrl+C interrupts the program',
    );
    // The pane's inner width at 80 columns.
    expect(paneTitle('pdb', true, 76)).toBe('debugger (pdb) · yours: Esc hands back (the keys are below)');
    for (const width of [30, 50, 76, 90, 116])
      expect(columns(paneTitle('pdb', true, width))).toBeLessThanOrEqual(Math.max(width, 22));
    expect(paneTitle('shell', false, 76)).toBe('debugger (shell)');
  });
});

describe('the debugger pane after a resume', () => {
  it('marks where the stopped session’s debugger ended: what is above it is gone', () => {
    const view = fold(
      [
        { type: 'debugger.output', chunk: '(Pdb) ' },
        { type: 'debugger.input', who: 'agent', input: 'c', mode: 'pdb' },
        { type: 'session.resumed', fromSeq: 3, position: 'rrw' },
      ],
      Date.now(),
    );
    expect(view.debugger.lines.map((l) => l.text)).toEqual(['(Pdb) c', RESUMED_DEBUGGER]);
    expect(view.debugger.running).toBeUndefined();
    expect(view.debugger.mode).toBeNull();
  });
});
