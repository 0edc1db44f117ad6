import { DEVELOPER_INTERRUPT } from '../../engine/protocol/debugger';
import { expandTabs } from '../components/line-editor';
import { push } from './items';
import type { DebuggerLine, ViewHandlers, ViewState } from './types';

const DEBUGGER_LINES = 400;
const PDB_PROMPT = '(Pdb) ';

/** Lines added to the pane, which keeps the last DEBUGGER_LINES. */
export function debuggerText(state: ViewState, lines: DebuggerLine[]): void {
  state.debugger = { ...state.debugger, lines: [...state.debugger.lines, ...lines].slice(-DEBUGGER_LINES) };
}

/**
 * The program's output as lines, whatever its chunks: a pipe gives what the program wrote when it
 * wrote it, and an unbuffered Python writes a print's text and its newline apart, so a chunk may
 * end mid-line or be a newline alone. Each chunk goes on with the line the last one left open.
 */
function debuggerOutput(state: ViewState, chunk: string): void {
  const lines = state.debugger.lines;
  const last = lines.at(-1);
  const goesOn = last?.who === 'output' && last.open;
  const parts = chunk.replace(/\r/g, '').split('\n');
  parts[0] = (goesOn ? last.text : '') + parts[0];
  const ended = parts.at(-1) === '';
  if (ended) parts.pop();
  // Tabs as spaces: the pane counts columns, and pdb's `l` output is full of them.
  const added: DebuggerLine[] = parts.map((text, i) => ({
    who: 'output',
    text: expandTabs(text),
    ...(!ended && i === parts.length - 1 ? { open: true as const } : {}),
  }));
  state.debugger = {
    ...state.debugger,
    lines: [...(goesOn ? lines.slice(0, -1) : lines), ...added].slice(-DEBUGGER_LINES),
  };
}

/**
 * What answers the next line, read from an exchange's output (sessions saved before entries said
 * it themselves): pdb when its prompt ends the output, before the notes tenet adds under it (that
 * the developer interrupted the command: pdb is still there, after `*** KeyboardInterrupt`).
 */
export function modeAfter(output: string): 'pdb' | 'shell' {
  const shown = output.replace(/(\n\[tenet: [^\n]*\])+\s*$/, '').trimEnd();
  return shown.endsWith('(Pdb)') ? 'pdb' : 'shell';
}

/** The debugger pane's events: what was typed in the session, what it printed, and each finished exchange. */
export const DEBUGGER_EVENTS = {
  'debugger.input': (event, state, now) => {
    state.debugger.mode = event.mode;
    // The prompt pdb printed is the one this line answers: one `(Pdb) p x` row, not `(Pdb) ` and then `(Pdb) p x`.
    const last = state.debugger.lines.at(-1);
    if (last?.who === 'output' && last.open && last.text.endsWith(PDB_PROMPT)) {
      const before = last.text.slice(0, -PDB_PROMPT.length);
      state.debugger = {
        ...state.debugger,
        lines: [...state.debugger.lines.slice(0, -1), ...(before ? [{ who: 'output' as const, text: before }] : [])],
      };
    }
    debuggerText(state, [{ who: event.who, text: `${event.mode === 'pdb' ? PDB_PROMPT : '$ '}${event.input}` }]);
    state.debugger.running = { input: event.input, since: now };
  },
  'debugger.output': (event, state) => {
    debuggerOutput(state, event.chunk);
  },
  'debugger.entry': (event, state) => {
    state.debugger.mode = event.entry.then ?? modeAfter(event.entry.output);
    state.debugger.running = undefined;
    if (event.entry.who === 'human')
      push(state, {
        kind: 'note',
        text: `You typed in the debugger: ${event.entry.input}${event.entry.output.includes(DEVELOPER_INTERRUPT) ? ' (and stopped it with Ctrl+C)' : ''}`,
        tone: 'human',
      });
    else if (event.entry.who === 'tenet')
      push(state, { kind: 'note', text: `tenet started pdb for your takeover: ${event.entry.input}`, tone: 'info' });
  },
} satisfies Partial<ViewHandlers>;
