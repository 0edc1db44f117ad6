import { Text } from 'ink';
import { MIN_SIZE } from '../use-terminal-size';

/** In a terminal too small for any screen: one line that says so, what matters first (the session runs on). */
export function TooSmall({ width, height }: { width: number; height: number }) {
  return (
    <Text color="yellow" wrap="truncate">
      tenet needs {MIN_SIZE.width}×{MIN_SIZE.height} (this terminal is {width}×{height}): enlarge it
    </Text>
  );
}
