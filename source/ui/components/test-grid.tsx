import { naturalOrder } from '../../engine/util/natural-order';
import { Lines } from './line-view';
import { cap, shortMiddle, type Line } from './lines';

export interface GridOptions {
  /** At most this many rows; past it the failing tests come first and a last row counts the rest. */
  max?: number;
  /** The tests the agent was shown: each row says whether it was selected or hidden. */
  selected?: readonly string[];
}

const failed = (outcome: string) => outcome !== 'passed';

/** `✓ name` / `✗ name outcome` per test, optionally tagged selected / hidden, capped to `max` rows. */
export function gridLines(
  outcomes: Record<string, string>,
  width: number,
  { max = Infinity, selected }: GridOptions = {},
): Line[] {
  let entries = Object.entries(outcomes).sort(([a], [b]) => naturalOrder(a, b));
  // Folded, the failing ones are what matters: they go first, the passing ones are counted.
  if (entries.length > max)
    entries = [...entries.filter(([, o]) => failed(o)), ...entries.filter(([, o]) => !failed(o))];
  const rows = entries.map(([nodeid, outcome]): Line => {
    const ok = !failed(outcome);
    const tag = selected ? (selected.includes(nodeid) ? ' selected' : ' hidden') : '';
    const name = shortMiddle(nodeid, Math.max(10, width - 4 - (ok ? 0 : outcome.length + 1) - tag.length));
    return [
      { text: ok ? '✓' : '✗', color: ok ? 'green' : 'red' },
      { text: ` ${name}` },
      ...(ok ? [] : [{ text: ` ${outcome}`, dim: true }]),
      ...(tag ? [{ text: tag, color: tag === ' selected' ? 'yellow' : undefined, dim: tag === ' hidden' }] : []),
    ];
  });
  return cap(rows, max, (hidden) => {
    const failing = entries.slice(entries.length - hidden).filter(([, o]) => failed(o)).length;
    return {
      text: `… ${hidden} more (${failing ? `${failing} failing, ` : ''}${hidden - failing} passing)`,
      dim: true,
    };
  });
}

/** ✓/✗ per test, one line each (names shortened to fit), at most `max` lines. */
export function TestGrid({
  outcomes,
  width,
  max,
  selected,
}: { outcomes: Record<string, string>; width: number } & GridOptions) {
  return (
    <Lines
      marginLeft={2}
      lines={gridLines(outcomes, width - 2, {
        ...(max !== undefined ? { max } : {}),
        ...(selected ? { selected } : {}),
      })}
    />
  );
}
