import type { Key } from 'ink';
import { useRef, useState } from 'react';

/** A movement of a list's cursor: by some rows, or to an end. */
export type CursorMove = { by: number } | { to: 'first' | 'last' };

/** The movement a key asks for: ↑ ↓ a row, PgUp PgDn a page of `page` rows, Home End the ends. Undefined for any other key (the screen's own). */
export function cursorMove(key: Key, page: number): CursorMove | undefined {
  const by = key.upArrow ? -1 : key.downArrow ? 1 : key.pageUp ? -page : key.pageDown ? page : undefined;
  if (by !== undefined) return { by };
  if (key.home) return { to: 'first' };
  if (key.end) return { to: 'last' };
  return undefined;
}

/** The cursor after `move` in a list of `count` rows (pure: the list's reducer). */
export function reduceCursor(at: number, move: CursorMove, count: number): number {
  if ('to' in move) return move.to === 'first' ? 0 : Math.max(0, count - 1);
  return Math.max(0, Math.min(count - 1, at + move.by));
}

/**
 * A list's cursor that a burst of keys moves a row per key. Keys can come faster than frames (key
 * repeat, `tmux send-keys`): a handler that reads the cursor of its render then moves every key
 * from the same row, so five ↓ moved one. Each key goes through the reducer from the cursor the key
 * before left (kept in a ref, set at once), and `current()` is that cursor for an Enter in the same burst.
 */
export function useListCursor(initial: number): {
  cursor: number;
  current(): number;
  press(key: Key, count: number, page: number): boolean;
  set(at: number): void;
} {
  const live = useRef(initial);
  const [cursor, setCursor] = useState(initial);
  const set = (at: number) => {
    live.current = at;
    setCursor(at);
  };
  return {
    cursor,
    current: () => live.current,
    press(key, count, page) {
      const move = cursorMove(key, page);
      if (!move) return false;
      set(reduceCursor(live.current, move, count));
      return true;
    },
    set,
  };
}
