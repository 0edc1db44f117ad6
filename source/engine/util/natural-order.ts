/**
 * Test ids as people count them: the numbers in them by value, so a parametrized test's cases go
 * `[0] [1] [2] … [10]`, not `[0] [1] [10] [11] … [2]` as text does. Ids that compare equal that way
 * (none should) fall back to their text, so the order is total and the same on every machine.
 */
const collator = new Intl.Collator('en', { numeric: true });

export function naturalOrder(a: string, b: string): number {
  return collator.compare(a, b) || (a < b ? -1 : a > b ? 1 : 0);
}

/** The ids in natural order (a new array). */
export const naturally = (ids: Iterable<string>): string[] => [...ids].sort(naturalOrder);
