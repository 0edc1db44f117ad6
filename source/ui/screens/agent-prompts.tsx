import { Box, Text } from 'ink';
import { useState } from 'react';
import type { CommandDecision } from '../../engine/protocol/decisions';
import { cap, shortEnd, wrapText } from '../components/lines';
import { useKeys } from '../components/use-keys';
import type { Prompt } from '../controller';
import { keyHint } from '../keys';
import { stepPromptRows } from './step-prompt';

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
  if (prompt?.kind === 'cancelled-call') return 2 + cancelledRows(width).length;
  if (prompt?.kind === 'step-model' || prompt?.kind === 'step-tool') return stepPromptRows(prompt, width, rows);
  return 0;
}
