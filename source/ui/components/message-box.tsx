import { Box, Text } from 'ink';
import type { LineState } from './line-editor';
import { FieldText, useLineEditor } from './text-field';

export interface MessageBoxProps {
  /** What the message is for, e.g. "goes with the agent's next model call". */
  title: string;
  width: number;
  /** Enter: the text as typed (the box closes; an empty one sends nothing). */
  onSend(text: string): void;
  /** Esc on an empty field: closed without sending. */
  onCancel(): void;
  /** The text so far: a box that had to give way to a question opens again with it. */
  draft?: string;
  onDraft?(text: string): void;
}

/** Rows the box takes: its border, title and input line, and the key hint. */
export const MESSAGE_BOX_ROWS = 5;

/**
 * What the developer writes to the agent, in tenet's line editor (pastes, cursor keys, Ctrl+A/E/U/W).
 * A message may have several lines (a pasted traceback, a snippet, Alt+Enter or Ctrl+J): the
 * box shows the one the cursor is on, and says which, so it keeps its height on every screen.
 * Esc takes back the text typed, then the box, as every field of the TUI does. The screen that
 * opens it gives it the keys.
 */
export function MessageBox({ title, width, onSend, onCancel, draft = '', onDraft }: MessageBoxProps) {
  const field = useLineEditor({
    active: true,
    newlines: 'text',
    initial: draft,
    onSubmit: (line) => onSend(line),
    ...(onDraft ? { onChange: onDraft } : {}),
    intercept: (_input, key, empty) => {
      if (!key.escape) return false;
      if (empty) onCancel();
      else field.clear();
      return true;
    },
  });
  const { line, at, of } = cursorLine(field.state);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="green" paddingX={1} width={width}>
      <Text bold wrap="truncate">
        Message to the agent <Text dimColor>({title})</Text>
        {of > 1 ? <Text color="green">{` line ${at} of ${of}`}</Text> : null}
      </Text>
      <Text wrap="truncate">
        <Text color="green">› </Text>
        <FieldText state={line} width={width - 6} />
      </Text>
      <Text dimColor wrap="truncate">
        Enter sends · Alt+Enter or Ctrl+J new line{of > 1 ? ' · ↑ ↓ lines' : ''} · Esc clears, then closes
      </Text>
    </Box>
  );
}

/** The line of a message the cursor is on, as a field of its own, and which line of how many it is. */
export function cursorLine({ value, cursor }: LineState): { line: LineState; at: number; of: number } {
  const start = value.lastIndexOf('\n', cursor - 1) + 1;
  const end = value.indexOf('\n', cursor);
  const at = value.slice(0, start).split('\n').length;
  return { line: { value: value.slice(start, end === -1 ? undefined : end), cursor: cursor - start }, at, of: value.split('\n').length };
}
