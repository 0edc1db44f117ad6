import { ConfirmInput } from '@inkjs/ui';
import { Box, Text } from 'ink';
import { wrapText } from './lines';

export interface ConfirmBoxProps {
  /** What is about to happen, and what the developer should know first (one string per paragraph). */
  lines: readonly string[];
  /** The question the y/n answers. */
  question: string;
  width: number;
  onConfirm(): void;
  onCancel(): void;
  /** Red border for something that cannot easily be undone, or that goes against the result. */
  danger?: boolean;
}

/**
 * A yes/no question in a box. The default is no: Enter, `n` (and Esc, which the screen that opens
 * it handles) cancel; only `y` confirms, so no stray key writes anything.
 */
export function ConfirmBox({ lines, question, width, onConfirm, onCancel, danger = false }: ConfirmBoxProps) {
  const inner = Math.max(10, width - 4);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={danger ? 'red' : 'yellow'} paddingX={1} width={Math.min(width, inner + 4)}>
      {lines.flatMap((line) => wrapText(line, inner)).map((text, i) => (
        <Text key={i}>{text}</Text>
      ))}
      <Box>
        <Text bold>{question} </Text>
        <ConfirmInput defaultChoice="cancel" onConfirm={onConfirm} onCancel={onCancel} />
      </Box>
    </Box>
  );
}
