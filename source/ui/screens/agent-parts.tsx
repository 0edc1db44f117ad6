import { Box, Text } from 'ink';
import { useState } from 'react';
import type { CommandDecision } from '../../engine/protocol/decisions';
import { DimRows } from '../components/line-view';
import { useNow } from '../components/use-now';
import { cap, shortEnd, wrapText } from '../components/lines';
import type { Prompt, Takeover } from '../controller';
import { keyHint } from '../keys';
import type { ViewState } from '../view-state';
import { useKeys } from '../components/use-keys';
import { stepPromptRows } from './step-prompt';

const money = (usd: number) => `$${usd.toFixed(usd < 1 ? 4 : 2)}`;

/**
 * Where the agent is: pre-generation round i/15, refinement attempt j/5 and its stage, a TDD
 * round, or the measuring of the agent's tests (which has no events of its own: `elapsed` shows it
 * is not stuck).
 */
export function phaseLine(view: ViewState, elapsedMs = 0): string {
  const a = view.agent;
  switch (a.phase) {
    case 'pregen':
      return `pre-generation · round ${a.round}/${a.pregenRounds}`;
    case 'validate':
      return 'running the selected tests';
    case 'rrw':
      return `refinement attempt ${a.attempt}/${a.attempts} · ${a.stage?.replace(/-/g, ' ')} · round ${a.round}`;
    case 'tdd-setup':
      return `tests first · round ${a.round}/${a.tdd?.setupRounds ?? '?'}`;
    case 'tdd':
      return `co-refinement · test run ${a.tdd?.iteration}/${a.tdd?.iterations} · round ${a.round}`;
    case 'evaluate':
      return 'evaluating on every failing test';
    case 'quality':
      return `measuring the tests · ${Math.floor(elapsedMs / 1000)} s · pass rate, coverage, then mutants (each reruns them)`;
    case 'done':
      return 'done';
    default:
      return 'preparing the tools';
  }
}

/** Rows the header takes: two lines and its rule. */
export const HEADER_ROWS = 3;

/** The session's first lines: target, phase, model. `clock` is `recorded` in a replay. */
export function Header({ view, width, clock = 'wall' }: { view: ViewState; width: number; clock?: 'wall' | 'recorded' }) {
  const s = view.session;
  // The quality phase sends nothing for minutes on a large target: a ticking clock says it runs.
  const now = useNow(clock === 'wall' && view.agent.phase === 'quality');
  const elapsed = (clock === 'wall' ? now : view.at) - view.agent.phaseAt;
  return (
    <Box flexDirection="column" borderStyle="single" borderBottom borderTop={false} borderLeft={false} borderRight={false}>
      <Text wrap="truncate">
        <Text bold>tenet</Text> · {s?.target ?? '…'} {s?.mode === 'blank' ? <Text dimColor>(benchmark)</Text> : ''} · <Text color="cyan">{phaseLine(view, elapsed)}</Text>
      </Text>
      <Text wrap="truncate" dimColor>
        {s ? `model: ${s.modelLabel}` : ''}
        {width > 100 && s ? ` · session ${s.id}` : ''}
      </Text>
    </Box>
  );
}

/** Rows the footer takes, for a given number of key rows. */
export const footerRows = (keyRows: number, takeover: Takeover) => 2 + (takeover === 'off' ? 0 : 1) + keyRows;

/** Tokens and cost so far, the takeover state, and the keys (or a notice in their place). */
export function Footer({ view, takeover, notice, keys, queued = 0, step = false }: { view: ViewState; takeover: Takeover; notice?: string; keys: string[]; queued?: number; step?: boolean }) {
  const t = view.totals;
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text wrap="truncate">
        {step ? <Text color="cyan">⏸ step mode · </Text> : null}
        {queued ? <Text color="green">✉ {queued} message{queued === 1 ? '' : 's'} for the next model call · </Text> : null}
        tokens {t.inputTokens.toLocaleString('en')} in / {t.outputTokens.toLocaleString('en')} out · {money(t.costUsd)} · {t.modelCalls} model calls · {t.toolCalls} tool calls
      </Text>
      {takeover === 'requested' ? <Text color="yellow" wrap="truncate">takeover: waiting for the agent's current step to end</Text> : null}
      {takeover === 'active' ? <Text color="green" wrap="truncate">you have the debugger; the agent waits</Text> : null}
      <DimRows rows={(notice ? [notice] : keys)} />
    </Box>
  );
}

/** The live debugger session in `rows` rows (its border and title included). */
export function DebuggerPane({ view, takeover, width, rows, onSend }: { view: ViewState; takeover: Takeover; width: number; rows: number; onSend: (line: string) => void }) {
  const [input, setInput] = useState('');
  useKeys(
    (char, key) => {
      if (key.return) {
        onSend(input);
        setInput('');
      } else if (key.backspace || key.delete) setInput((v) => v.slice(0, -1));
      else if (!key.ctrl && !key.meta && char && !key.escape) setInput((v) => v + char);
    },
    { isActive: takeover === 'active' },
  );
  const shown = view.debugger.lines.slice(-Math.max(0, rows - 3 - (takeover === 'active' ? 1 : 0)));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={takeover === 'active' ? 'green' : 'gray'} paddingX={1}>
      <Text bold wrap="truncate">
        debugger {view.debugger.mode ? `(${view.debugger.mode})` : ''} {takeover === 'active' ? '· yours: type a command, Enter sends, Esc hands back' : ''}
      </Text>
      {shown.map((line, i) => (
        <Text key={i} wrap="truncate" color={line.who === 'human' ? 'green' : line.who === 'agent' ? 'magenta' : undefined}>
          {shortEnd(line.text, width - 4) || ' '}
        </Text>
      ))}
      {takeover === 'active' ? (
        <Text wrap="truncate">
          <Text color="green">{view.debugger.mode === 'pdb' ? '(Pdb) ' : '$ '}</Text>
          {input}
          <Text inverse> </Text>
        </Text>
      ) : null}
    </Box>
  );
}

const SHORT_COMMAND_HINT = 'y once · a always · e deny, with a reason · Esc stop';

/**
 * The shell-command question laid out in at most `rows` rows (border and title included): the
 * full key names if they fit, else one short line; the command cut last, its start kept.
 */
export function commandLayout(command: string, width: number, rows: number): { command: string[]; hint: string[]; rows: number } {
  const full = wrapText(`$ ${command}`, width - 4);
  const long = wrapText(keyHint('command'), width - 4);
  const hint = rows - 3 - long.length >= Math.min(full.length, 3) ? long : [shortEnd(SHORT_COMMAND_HINT, width - 4)];
  const shown = cap(full, Math.max(1, Math.min(10, rows - 3 - hint.length)), (n) => `… ${n} more rows of the command`);
  return { command: shown, hint, rows: 3 + shown.length + hint.length };
}

export function CommandPrompt({ prompt, width, rows }: { prompt: Extract<Prompt, { kind: 'approve-command' }> & { allowAlways(): void }; width: number; rows: number }) {
  const [reason, setReason] = useState<string | undefined>(undefined);
  useKeys((char, key) => {
    if (reason !== undefined) {
      if (key.return) prompt.resolve({ run: false, reason } satisfies CommandDecision);
      else if (key.escape) setReason(undefined);
      else if (key.backspace || key.delete) setReason((r) => (r ?? '').slice(0, -1));
      else if (char && !key.ctrl) setReason((r) => (r ?? '') + char);
      return;
    }
    if (char === 'y') prompt.resolve({ run: true });
    else if (char === 'a') {
      prompt.allowAlways();
      prompt.resolve({ run: true });
    } else if (char === 'e') setReason('');
    else if (key.escape) prompt.resolve({ stop: true });
  });
  const layout = commandLayout(prompt.command, width, rows);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      <Text bold wrap="truncate">
        The agent wants to run a shell command:
      </Text>
      {layout.command.map((row, i) => (
        <Text key={i} color="yellow" wrap="truncate">
          {row}
        </Text>
      ))}
      {reason === undefined ? (
        layout.hint.map((row, i) => (
          <Text key={`h${i}`} dimColor wrap="truncate">
            {row}
          </Text>
        ))
      ) : (
        <Text wrap="truncate">
          Why not? {reason}
          <Text inverse> </Text> <Text dimColor>(Enter sends)</Text>
        </Text>
      )}
    </Box>
  );
}

const CANCELLED = 'The model call was cancelled. Enter: make it again · s: stop the agent and evaluate what it has';

export const cancelledRows = (width: number) => wrapText(CANCELLED, width - 4);

export function CancelledPrompt({ prompt, width }: { prompt: Extract<Prompt, { kind: 'cancelled-call' }>; width: number }) {
  useKeys((char, key) => {
    if (key.return || char === 'r') prompt.resolve('retry');
    else if (char === 's' || key.escape) prompt.resolve('stop');
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      {cancelledRows(width).map((row, i) => (
        <Text key={i} wrap="truncate">
          {row}
        </Text>
      ))}
    </Box>
  );
}

/** Rows a prompt takes (border included) when it may use at most `rows`. */
export function promptRows(prompt: Prompt | undefined, width: number, rows: number): number {
  if (prompt?.kind === 'approve-command') return commandLayout(prompt.command, width, rows).rows;
  if (prompt?.kind === 'step-model' || prompt?.kind === 'step-tool') return stepPromptRows(prompt, width, rows);
  if (prompt?.kind === 'cancelled-call') return 2 + cancelledRows(width).length;
  return 0;
}
