import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { YesNo, useYesNo } from '../components/confirm-box';
import { cap, shortEnd, wrapText } from '../components/lines';
import { FieldOpening, FieldText, useLineEditor } from '../components/text-field';
import { leadKey, useKeys } from '../components/use-keys';
import type { Prompt } from '../prompt';
import { keyHint } from '../keys';
import { CLOSED_PAUSE, stepPromptRows, type PauseView } from './step-prompt';
import { plural } from '../../engine/util/plural';

/**
 * The engine's questions on the agent screen: a shell command to approve, a cancelled model call.
 * Esc never ends the run from here: it takes back the innermost thing (the reason being typed,
 * the command itself); stopping the agent is `x`, and asks first.
 */

const SHORT_COMMAND_HINT = 'y once · a always · e deny, with a reason · Esc deny · x stop';
const STOP_QUESTION = 'Stop the agent and evaluate what it has?';

/**
 * The shell-command question laid out in at most `rows` rows (border and title included): the
 * full key names if they fit, else one short line; the command cut last, its start kept.
 */
function commandLayout(
  command: string,
  width: number,
  rows: number,
): { command: string[]; hint: string[]; rows: number } {
  // The rows a long command wraps into go on under it, not under the `$`.
  const full = wrapText(`$ ${command}`, width - 4, 2);
  const long = wrapText(keyHint('command'), width - 4);
  const hint = rows - 3 - long.length >= Math.min(full.length, 3) ? long : [shortEnd(SHORT_COMMAND_HINT, width - 4)];
  const shown = cap(
    full,
    Math.max(1, Math.min(10, rows - 3 - hint.length)),
    (n) => `… ${plural(n, 'more row')} of the command`,
  );
  return { command: shown, hint, rows: 3 + shown.length + hint.length };
}

/** `Stop the agent …? y/N` on one row: Enter, n and Esc keep it going. */
export function StopQuestion({ onStop, onCancel }: { onStop(): void; onCancel(): void }) {
  useYesNo(onStop, onCancel);
  return (
    <Box>
      <Text bold color="red" wrap="truncate">
        {STOP_QUESTION}{' '}
      </Text>
      <YesNo />
    </Box>
  );
}

/** `onTyping`: whether the reason field is open (its keys are typed, `?` included). */
export function CommandPrompt({
  prompt,
  width,
  rows,
  onTyping,
}: {
  prompt: Extract<Prompt, { kind: 'approve-command' }> & { allowAlways(): void };
  width: number;
  rows: number;
  onTyping?(typing: boolean): void;
}) {
  const [mode, setMode] = useState<'ask' | 'reason' | 'stop'>('ask');
  useEffect(() => {
    onTyping?.(mode === 'reason');
    return () => onTyping?.(false);
  }, [mode, onTyping]);
  // `e` and the reason typed fast: what comes before the field listens is kept for it.
  const [reasonOpening] = useState(() => new FieldOpening());
  const reason = useLineEditor({
    active: mode === 'reason',
    opening: reasonOpening,
    newlines: 'single',
    onSubmit: (line) => prompt.resolve({ run: false, reason: line.trim() }),
    intercept: (_input, key, empty) => {
      // Esc takes back the reason being typed, then the choice to deny with one.
      if (!key.escape) return false;
      if (empty) setMode('ask');
      else reason.clear();
      return true;
    },
  });
  useKeys(
    (char, key) => {
      if (reasonOpening.took(char, key)) return;
      if (char === 'y') prompt.resolve({ run: true });
      else if (char === 'a') {
        prompt.allowAlways();
        prompt.resolve({ run: true });
      } else if (leadKey(char).key === 'e') {
        // `e` and the reason typed fast come as one chunk: the field opens with the rest in it.
        setMode('reason');
        reasonOpening.open();
        if (leadKey(char).rest) reason.type(leadKey(char).rest);
      } else if (char === 'x') setMode('stop');
      // The innermost thing is this command: Esc denies it, and the agent goes on.
      else if (key.escape) prompt.resolve({ run: false, reason: '' });
    },
    { isActive: mode === 'ask' },
  );
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
      {mode === 'stop' ? (
        <StopQuestion onStop={() => prompt.resolve({ stop: true })} onCancel={() => setMode('ask')} />
      ) : null}
      {mode === 'reason' ? (
        <Text wrap="truncate">
          Why not? <FieldText state={reason.state} width={width - 30} /> <Text dimColor>(Enter sends · Esc back)</Text>
        </Text>
      ) : null}
      {mode === 'ask'
        ? layout.hint.map((row, i) => (
            <Text key={`h${i}`} dimColor wrap="truncate">
              {row}
            </Text>
          ))
        : // The question and the reason take one row: the rest of the hint's rows stay blank, so the box keeps its height.
          layout.hint.slice(1).map((_, i) => <Text key={`b${i}`}> </Text>)}
    </Box>
  );
}

const CANCELLED = 'The model call was cancelled. Enter: make it again · x: stop the agent and evaluate what it has';

const cancelledRows = (width: number) => wrapText(CANCELLED, width - 4);

export function CancelledPrompt({
  prompt,
  width,
}: {
  prompt: Extract<Prompt, { kind: 'cancelled-call' }>;
  width: number;
}) {
  const [stopping, setStopping] = useState(false);
  useKeys(
    (char, key) => {
      if (key.return || char === 'r') prompt.resolve('retry');
      // Ending the run asks first, whichever key asked for it.
      else if (char === 'x' || key.escape) setStopping(true);
    },
    { isActive: !stopping },
  );
  const rows = cancelledRows(width);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="yellow" paddingX={1}>
      {(stopping ? rows.slice(0, -1) : rows).map((row, i) => (
        <Text key={i} wrap="truncate">
          {row}
        </Text>
      ))}
      {stopping ? <StopQuestion onStop={() => prompt.resolve('stop')} onCancel={() => setStopping(false)} /> : null}
    </Box>
  );
}

/** Rows a prompt takes (border included) when it may use at most `rows` (`pause`: how a step pause's box is open). */
export function promptRows(
  prompt: Prompt | undefined,
  width: number,
  rows: number,
  pause: PauseView = CLOSED_PAUSE,
): number {
  if (prompt?.kind === 'approve-command') return commandLayout(prompt.command, width, rows).rows;
  if (prompt?.kind === 'cancelled-call') return 2 + cancelledRows(width).length;
  if (prompt?.kind === 'step-model' || prompt?.kind === 'step-tool') return stepPromptRows(prompt, width, rows, pause);
  return 0;
}
