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

/** A y/N question's keys: `y` answers yes; `n`, Enter and Esc no (the default); any other key nothing. */
export function useYesNo(onYes: () => void, onNo: () => void): void {
  useKeys((input, key) => {
    if (input === 'y' || input === 'Y') onYes();
    else if (input === 'n' || input === 'N' || key.return || key.escape) onNo();
  });
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
  useYesNo(onConfirm, onCancel);
  const inner = Math.max(10, width - 4);
  return (
    <Box
      flexDirection="column"
      borderStyle="round"
      borderColor={danger ? 'red' : 'yellow'}
      paddingX={1}
      width={Math.min(width, inner + 4)}
    >
      {lines
        .flatMap((line) => wrapText(line, inner))
        .map((text, i) => (
          <Text key={i}>{text}</Text>
        ))}
      <Box>
        <Text bold>{question} </Text>
        <YesNo />
      </Box>
    </Box>
  );
}
