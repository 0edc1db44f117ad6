import { Box, Text } from 'ink';
import { useRef } from 'react';
import { THM_PHASES } from '../../engine/phrase-book';
import { plural } from '../../engine/util/plural';
import { Lines } from '../components/line-view';
import { cap, shortMiddle, shortStart } from '../components/lines';
import { ProgressBar } from '../components/progress-bar';
import { useNow } from '../components/use-now';
import type { ViewState } from '../view/types';
import { warningLines } from './thm-lines';

/** At most this many of the tests still running are named. */
const RUNNING_ROWS = 5;

/**
 * THM while the suite runs: what it runs on, the pass, a progress bar with the tests' count and
 * rate, and the last tests still running, with how long each has run.
 */
export function ThmProgress({
  view,
  width,
  height,
  clock,
}: {
  view: ViewState;
  width: number;
  height: number;
  clock: 'wall' | 'recorded';
}) {
  const { thm, session } = view;
  const now = useNow(clock === 'wall');
  // Live, the clock runs from the run's start: the earliest of the session's start, THM's, and this
  // screen's (it opens before the workspace is made, and the session starts after). A large suite
  // collects for seconds without an event. The rate of tests counts from THM's start.
  const mounted = useRef(Date.now()).current;
  const end = clock === 'wall' ? now : view.at;
  const known = [view.clock.partStart, thm.startedAt].filter((t) => t > 0);
  const since = clock === 'wall' ? Math.min(mounted, ...known) : (known[0] ?? 0);
  const seconds = since ? Math.max(0, end - since) / 1000 : 0;
  const thmSeconds = thm.startedAt ? Math.max(0, end - thm.startedAt) / 1000 : 0;
  const label = thm.startedAt ? THM_PHASES[thm.phase ?? 'probe'] : 'preparing the workspace';
  const collecting = thm.collecting
    ? `collecting the tests: ${plural(thm.collecting.files, 'file')}, ${plural(thm.collecting.tests, 'test')} so far`
    : thm.startedAt
      ? 'collecting the tests'
      : 'starting';
  // Every test ran, none is left running: pytest ends the session (fixtures' teardown, the report).
  const finishing = thm.total > 0 && thm.done >= thm.total && !thm.running.length ? ' · pytest is finishing' : '';
  const counts = thm.total || thm.done ? `${thm.done}/${thm.total || '?'} tests · ${thm.failing} failing` : collecting;
  // The bar is (nearly) full and a few tests hold it: which, and for how long, longest first.
  const running = [...thm.running].sort((a, b) => a.since - b.since);
  const rows = Math.max(0, Math.min(RUNNING_ROWS, height - 4));
  const shown = cap(running, rows, (n) => ({ nodeid: `… ${n} more`, since: NaN }));
  // What THM runs on: the target and the repository (the repository's end: its own folder's name).
  const where = session
    ? `${session.target}${session.mode === 'blank' ? ' (benchmark mode)' : ''} in ${session.repo}`
    : '';
  return (
    <Box flexDirection="column">
      <Lines lines={warningLines(view, width)} />
      <Text wrap="truncate">
        <Text bold>Test Harness Mechanism</Text>
        {where ? ` · ${shortStart(where, Math.max(10, width - 25))}` : ''}
      </Text>
      <Text wrap="truncate">{label}</Text>
      <Text wrap="truncate">
        <ProgressBar done={thm.done} total={thm.total} width={Math.max(10, Math.min(40, width - 75))} /> {counts} ·{' '}
        {seconds.toFixed(1)} s{thm.done ? ` · ${thmSeconds > 0 ? (thm.done / thmSeconds).toFixed(0) : 0} tests/s` : ''}
        {finishing}
      </Text>
      {shown.length ? (
        <Text dimColor wrap="truncate">
          still running:
        </Text>
      ) : null}
      {shown.map(({ nodeid, since }) => {
        const took = Number.isNaN(since) ? '' : ` · ${Math.max(0, Math.floor((end - since) / 1000))} s`;
        return (
          <Text key={nodeid} wrap="truncate">
            {'  '}
            {shortMiddle(nodeid, Math.max(10, width - 2 - took.length))}
            <Text dimColor>{took}</Text>
          </Text>
        );
      })}
    </Box>
  );
}
