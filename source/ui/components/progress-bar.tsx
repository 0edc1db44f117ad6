import { Text } from 'ink';

/** `████░░░░ 120/400`: a bar `width` cells wide. */
export function ProgressBar({ done, total, width = 30 }: { done: number; total: number; width?: number }) {
  const filled = total > 0 ? Math.min(width, Math.round((done / total) * width)) : 0;
  return (
    <Text>
      <Text color="green">{'█'.repeat(filled)}</Text>
      <Text dimColor>{'░'.repeat(width - filled)}</Text>
    </Text>
  );
}
