import { Box, Text } from 'ink';
import type { LineState } from './line-editor';
import { shortEnd, windowStart } from './lines';
import { FieldText, type FieldOpening, useLineEditor } from './text-field';

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
  /** The key that opened the box, and the keys that came after it before the box listened. */
  opening?: FieldOpening;
}

/** The most lines of a message the box shows at once (the rest scroll with the cursor). */
export const MESSAGE_LINES_SHOWN = 4;

/** Rows the box takes with `text` in it: its border, title, the message's lines (up to MESSAGE_LINES_SHOWN), and the key hint. */
export const messageBoxRows = (text = '') => 4 + Math.min(MESSAGE_LINES_SHOWN, text.split('\n').length);

/**
 * What the developer writes to the agent, in tenet's line editor (pastes, cursor keys, Ctrl+A/E/U/W).
 * A message may have several lines (a pasted traceback, a snippet, Alt+Enter or Ctrl+J): the box
 * grows with them up to MESSAGE_LINES_SHOWN (the screen asks `messageBoxRows` for its height), and
 * past that shows the ones around the cursor and says which line it is on.
 * Esc takes back the text typed, then the box, as every field of the TUI does. The screen that
 * opens it gives it the keys.
 */
export function MessageBox({ title, width, onSend, onCancel, draft = '', onDraft, opening }: MessageBoxProps) {
  const field = useLineEditor({
    active: true,
    ...(opening ? { opening } : {}),
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
  const all = field.state.value.split('\n');
  const first = windowStart(at - 1, of, MESSAGE_LINES_SHOWN);
  const inner = width - 6;
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="green" paddingX={1} width={width}>
      <Text bold wrap="truncate">
        Message to the agent <Text dimColor>({title})</Text>
        {of > MESSAGE_LINES_SHOWN ? <Text color="green">{` line ${at} of ${of}`}</Text> : null}
      </Text>
      {all.slice(first, first + MESSAGE_LINES_SHOWN).map((text, i) => (
        <Text key={first + i} wrap="truncate">
          <Text color="green">{first + i === 0 ? '› ' : '  '}</Text>
          {first + i === at - 1 ? <FieldText state={line} width={inner} /> : shortEnd(text, inner)}
        </Text>
      ))}
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
  return {
    line: { value: value.slice(start, end === -1 ? undefined : end), cursor: cursor - start },
    at,
    of: value.split('\n').length,
  };
}
