import { Box, Text } from 'ink';
import { useEffect, useState } from 'react';
import { Lines } from './line-view';
import type { Line } from './lines';
import { useKeys } from './use-keys';

export interface ScrollViewProps {
  /** What is shown; each is one row (wrap or cut them to the width first). */
  lines: readonly Line[];
  /** Rows for the content and the position line under it. */
  height: number;
  /** A bold line above the content, when given (counted in `height`). */
  title?: string;
  /** Keys named on the position line, after the scroll keys. */
  hint?: string;
  /** What is shown, at the start of the position line (a title that costs no row). */
  label?: string;
  /** Whether the scroll keys are this view's (false while another view has them). */
  active?: boolean;
  /** Open at the end (a log) rather than at the top (a file). */
  startAtEnd?: boolean;
}

/**
 * A window over more lines than fit: ↑ ↓ a line, PgUp PgDn a page, Home End the ends (no letters:
 * the screen around it has those). The position line says which lines show, so nothing is silently cut.
 */
export function ScrollView({ lines, height, title, hint, label, active = true, startAtEnd = false }: ScrollViewProps) {
  const body = Math.max(1, height - 1 - (title ? 1 : 0));
  const last = Math.max(0, lines.length - body);
  const [offset, setOffset] = useState(startAtEnd ? last : 0);
  // New content (another item, a resize) must not leave the window past the end.
  useEffect(() => setOffset((o) => Math.min(o, last)), [last]);
  useKeys(
    (_input, key) => {
      const page = Math.max(1, body - 1);
      if (key.upArrow) setOffset((o) => Math.max(0, o - 1));
      else if (key.downArrow) setOffset((o) => Math.min(last, o + 1));
      else if (key.pageUp) setOffset((o) => Math.max(0, o - page));
      else if (key.pageDown) setOffset((o) => Math.min(last, o + page));
      else if (key.home) setOffset(0);
      else if (key.end) setOffset(last);
    },
    { isActive: active },
  );
  const at = Math.min(offset, last);
  const shown = lines.slice(at, at + body);
  // The position line says what is cut; when nothing is, it only carries the label and the hint.
  const position =
    lines.length > body ? `lines ${at + 1}–${at + shown.length} of ${lines.length} · ↑ ↓ PgUp PgDn scroll` : '';
  const status = [label, position, hint].filter(Boolean).join(' · ');
  return (
    <Box flexDirection="column">
      {title ? (
        <Text bold wrap="truncate">
          {title}
        </Text>
      ) : null}
      <Lines lines={shown} />
      {status ? (
        <Text dimColor wrap="truncate">
          {status}
        </Text>
      ) : null}
    </Box>
  );
}
