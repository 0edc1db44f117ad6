import { Box, Text } from 'ink';
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
 * A line the developer writes to the agent, in tenet's line editor (pastes, cursor keys, Ctrl+A/E/U/W).
 * Esc takes back the text typed, then the box, as every field of the TUI does. The screen that
 * opens it gives it the keys.
 */
export function MessageBox({ title, width, onSend, onCancel, draft = '', onDraft }: MessageBoxProps) {
  const field = useLineEditor({
    active: true,
    newlines: 'single',
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
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="green" paddingX={1} width={width}>
      <Text bold wrap="truncate">
        Message to the agent <Text dimColor>({title})</Text>
      </Text>
      <Text wrap="truncate">
        <Text color="green">› </Text>
        <FieldText state={field.state} width={width - 6} />
      </Text>
      <Text dimColor wrap="truncate">
        Enter sends · Esc clears, then closes
      </Text>
    </Box>
  );
}
