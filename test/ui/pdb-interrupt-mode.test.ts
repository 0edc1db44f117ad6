import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { DEVELOPER_INTERRUPT } from '../../source/engine/protocol/debugger';
import { reduceAll } from '../../source/ui/view-state';
import { approvedStart } from './helpers';

// Issue 46.5: Ctrl+C in the pdb pane during a long command. pdb answers `*** KeyboardInterrupt`
// and its prompt again, and tenet adds a note under the output that the developer interrupted it:
// the pane read the mode from the output's last line, the note's, and switched its prompt to `$`.

const interrupted = (then?: 'pdb' | 'shell'): EngineEvent => ({
  type: 'debugger.entry',
  entry: {
    who: 'human',
    input: 'p sleep(60)',
    output: `*** KeyboardInterrupt\n(Pdb) \n${DEVELOPER_INTERRUPT}`,
    mode: 'pdb',
    ...(then ? { then } : {}),
    startedAt: 0,
    durationMs: 5000,
    interrupted: false,
  },
});

describe('the pdb pane after Ctrl+C interrupted a command', () => {
  it('stays in pdb, as the session says (then)', () => {
    expect(reduceAll([...approvedStart(), interrupted('pdb')]).debugger.mode).toBe('pdb');
  });
  it('stays in pdb for a session saved before entries said it: the prompt is read above tenet’s note', () => {
    expect(reduceAll([...approvedStart(), interrupted()]).debugger.mode).toBe('pdb');
  });
  it('is the shell when the session says so', () => {
    expect(reduceAll([...approvedStart(), interrupted('shell')]).debugger.mode).toBe('shell');
  });
});
