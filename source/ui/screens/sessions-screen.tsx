import { Box, Text, useApp } from 'ink';
import { useState } from 'react';
import type { CatalogEntry } from '../../engine/session/catalog';
import type { LoadedSession } from '../../engine/session/load';
import { HelpOverlay } from '../components/help-overlay';
import { DimRows } from '../components/line-view';
import { windowStart } from '../components/lines';
import { TooSmall } from '../components/too-small';
import { hintRows } from '../keys';
import { tooSmall, useTerminalSize } from '../use-terminal-size';
import { ReplayScreen } from './replay-screen';
import { helpKey, useKeys } from '../components/use-keys';
import { useListCursor } from '../components/list-cursor';

/** `tenet sessions` in a terminal: the saved sessions; Enter replays one in the live screens. */
export function SessionsScreen({ rows, load, onFork, reopen }: { rows: CatalogEntry[]; load(id: string): LoadedSession; onFork?(id: string, at: number): void; /** A replay open from the start, at an event (back from a fork made in it). */ reopen?: { id: string; at: number } }) {
  const { exit } = useApp();
  const { width, height } = useTerminalSize();
  const { cursor, current, press } = useListCursor(Math.max(0, rows.length - 1));
  const [open, setOpen] = useState<LoadedSession | undefined>(() => (reopen ? load(reopen.id) : undefined));
  // Where the reopened replay starts; a replay opened later starts at the beginning.
  const [openAt, setOpenAt] = useState(reopen?.at);
  const [error, setError] = useState<string | undefined>(undefined);
  const [help, setHelp] = useState(false);
  const keys = hintRows('sessions', width, 2, ['Ctrl+C quit']);
  // The title, the empty-list or error line, the keys, and Ink's free row.
  const room = Math.max(1, height - 3 - keys.length);
  useKeys(
    (input, key) => {
      if (helpKey(help, setHelp, input, key)) return;
      if (press(key, rows.length, room)) return;
      if (key.return && rows[current()]) {
        try {
          setOpen(load(rows[current()]!.id));
          setError(undefined);
        } catch (caught) {
          setError((caught as Error).message);
        }
      } else if (input === 'q' || key.escape) exit();
    },
    { isActive: !open },
  );
  if (open) {
    const back = () => {
      setOpen(undefined);
      setOpenAt(undefined);
    };
    return <ReplayScreen id={open.id} events={open.events} onBack={back} {...(onFork ? { onFork: (at: number) => onFork(open.id, at) } : {})} {...(openAt !== undefined ? { at: openAt } : {})} />;
  }
  if (tooSmall({ width, height })) return <TooSmall width={width} height={height} />;
  if (help) return <HelpOverlay screens={['sessions', 'replay', 'quitOnce']} width={width} height={height - 1} />;
  const first = windowStart(cursor, rows.length, room);
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        Sessions ({rows.length})
      </Text>
      {rows.length === 0 ? (
        <Text dimColor wrap="truncate">
          No saved sessions yet: tenet run or tenet demo saves one.
        </Text>
      ) : null}
      {rows.slice(first, first + room).map((row, i) => {
        const at = first + i === cursor;
        const color = row.status === 'passed' ? 'green' : row.status === 'failed' || row.status === 'error' ? 'red' : 'yellow';
        return (
          <Text key={row.id} inverse={at} wrap="truncate">
            {at ? '❯ ' : '  '}
            {row.id} <Text color={color}>{row.status.padEnd(11)}</Text> {row.target} <Text dimColor>{width > 110 ? `· ${row.provider}/${row.model} · $${row.costUsd.toFixed(4)}` : ''}</Text>
          </Text>
        );
      })}
      {error ? (
        <Text color="red" wrap="truncate">
          {error}
        </Text>
      ) : null}
      <DimRows rows={keys} />
    </Box>
  );
}
