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
   * Benchmark mode in one pass: fork a blank twin of each test at its first call of the target
   * (see source/python/_tenet_probe). Off: a blank pass, then the failing tests on the original.
   */
  fork: boolean;
  /**
   * Benchmark mode's two worlds from one collection, in forked lanes (see observeWorlds), instead
   * of a twin forked per test. With `fork`; by default where the tests run in several lanes (a
   * fork per test costs more than a lane per world: networkx, 1,822 tests over 2 lanes, 25 s
   * against 31 s; jsonschema's one-directory suite 1.25 s against 8.8 s), except where the reach
   * index left few tests that are slow to reach the target (see twinsPay in reach-scope.ts).
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
  fork: true,
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
