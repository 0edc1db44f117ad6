import { TextInput } from '@inkjs/ui';
import { Box, Text } from 'ink';
import { useKeys } from './use-keys';

export interface MessageBoxProps {
  /** What the message is for, e.g. "goes with the agent's next model call". */
  title: string;
  width: number;
  /** Enter: the text as typed (the box closes; an empty one sends nothing). */
  onSend(text: string): void;
  /** Esc: closed without sending. */
  onCancel(): void;
  /** The text so far: a box that had to give way to a question opens again with it. */
  draft?: string;
  onDraft?(text: string): void;
}

/** Rows the box takes: its border, title and input line, and the key hint. */
export const MESSAGE_BOX_ROWS = 5;

/**
 * A line the developer writes to the agent. The field is @inkjs/ui's TextInput (pastes, cursor
 * movement); the box owns Esc, and the screen that opens it gives it every other key.
 */
export function MessageBox({ title, width, onSend, onCancel, draft = '', onDraft }: MessageBoxProps) {
  useKeys((_char, key) => {
    if (key.escape) onCancel();
  });
  return (
    <Box flexDirection="column" borderStyle="round" borderColor="green" paddingX={1} width={width}>
      <Text bold wrap="truncate">
        Message to the agent <Text dimColor>({title})</Text>
      </Text>
      <Box>
        <Text color="green">› </Text>
        <TextInput placeholder="type, then Enter" defaultValue={draft} {...(onDraft ? { onChange: onDraft } : {})} onSubmit={(text) => onSend(text)} />
      </Box>
      <Text dimColor wrap="truncate">
        Enter sends · Esc cancels
      </Text>
    </Box>
  );
}
