import { useInput, type Key } from 'ink';
import { createContext, useCallback, useContext, useRef } from 'react';
import { useHandedOff } from '../terminal-handoff';

/**
 * True under an overlay (the help, a question, "too small"): the screen stays mounted, so what the
 * developer chose or typed on it is still there when the overlay closes, but its keys stand down.
 */
export const KeysHeld = createContext(false);

type Handler = Parameters<typeof useInput>[0];

/**
 * Ink's useInput, with the handler of the latest render. useInput swaps handlers in an effect,
 * which can run after the next key arrives: two quick keys (↓ then →, a paste, key repeat) then
 * reach a handler that still sees the old cursor and act on the wrong row. Ink renders a key's
 * state change synchronously, so a ref set during render is always current. While the terminal is
 * handed to the developer's editor, or the component is under an overlay (see Covered), no handler
 * listens (see terminal-handoff.ts).
 */
export function useKeys(handler: Handler, options: { isActive?: boolean } = {}): void {
  const latest = useRef(handler);
  latest.current = handler;
  const stable = useCallback<Handler>((input, key) => latest.current(input, key), []);
  const handedOff = useHandedOff();
  const held = useContext(KeysHeld);
  useInput(stable, { isActive: options.isActive !== false && !handedOff && !held });
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

/**
 * A key and the text that came with it in the same input. Keys typed faster than the terminal is
 * read (or sent by `tmux send-keys`) arrive as one chunk: `/gross` is `/` and `gross`. A key that
 * opens a field (`/` the filter, `m` the message box, `e` a reason) gives it the rest, as typed.
 */
export function leadKey(input: string): { key: string; rest: string } {
  const [key = '', ...rest] = Array.from(input);
  return { key, rest: rest.join('') };
}
