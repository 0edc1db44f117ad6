import { Text } from 'ink';
import { MIN_SIZE } from '../use-terminal-size';
import { wrapText } from './lines';

/**
 * In a terminal too small for any screen: what it needs, wrapped to the width (the notice must not
 * be cut by the very lack of room it reports), in fewer rows than the terminal has. The session runs on.
 */
export function TooSmall({ width, height }: { width: number; height: number }) {
  const rows = wrapText(
    `tenet needs ${MIN_SIZE.width}×${MIN_SIZE.height}; this terminal is ${width}×${height}: enlarge it`,
    Math.max(1, width),
  );
  return <Text color="yellow">{rows.slice(0, Math.max(1, height - 1)).join('\n')}</Text>;
}
