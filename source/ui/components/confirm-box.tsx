import { Box, Text } from 'ink';
import { wrapText } from './lines';
import { useKeys } from './use-keys';

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

/** The answer a key gives to a y/N question: `y` yes; `n`, Enter and Esc no (the default); anything else none. */
export function confirmAnswer(input: string, key: { return: boolean; escape: boolean }): boolean | undefined {
  if (input === 'y' || input === 'Y') return true;
  if (input === 'n' || input === 'N' || key.return || key.escape) return false;
  return undefined;
}

/** `y/N` after a question. */
export function YesNo() {
  return <Text dimColor>y/N</Text>;
}

/**
 * A yes/no question in a box. The default is no: Enter, `n` and Esc cancel; only `y` confirms, so
 * no stray key writes anything. (Not @inkjs/ui's ConfirmInput: it hands Ink a new key handler on
 * every render, and a key that arrives while Ink swaps them is lost; useKeys keeps one.)
 */
export function ConfirmBox({ lines, question, width, onConfirm, onCancel, danger = false }: ConfirmBoxProps) {
  useKeys((input, key) => {
    const answer = confirmAnswer(input, key);
    if (answer === true) onConfirm();
    else if (answer === false) onCancel();
  });
  const inner = Math.max(10, width - 4);
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={danger ? 'red' : 'yellow'} paddingX={1} width={Math.min(width, inner + 4)}>
      {lines.flatMap((line) => wrapText(line, inner)).map((text, i) => (
        <Text key={i}>{text}</Text>
      ))}
      <Box>
        <Text bold>{question} </Text>
        <YesNo />
      </Box>
    </Box>
  );
}
