import { useInput, type Key } from 'ink';
import { useCallback, useRef } from 'react';

type Handler = Parameters<typeof useInput>[0];

/**
 * Ink's useInput, with the handler of the latest render. useInput swaps handlers in an effect,
 * which can run after the next key arrives: two quick keys (↓ then →, a paste, key repeat) then
 * reach a handler that still sees the old cursor and act on the wrong row. Ink renders a key's
 * state change synchronously, so a ref set during render is always current.
 */
export function useKeys(handler: Handler, options: { isActive?: boolean } = {}): void {
  const latest = useRef(handler);
  latest.current = handler;
  const stable = useCallback<Handler>((input, key) => latest.current(input, key), []);
  useInput(stable, options);
}

/**
 * The help overlay's keys, on a screen where nothing else comes first: `?` opens it, `?` or Esc
 * closes it, and no other key gets through while it is open. True when the key was the overlay's.
 */
export function helpKey(open: boolean, setOpen: (open: boolean) => void, input: string, key: Key): boolean {
  if (open) {
    if (input === '?' || key.escape) setOpen(false);
    return true;
  }
  if (input !== '?') return false;
  setOpen(true);
  return true;
}
