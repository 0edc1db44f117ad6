import { useEffect, useRef, useState } from 'react';
import type { ReachRefreshStatus } from '../../engine/thm/reach-refresh';
import { plural } from '../../engine/util/plural';

/** Starts the reach index's refresh in the background and reports on it; the caller stops it. */
export type StartReachRefresh = (onStatus: (status: ReachRefreshStatus) => void) => void;

/** What the start screen shows of the reach index: each function's count, and the refresh's line. */
export interface ReachShown {
  counts?: ReadonlyMap<string, number>;
  status?: { text: string; tone: 'quiet' | 'problem' };
}

/**
 * The reach index's counts, once loaded (a failure to read it shows none), and the refresh that
 * starts after the first frame: its line while it runs, then its counts in place of the loaded ones.
 */
export function useReach(
  load: (() => Promise<ReadonlyMap<string, number> | undefined>) | undefined,
  refresh: StartReachRefresh | undefined,
): ReachShown {
  const [counts, setCounts] = useState<ReadonlyMap<string, number>>();
  const [status, setStatus] = useState<ReachRefreshStatus>();
  // The refresh's counts are newer than the file read at the start, whichever arrives last.
  const refreshed = useRef(false);
  useEffect(() => {
    let live = true;
    load?.().then(
      (found) => live && found && !refreshed.current && setCounts(found),
      () => undefined,
    );
    return () => {
      live = false;
    };
  }, [load]);
  useEffect(() => {
    let live = true;
    refresh?.((next) => {
      if (!live) return;
      if (next.state === 'done') {
        refreshed.current = true;
        setCounts(next.counts);
      }
      setStatus(next);
    });
    return () => {
      live = false;
    };
  }, [refresh]);
  return { ...(counts ? { counts } : {}), ...(status ? { status: refreshWords(status) } : {}) };
}

/** The refresh's one line: quiet while it runs and when done, a problem when it failed. */
export function refreshWords(status: ReachRefreshStatus): NonNullable<ReachShown['status']> {
  switch (status.state) {
    case 'refreshing': {
      const what = status.whole
        ? `recording the reach index again (${status.whole})`
        : `refreshing ${plural(status.stale, 'stale test')}`;
      return { text: `index: ${what}…${status.total ? ` ${status.done}/${status.total}` : ''}`, tone: 'quiet' };
    }
    case 'done': {
      const what = status.whole
        ? `recorded again, ${plural(status.refreshed, 'test')}`
        : `refreshed, ${plural(status.refreshed, 'stale test')} recorded again`;
      return { text: `index: ${what} (${(status.ms / 1000).toFixed(1)} s)`, tone: 'quiet' };
    }
    case 'failed':
      return { text: `index: the refresh failed, the kept index stays: ${status.message}`, tone: 'problem' };
  }
}

export const testsReachingWords = (n: number) =>
  n === 0 ? 'no test reaches it' : n === 1 ? '1 test reaches it' : `${n} tests reach it`;
