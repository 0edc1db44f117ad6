import { repositoryFolder } from '../util/checked-paths';
import { recordReach, type RecordedReach, type RecordOptions } from './reach-record';
import { loadReachIndex, reachIndexFile, saveReachIndex } from './reach-index';
import { optionsOf } from './reach-use';

export interface ReachBuildOptions {
  repo: string;
  python?: string;
  testArgs: string[];
  jobs: number | 'auto';
  testTimeoutSec: number;
  /** Record every test again, whatever the kept index says. */
  anew?: boolean;
  signal?: AbortSignal;
  onTest?: (done: number, total: number) => void;
  /** Told what is stale before anything runs; false keeps the index as it is (see RecordOptions). */
  beforeRun?: RecordOptions['beforeRun'];
}

/**
 * `tenet index --reach`: records the reach index of a repository's scope, or refreshes the one
 * kept for it (only its stale tests, and the tests it does not know, run again), and keeps it in
 * tenet's cache folder for THM to use.
 */
export async function buildReachIndex(options: ReachBuildOptions): Promise<RecordedReach & { file: string }> {
  const repoDir = repositoryFolder(options.repo);
  const file = reachIndexFile(repoDir, optionsOf(repoDir, options.testArgs));
  const previous = options.anew ? undefined : loadReachIndex(file);
  const recorded = await recordReach({
    repoDir,
    testArgs: options.testArgs,
    jobs: options.jobs,
    testTimeoutSec: options.testTimeoutSec,
    ...(options.python ? { python: options.python } : {}),
    ...(previous ? { previous } : {}),
    ...(options.signal ? { signal: options.signal } : {}),
    ...(options.onTest ? { onTest: options.onTest } : {}),
    ...(options.beforeRun ? { beforeRun: options.beforeRun } : {}),
  });
  // Written whole or not at all (saveReachIndex renames a finished file): a cancelled run never gets here.
  if (!recorded.kept) saveReachIndex(file, recorded.index);
  return { ...recorded, file };
}
