import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import type { Writer } from '../../source/engine/protocol/debugger';
import { markdownTranscript } from '../../source/engine/session/transcript';
import type { DebuggerSession } from '../../source/engine/tools/debugger/session';
import { takeoverTest, TuiController } from '../../source/ui/controller';
import { typedLines } from '../../source/ui/screens/debugger-pane';
import { initialView, reduceView } from '../../source/ui/view-state';

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
    const session = {
      running: false,
      transcript: [],
      run: async (line: string) => (sent.push(line), ''),
    } as unknown as DebuggerSession;
    const controller = new TuiController({ autoApproveCommands: true });
    controller.attach({ debugger: session, selectedTests: [A, B] });
    controller.dispatch({
      type: 'agent.phase',
      phase: 'rrw',
      attempt: 1,
      attempts: 5,
      stage: 'failure-identification',
    });
    controller.dispatch({
      type: 'tests.run',
      purpose: 'validate',
      report: '',
      outcomes: { [A]: 'passed', [B]: 'failed' },
      passed: 1,
      total: 2,
    });
    controller.requestTakeover();
    expect(sent).toEqual([`python -m pytest ${B} --trace -q -p no:cacheprovider`]);
  });

  it('the command that starts it is tenet’s, not the developer’s: in the session, the transcript, the pane and its ↑ history', () => {
    const sent: [string, Writer][] = [];
    const session = {
      running: false,
      transcript: [],
      run: async (line: string, who: Writer) => (sent.push([line, who]), ''),
    } as unknown as DebuggerSession;
    const controller = new TuiController({ autoApproveCommands: true });
    controller.attach({ debugger: session, selectedTests: [A] });
    controller.dispatch({ type: 'agent.phase', phase: 'pregen' });
    controller.requestTakeover();
    const command = `python -m pytest ${A} --trace -q -p no:cacheprovider`;
    expect(sent).toEqual([[command, 'tenet']]);

    // What the session records of it, as the engine forwards the session's events.
    const events: EngineEvent[] = [
      { type: 'debugger.input', who: 'tenet', input: command, mode: 'shell' },
      {
        type: 'debugger.entry',
        entry: {
          who: 'tenet',
          input: command,
          output: '> /w/tests/test_a.py(2)test_one()\n(Pdb) ',
          mode: 'shell',
          startedAt: 0,
          durationMs: 9,
          interrupted: false,
        },
      },
      { type: 'debugger.input', who: 'human', input: 'p 1', mode: 'pdb' },
      {
        type: 'debugger.entry',
        entry: {
          who: 'human',
          input: 'p 1',
          output: '1',
          mode: 'pdb',
          startedAt: 0,
          durationMs: 1,
          interrupted: false,
        },
      },
    ];
    const view = events.reduce(reduceView, initialView());
    const notes = view.agent.items.flatMap((item) => (item.kind === 'note' ? [item.text] : []));
    expect(notes).toEqual([`tenet started pdb for your takeover: ${command}`, 'You typed in the debugger: p 1']);
    expect(view.debugger.lines.filter((l) => l.who !== 'output').map((l) => l.who)).toEqual(['tenet', 'human']);
    expect(typedLines(view.debugger.lines)).toEqual(['p 1']); // ↑ brings back the developer's own lines only
    const shown = markdownTranscript('s1', events);
    expect(shown).toContain(`_Debugger, started by tenet for the developer's takeover (shell):_ \`${command}\``);
    expect(shown).toContain('_Debugger, typed by the developer (pdb):_ `p 1`');
  });
});
