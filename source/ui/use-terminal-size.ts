import { useStdout } from 'ink';
import { useEffect, useState } from 'react';

/** Columns and rows of the terminal, following resizes (80×24 when unknown, e.g. in tests). */
export function useTerminalSize(): { width: number; height: number } {
  const { stdout } = useStdout();
  const read = () => ({ width: Math.max(40, stdout.columns || 80), height: Math.max(12, stdout.rows || 24) });
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
