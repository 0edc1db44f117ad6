import { Box, Text } from 'ink';
import { useState } from 'react';
import { naturally } from '../../engine/util/natural-order';
import { LineRow } from './line-view';
import { shortMiddle, windowStart } from './lines';
import { useKeys } from './use-keys';

export interface TestListProps {
  /** node id → outcome. */
  outcomes: Record<string, string>;
  /** The tests the agent was shown: each row says selected or hidden. */
  selected?: readonly string[];
  width: number;
  /** Rows for the list and its position line. */
  height: number;
  /** Where the cursor starts (a node id). */
  initial?: string;
  active: boolean;
  /** Enter on a test that did not pass. */
  onOpen(nodeid: string): void;
  /** Keys named on the position line, after Enter's. */
  hint?: string;
}

/** The tests in the order the list shows them: those that did not pass first. */
export function listOrder(outcomes: Record<string, string>): string[] {
  const ids = naturally(Object.keys(outcomes));
  return [...ids.filter((id) => outcomes[id] !== 'passed'), ...ids.filter((id) => outcomes[id] === 'passed')];
}

/**
 * Every test of the evaluation, one row each (those that did not pass first), with a cursor:
 * ↑ ↓ PgUp PgDn Home End move, Enter on a failed test opens how it failed.
 */
export function TestList({ outcomes, selected, width, height, initial, active, onOpen, hint }: TestListProps) {
  const ids = listOrder(outcomes);
  const [cursor, setCursor] = useState(() => Math.max(0, initial ? ids.indexOf(initial) : 0));
  const room = Math.max(1, height - 1);
  useKeys(
    (_input, key) => {
      const move = (to: (at: number) => number) => setCursor((at) => Math.max(0, Math.min(ids.length - 1, to(at))));
      if (key.upArrow) move((at) => at - 1);
      else if (key.downArrow) move((at) => at + 1);
      else if (key.pageUp) move((at) => at - room + 1);
      else if (key.pageDown) move((at) => at + room - 1);
      else if (key.home) move(() => 0);
      else if (key.end) move(() => ids.length - 1);
      else if (key.return && ids[cursor] && outcomes[ids[cursor]!] !== 'passed') onOpen(ids[cursor]!);
    },
    { isActive: active },
  );
  const first = windowStart(cursor, ids.length, room);
  return (
    <Box flexDirection="column">
      {ids.slice(first, first + room).map((id, i) => {
        const at = first + i === cursor;
        const outcome = outcomes[id]!;
        const ok = outcome === 'passed';
        const tag = selected ? (selected.includes(id) ? ' selected' : ' hidden') : '';
        const name = shortMiddle(id, Math.max(10, width - 6 - (ok ? 0 : outcome.length + 1) - tag.length));
        return (
          <LineRow
            key={id}
            line={[
              { text: at ? '❯ ' : '  ', inverse: at },
              { text: ok ? '✓' : '✗', color: ok ? 'green' : 'red', inverse: at },
              { text: ` ${name}`, inverse: at },
              ...(ok ? [] : [{ text: ` ${outcome}`, dim: true, inverse: at }]),
              ...(tag
                ? [
                    {
                      text: tag,
                      color: tag === ' selected' ? 'yellow' : undefined,
                      dim: tag === ' hidden',
                      inverse: at,
                    },
                  ]
                : []),
            ]}
          />
        );
      })}
      <Text dimColor wrap="truncate">
        {`test ${ids.length ? cursor + 1 : 0}/${ids.length}${outcomes[ids[cursor] ?? ''] && outcomes[ids[cursor]!] !== 'passed' ? ' · Enter shows how it failed' : ''}${hint ? ` · ${hint}` : ''}`}
      </Text>
    </Box>
  );
}
