import { Box, Text, useApp } from 'ink';
import { useState } from 'react';
import { sessionTree, type CatalogEntry } from '../../engine/session/catalog';
import type { LoadedSession } from '../../engine/session/load';
import { HelpOverlay } from '../components/help-overlay';
import { DimRows } from '../components/line-view';
import { windowStart, wrapText } from '../components/lines';
import { TooSmall } from '../components/too-small';
import { hintRows } from '../keys';
import { tooSmall, useTerminalSize } from '../use-terminal-size';
import { ReplayScreen } from './replay-screen';
import { helpKey, useKeys } from '../components/use-keys';
import { useListCursor } from '../components/list-cursor';
import { lastForkEvent, resumeRefusal, selectedLines, sessionCells } from './session-rows';

/** A y/N question about the session under the cursor: resume it, or fork it from an event. */
type Asking = { resume: string } | { fork: string; at: number };

export interface SessionsScreenProps {
  rows: CatalogEntry[];
  load(id: string): LoadedSession;
  /** `f` (on the list, or in a replay): a fork of session `id` from its event `at`, run live. */
  onFork?(id: string, at: number, from: 'list' | 'replay'): void;
  /** `r` on an interrupted session: go on with it live. */
  onResume?(id: string): void;
  /** A replay open from the start, at an event (back from a fork made in it). */
  reopen?: { id: string; at: number };
}

/**
 * `tenet sessions` in a terminal: the saved sessions, forks under the session they came from (as
 * the text list shows them). Enter replays one; `r` resumes an interrupted one; `f` forks one from
 * before its last model call (a replay's `f` forks from any event).
 */
export function SessionsScreen({ rows: catalog, load, onFork, onResume, reopen }: SessionsScreenProps) {
  const { exit } = useApp();
  const { width, height } = useTerminalSize();
  const tree = sessionTree(catalog);
  const rows = tree.map((t) => t.row);
  const { cursor, current, press } = useListCursor(Math.max(0, rows.length - 1));
  const [open, setOpen] = useState<LoadedSession | undefined>(() => (reopen ? load(reopen.id) : undefined));
  // Where the reopened replay starts; a replay opened later starts at the beginning.
  const [openAt, setOpenAt] = useState(reopen?.at);
  const [notice, setNotice] = useState<string | undefined>(undefined);
  const [asking, setAsking] = useState<Asking | undefined>(undefined);
  const [help, setHelp] = useState(false);
  const skip = [...(onResume ? [] : ['r']), ...(onFork ? [] : ['f'])];
  const question = asking
    ? 'resume' in asking
      ? `Resume session ${asking.resume}? It goes on live from its last completed step, with its model. y resumes · any other key does not`
      : `Fork session ${asking.fork} at event ${asking.at}, before its last model call? A new session: its history is this one's up to there (recorded answers, no cost), then the model answers that call and the rest live. y forks · any other key does not`
    : undefined;
  const keys = question ? wrapText(question, width).slice(0, 3) : hintRows('sessions', width, 2, ['Ctrl+C quit'], skip);
  // The title, the selected session's lines, the notice, the keys, and Ink's free row.
  const selectedRow = rows[cursor];
  const about = selectedRow ? selectedLines(selectedRow, width) : [];
  const room = Math.max(1, height - 3 - about.length - keys.length);
  const tryLoad = (id: string) => {
    try {
      return load(id);
    } catch (caught) {
      setNotice((caught as Error).message);
      return undefined;
    }
  };
  useKeys(
    (input, key) => {
      if (asking) {
        if (input === 'y' || input === 'Y') {
          if ('resume' in asking) onResume?.(asking.resume);
          else onFork?.(asking.fork, asking.at, 'list');
        }
        setAsking(undefined);
        return;
      }
      if (helpKey(help, setHelp, input, key)) return;
      if (press(key, rows.length, room)) return;
      const row = rows[current()];
      if (key.return && row) {
        const session = tryLoad(row.id);
        if (session) {
          setOpen(session);
          setNotice(undefined);
        }
      } else if (input === 'r' && row && onResume) {
        const refusal = resumeRefusal(row);
        setNotice(refusal);
        if (!refusal) setAsking({ resume: row.id });
      } else if (input === 'f' && row && onFork) {
        const session = tryLoad(row.id);
        if (!session) return;
        const at = lastForkEvent(session.events);
        if (at === undefined)
          setNotice(`Session ${row.id} has no model call to fork it before: the agent never asked its model.`);
        else {
          setNotice(undefined);
          setAsking({ fork: row.id, at });
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
    return (
      <ReplayScreen
        id={open.id}
        events={open.events}
        onBack={back}
        {...(onFork ? { onFork: (at: number) => onFork(open.id, at, 'replay') } : {})}
        {...(openAt !== undefined ? { at: openAt } : {})}
      />
    );
  }
  if (tooSmall({ width, height })) return <TooSmall width={width} height={height} />;
  if (help) return <HelpOverlay screens={['sessions', 'replay', 'quitOnce']} width={width} height={height - 1} />;
  const first = windowStart(cursor, rows.length, room);
  const cells = sessionCells(tree, width);
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
        const color =
          row.status === 'passed'
            ? 'green'
            : row.status === 'failed' || row.status === 'error' || row.status === 'damaged'
              ? 'red'
              : 'yellow';
        const cell = cells[first + i]!;
        return (
          <Text key={row.id} inverse={at} wrap="truncate">
            {at ? '❯ ' : '  '}
            {cell.id} <Text color={color}>{cell.status}</Text> {cell.target} <Text dimColor>{cell.model}</Text>{' '}
            <Text dimColor>{cell.cost}</Text>
          </Text>
        );
      })}
      <DimRows rows={about} />
      {notice ? (
        <Text color="yellow" wrap="wrap">
          {notice}
        </Text>
      ) : null}
      <DimRows rows={keys} />
    </Box>
  );
}
