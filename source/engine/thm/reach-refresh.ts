import { existsSync } from 'node:fs';
import { repositoryFolder } from '../util/checked-paths';
import { buildReachIndex } from './reach-build';
import { reachIndexFile } from './reach-index';
import { optionsOf, reachCounts } from './reach-use';
import { THM_DEFAULTS } from './thm-options';

/**
 * What the start screen says of the reach index's refresh in the background: the stale tests
 * being recorded again, then the new counts, or in one line why it failed.
 */
export type ReachRefreshStatus =
  | { state: 'refreshing'; stale: number; whole?: string; done: number; total: number }
  | { state: 'done'; refreshed: number; whole?: string; ms: number; counts: ReadonlyMap<string, number> }
  | { state: 'failed'; message: string };

export interface BackgroundRefresh {
  /** Cancels a refresh under way and resolves once its pytest processes are gone and its copy put away. */
  stop(): Promise<void>;
}

export interface RefreshOptions {
  repo: string;
  testArgs: readonly string[];
  python?: string;
  onStatus: (status: ReachRefreshStatus) => void;
}

/** Progress is said at most this often: a suite of thousands of tests would redraw the screen for each. */
const PROGRESS_EVERY_MS = 200;

/**
 * The start screen's refresh (issue 44): when the kept index of the scope is stale, its stale
 * tests (and those it does not know) are recorded again, as `tenet index --reach` would, while
 * the developer picks a target. Nothing is built when there is no index: a whole record costs
 * about a plain run of the suite (minutes on a large one), which nobody asked for by opening the
 * screen; `tenet index --reach` or `bench make` builds it. A fresh index is left as it is. The
 * index is replaced whole only when the refresh ends (see saveReachIndex); stop() cancels it.
 */
export function refreshInBackground(options: RefreshOptions): BackgroundRefresh {
  const repo = repositoryFolder(options.repo);
  const testArgs = [...options.testArgs];
  if (!existsSync(reachIndexFile(repo, optionsOf(repo, testArgs)))) return { stop: async () => undefined };
  const abort = new AbortController();
  let running: Extract<ReachRefreshStatus, { state: 'refreshing' }> | undefined;
  let said = 0;
  const started = Date.now();
  const work = buildReachIndex({
    repo,
    testArgs,
    jobs: 'auto',
    testTimeoutSec: THM_DEFAULTS.testTimeoutSec,
    signal: abort.signal,
    ...(options.python ? { python: options.python } : {}),
    beforeRun: (fresh) => {
      if (!fresh || (!fresh.whole && fresh.stale.size === 0)) return false;
      running = {
        state: 'refreshing',
        stale: fresh.stale.size,
        ...(fresh.whole ? { whole: fresh.whole } : {}),
        done: 0,
        total: 0,
      };
      options.onStatus(running);
      said = Date.now();
      return true;
    },
    onTest: (done, total) => {
      if (!running || Date.now() - said < PROGRESS_EVERY_MS) return;
      said = Date.now();
      options.onStatus({ ...running, done, total });
    },
  }).then(
    (built) => {
      if (built.kept || abort.signal.aborted) return;
      options.onStatus({
        state: 'done',
        refreshed: built.refreshed ?? Object.keys(built.index.tests).length,
        ...(built.whole ? { whole: built.whole } : {}),
        ms: Date.now() - started,
        counts: reachCounts(repo, testArgs) ?? new Map(),
      });
    },
    (error: unknown) => {
      if (abort.signal.aborted) return;
      const message = (error instanceof Error ? error.message : String(error)).split('\n')[0]!;
      options.onStatus({ state: 'failed', message });
    },
  );
  return {
    stop: async () => {
      abort.abort();
      await work;
    },
  };
}
