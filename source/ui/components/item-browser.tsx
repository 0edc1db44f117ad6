import { Box, Text } from 'ink';
import { useState } from 'react';
import type { TranscriptItem } from '../view/types';
import { LineRow } from './line-view';
import { useListCursor } from './list-cursor';
import { shortEnd, windowStart } from './lines';
import { ScrollView } from './scroll-view';
import { itemLines, itemTitle } from './transcript-item';
import { useKeys } from './use-keys';

/**
 * `o`: every output of the session so far, a line each, newest at the bottom; Enter opens one in
 * full in a scrollable view. What <Static> already printed is clipped for good, so this is the
 * way back to an earlier diff or tool result. Esc goes back to the list, then closes.
 */
export function ItemBrowser({
  items,
  width,
  height,
  onClose,
}: {
  items: readonly TranscriptItem[];
  width: number;
  height: number;
  onClose(): void;
}) {
  const { cursor, current, press } = useListCursor(Math.max(0, items.length - 1));
  const [open, setOpen] = useState<TranscriptItem | undefined>(undefined);
  const room = Math.max(1, height - 2);
  useKeys((input, key) => {
    if (open) {
      if (key.escape || input === 'q' || key.leftArrow) setOpen(undefined);
      return;
    }
    if (key.escape || input === 'q' || input === 'o') onClose();
    else if (press(key, items.length, room)) return;
    else if ((key.return || key.rightArrow) && items[current()]) setOpen(items[current()]);
  });
  if (open)
    return (
      <ScrollView
        title={`output ${open.id} of ${items.length}, in full`}
        lines={itemLines(open, width, 'full')}
        height={height}
        hint="Esc back to the list"
      />
    );
  const first = windowStart(cursor, items.length, room);
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        Outputs so far ({items.length}) · ↑ ↓ move · Enter opens one in full · Esc closes
      </Text>
      {items.length === 0 ? <Text dimColor>Nothing yet.</Text> : null}
      {items.slice(first, first + room).map((item, i) => {
        const at = first + i === cursor;
        return (
          <LineRow
            key={item.id}
            line={{
              text: `${at ? '❯ ' : '  '}${String(item.id).padStart(3)} ${shortEnd(itemTitle(item).split('\n')[0]!, width - 8)}`,
              inverse: at,
            }}
          />
        );
      })}
      <Text dimColor wrap="truncate">
        {items.length > room ? `items ${first + 1}–${Math.min(items.length, first + room)} of ${items.length}` : ' '}
      </Text>
    </Box>
  );
}
