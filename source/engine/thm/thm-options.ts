import { availableParallelism } from 'node:os';
import type { EventSink } from '../events';
import type { Sandbox } from '../sandbox/sandbox';
import type { PythonInfo } from '../task/interpreter';
import type { PreparedTarget } from '../task/prepare-target';
import type { Workspace } from '../workspace/workspace';
import type { CallerRule } from './clustering';

export interface ThmOptions {
  /** Selection budget; Infinity selects every reached failing test. */
  T: number;
  /** pytest arguments for the scope (default: the repository's own configuration). */
  testArgs: string[];
  testTimeoutSec: number;
  /** Budget for the whole THM run. */
  timeoutSec: number;
  /** pytest processes to spread the suite over; 'auto' decides from the suite's size and the cores. */
  jobs: number | 'auto';
  /**
   * Benchmark mode in one pass: a blank twin of each test forked at its first call of the target
   * (see source/python/_tenet_probe), or both worlds from one collection (`worlds`). Off
   * (`--two-pass`): a blank pass, then the failing tests on the original.
   */
  onePass: boolean;
  /**
   * Benchmark mode's two worlds from one collection, in forked lanes (see observeWorlds), instead
   * of a twin forked per test. With `onePass`; by default where the tests run in several lanes (a
   * fork per test costs more than a lane per world: networkx, 1,822 tests over 2 lanes, 25 s
   * against 31 s; jsonschema's one-directory suite 1.25 s against 8.8 s). Not where the reach
   * index vouches for the tests left to run: its record is their original world.
   */
  worlds?: boolean;
  /** How each failing test's direct caller is named (see directCaller); default `use`. */
  caller?: CallerRule;
  /**
   * Run only the tests the reach index says can fail (see reach-scope.ts), when a fresh one is
   * kept for the repository and these pytest options; false (`--no-reach`) runs the whole scope.
   */
  reach?: boolean;
  signal?: AbortSignal;
  emit?: EventSink;
}

export const THM_DEFAULTS = {
  T: 3,
  testTimeoutSec: 60,
  timeoutSec: 3600,
  jobs: 'auto' as const,
  onePass: true,
  caller: 'use' as CallerRule,
};

export interface ThmContext {
  sandbox: Sandbox;
  workspace: Workspace;
  target: PreparedTarget;
  python: PythonInfo;
}

/** Suites with fewer test files than this run in one process: a second one would only add start-up. */
const SHARDING_MIN_TEST_FILES = 12;

export function lanesForCores(): number {
  return Math.min(availableParallelism(), 4);
}

export function shardCount(jobs: number | 'auto', testFiles: number): number {
  if (jobs !== 'auto') return Math.max(1, Math.floor(jobs));
  return testFiles >= SHARDING_MIN_TEST_FILES ? Math.min(availableParallelism(), 4) : 1;
}

/**
 * Tests a judged lane should have at least: each lane is a pytest process of its own that starts,
 * imports the plugins and collects the tests' modules before its first test (about a second on
 * networkx), so a run of a few tests stays in one process, where a second would only add that.
 */
const MIN_TESTS_PER_LANE = 8;

/**
 * How many lanes a judged run of `tests` node ids (the evaluation, validation) takes: as many as
 * `--jobs` says (auto: as THM's, one per core up to 4), and no more than keeps MIN_TESTS_PER_LANE
 * in each.
 */
export function judgedLanes(jobs: number | 'auto', tests: number): number {
  const asked = jobs === 'auto' ? lanesForCores() : Math.max(1, Math.floor(jobs));
  return Math.max(1, Math.min(asked, Math.floor(tests / MIN_TESTS_PER_LANE)));
}
