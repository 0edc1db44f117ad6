import type { PluginCollectError, PluginTestEvent } from './plugin-lines';
import type { PassResult } from './pass-types';

export type Observed = PluginTestEvent | PluginCollectError;

const FAILED = new Set(['failed', 'error']);

/** Whether a test failed or errored, or is a module that failed to import. */
export const failed = (event: Observed | undefined): boolean =>
  !!event && (event.e === 'collecterror' || FAILED.has(event.outcome));

/** Whether a test failed in a world whose outcomes are `tests` and whose modules failed to import with `errors`. */
export const failsIn =
  (tests: ReadonlyMap<string, PluginTestEvent>, errors: readonly PluginCollectError[]) =>
  (nodeid: string): boolean =>
    failed(tests.get(nodeid)) || errors.some((c) => c.nodeid === nodeid);

/**
 * What THM observed, per world: `blank` holds every test's outcome with the target unimplemented
 * (with its chain); `originalFailed` tells, for tests that failed blank, whether they fail on
 * the original code too (benchmark mode only).
 */
export interface Observations {
  /** Tests in scope in the blank world (a module that fails to import blank has none). */
  collected: number;
  blank: Map<string, PluginTestEvent>;
  blankCollectErrors: PluginCollectError[];
  /** Tests of modules that fail to import blank, as the original world ran them (see firstUsersReach). */
  importedAway: PluginTestEvent[];
  originalFailed: (nodeid: string) => boolean;
  /** Of the tests that failed blank, how many took their outcome on the original code from the reach index. */
  recordedOriginals?: number;
  probe: PassResult;
}
