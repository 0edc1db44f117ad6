import type { Key } from 'ink';

/**
 * Where a list's cursor goes for a movement key: ↑ ↓ a row, PgUp PgDn a page of `page` rows, Home
 * End the first and last of `count` rows. Undefined for any other key (the screen's own).
 */
export function movedCursor(key: Key, at: number, count: number, page: number): number | undefined {
  const by = key.upArrow ? -1 : key.downArrow ? 1 : key.pageUp ? -page : key.pageDown ? page : undefined;
  if (by !== undefined) return Math.max(0, Math.min(count - 1, at + by));
  if (key.home) return 0;
  if (key.end) return Math.max(0, count - 1);
  return undefined;
}
