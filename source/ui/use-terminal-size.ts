import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** Below this the screens cannot lay out their essentials; a one-line notice asks for more room. */
export const MIN_SIZE = { width: 40, height: 10 } as const;

/**
 * Columns and rows of the terminal, following resizes (80×24 when unknown, e.g. in tests). The
 * real size, not a floor: a screen laid out for more rows than there are overflows, and Ink then
 * clears the terminal on every frame.
 */
export function useTerminalSize(): { width: number; height: number } {
  const { stdout } = useStdout();
  const read = () => ({ width: stdout.columns || 80, height: stdout.rows || 24 });
  const [size, setSize] = useState(read);
  useEffect(() => {
    const onResize = () => setSize(read());
    stdout.on('resize', onResize);
    return () => {
      stdout.off('resize', onResize);
    };
  }, [stdout]);
  return size;
}

/** Whether the screens fit at all. */
export const tooSmall = (size: { width: number; height: number }) =>
  size.width < MIN_SIZE.width || size.height < MIN_SIZE.height;
