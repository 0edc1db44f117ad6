import { Box, Text } from 'ink';
import { useMemo } from 'react';
import { columns, shortEnd } from '../components/lines';
import { useNow } from '../components/use-now';
import { FieldText, useLineEditor } from '../components/text-field';
import type { Takeover } from '../prompt';
import type { DebuggerLine, ViewState } from '../view/types';

/** Each writer's colour: the developer's lines green, the agent's magenta, tenet's own (the pdb it starts for a takeover) cyan. */
const COLOURS: Record<DebuggerLine['who'], string | undefined> = {
  human: 'green',
  agent: 'magenta',
  tenet: 'cyan',
  output: undefined,
};

/** The lines the developer typed in this session, oldest first: the pdb line's ↑ ↓ history. */
export function typedLines(lines: readonly DebuggerLine[]): string[] {
  return lines.filter((line) => line.who === 'human').map((line) => line.text.replace(/^(\(Pdb\) |\$ )/, ''));
}

export interface DebuggerPaneProps {
  view: ViewState;
  takeover: Takeover;
  width: number;
  /** Rows of the pane, its border and title included. */
  rows: number;
  /** A line for the live session; a pasted block comes as one call per line, in order. */
  onSend(line: string): void;
  /** Esc on an empty line: the session goes back to the agent. */
  onHandBack(): void;
  /** `recorded` in a replay: how long a command has run is the recording's time. */
  clock?: 'wall' | 'recorded';
}

/** `running p sleep(60) · 12 s`: a command whose prompt has not come back yet (empty when none runs). */
export function runningText(running: ViewState['debugger']['running'], now: number): string {
  if (!running) return '';
  return `running ${running.input} · ${Math.max(0, Math.floor((now - running.since) / 1000))} s`;
}

/** The takeover's keys in the title, in shorter words as the pane narrows (the footer has them all): never a key cut. */
const TITLE_KEYS = [
  'yours: Esc hands back, Enter sends, ↑ ↓ earlier lines, Ctrl+C interrupts the program',
  'yours: Esc hands back · Enter sends · ↑ ↓ history · Ctrl+C interrupts',
  'yours: Esc hands back (the keys are below)',
  'yours: Esc hands back',
  'yours',
];

/** `debugger (pdb) · yours: …`: the mode, and in a takeover the keys in as many words as fit in `width` columns. */
export function paneTitle(mode: string | null | undefined, active: boolean, width: number): string {
  const name = `debugger${mode ? ` (${mode})` : ''}`;
  if (!active) return name;
  const keys = TITLE_KEYS.find((k) => columns(`${name} · ${k}`) <= width) ?? TITLE_KEYS.at(-1)!;
  return `${name} · ${keys}`;
}

/**
 * The live debugger session. In a takeover the last row is the developer's line: it takes pastes
 * (a block of several lines is sent line by line, each waiting for the prompt), ↑ ↓ bring back
 * earlier lines, Ctrl+A/E/U/W edit; Esc clears the line, and on an empty line hands back.
 */
export function DebuggerPane({ view, takeover, width, rows, onSend, onHandBack, clock = 'wall' }: DebuggerPaneProps) {
  const running = view.debugger.running;
  const now = useNow(clock === 'wall' && !!running);
  const busy = runningText(running, clock === 'wall' ? now : view.at);
  const history = useMemo(() => typedLines(view.debugger.lines), [view.debugger.lines]);
  const active = takeover === 'active';
  const line = useLineEditor({
    active,
    newlines: 'lines',
    history,
    onSubmit: onSend,
    intercept: (_input, key, empty) => {
      if (!key.escape) return false;
      if (empty) onHandBack();
      else line.clear();
      return true;
    },
  });
  const prompt = view.debugger.mode === 'pdb' ? '(Pdb) ' : '$ ';
  // pdb's prompt, printed and waiting (an open line that ends in it), is the prompt of the
  // developer's line: shown once, there, not as `(Pdb)` on a row of its own above `(Pdb) p x`.
  const lines = view.debugger.lines;
  const last = lines.at(-1);
  const waiting = active && !busy && last?.who === 'output' && last.open && last.text.endsWith(prompt);
  const before = waiting ? last.text.slice(0, -prompt.length) : '';
  const scrollback = waiting ? [...lines.slice(0, -1), ...(before ? [{ ...last, text: before }] : [])] : lines;
  // A command still running says so on the pane's last row (in a row of the history's).
  const shown = scrollback.slice(-Math.max(0, rows - 3 - (active ? 1 : 0) - (busy ? 1 : 0)));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={active ? 'green' : 'gray'} paddingX={1}>
      <Text bold wrap="truncate">
        {paneTitle(view.debugger.mode, active, width - 4)}
      </Text>
      {shown.map((entry, i) => {
        const mark = entry.who === 'tenet' ? ' (tenet)' : '';
        return (
          <Text key={i} wrap="truncate" {...(COLOURS[entry.who] ? { color: COLOURS[entry.who] } : {})}>
            {shortEnd(entry.text, width - 4 - mark.length) || ' '}
            {mark ? <Text dimColor>{mark}</Text> : null}
          </Text>
        );
      })}
      {busy ? (
        <Text color="yellow" wrap="truncate">
          ⧗ {shortEnd(busy, width - 6)}
          {active ? <Text dimColor> · Ctrl+C interrupts it</Text> : null}
        </Text>
      ) : null}
      {active ? (
        <Text wrap="truncate">
          <Text color="green">{prompt}</Text>
          <FieldText state={line.state} width={width - 4 - prompt.length} />
        </Text>
      ) : null}
    </Box>
  );
}
