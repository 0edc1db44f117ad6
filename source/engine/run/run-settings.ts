import { TDD_PAPER_BUDGET } from '../agent/tdd-strategy';
import { PAPER_BUDGET } from '../agent/tenet-strategy';
import type { TenetConfig } from '../config/config';
import type { EventOf } from '../events';
import type { Ablations, Budget, Selection, SpendLimits, Strategy, TddBudget, TestStage } from '../protocol/settings';
import type { CallerRule } from '../thm/clustering';
import { THM_DEFAULTS } from '../thm/run-thm';

/**
 * How a run works, whatever its task: THM's settings, the strategy and its budgets, the
 * ablations. `tenet run` and `demo` take it from flags, `resume` and `rerun` from the session's
 * record, `bench run` from its flags for every task; the session records it.
 */
export interface RunSettings {
  /** THM's selection budget; Infinity for every reached failing test. */
  T: number;
  /** pytest processes THM shards the suite over. */
  jobs: number | 'auto';
  /** Benchmark mode in one pass (a blank twin per test, or both worlds from one collection); false: `--two-pass`. */
  onePass: boolean;
  /** How THM names each failing test's direct caller. */
  caller: CallerRule;
  /** THM runs only the tests the reach index says can fail (false: `--no-reach`). */
  reach: boolean;
  testTimeoutSec: number;
  thmTimeoutSec: number;
  strategy: Strategy;
  budget: Budget;
  tddBudget: TddBudget;
  /** TDD strategies: measure the agent's tests (coverage, mutation score) at the end. */
  measureTests: boolean;
  /** RQ4 ablation: how the tests the agent gets are chosen. */
  select: Selection;
  /** RQ5 ablation: when the tests take part. */
  testStage: TestStage;
  ablations: Ablations;
  /** What the session may spend on its model (none set: no limit). */
  limits: SpendLimits;
}

/** Settings as a command line or a record gives them: each one missing comes from the config files, then the defaults. */
export type RunChoices = {
  [K in keyof RunSettings]?: RunSettings[K] extends object ? Partial<RunSettings[K]> : RunSettings[K];
};

/** Choices first, then the config files, then the defaults (THM's, and the papers' budgets). */
export function resolveSettings(choices: RunChoices, config: TenetConfig): RunSettings {
  return {
    T: choices.T ?? THM_DEFAULTS.T,
    jobs: choices.jobs ?? THM_DEFAULTS.jobs,
    onePass: choices.onePass ?? THM_DEFAULTS.onePass,
    caller: choices.caller ?? THM_DEFAULTS.caller,
    reach: choices.reach ?? true,
    testTimeoutSec: choices.testTimeoutSec ?? config.testTimeout ?? THM_DEFAULTS.testTimeoutSec,
    thmTimeoutSec: choices.thmTimeoutSec ?? THM_DEFAULTS.timeoutSec,
    strategy: choices.strategy ?? config.strategy ?? 'tenet',
    budget: {
      pregenRounds: choices.budget?.pregenRounds ?? config.pregenRounds ?? PAPER_BUDGET.pregenRounds,
      rrwAttempts: choices.budget?.rrwAttempts ?? config.rrwAttempts ?? PAPER_BUDGET.rrwAttempts,
      rrwRounds: choices.budget?.rrwRounds ?? config.rrwRounds ?? PAPER_BUDGET.rrwRounds,
    },
    tddBudget: {
      setupRounds: choices.tddBudget?.setupRounds ?? TDD_PAPER_BUDGET.setupRounds,
      iterations: choices.tddBudget?.iterations ?? config.tddIterations ?? TDD_PAPER_BUDGET.iterations,
      roundsPerIteration: choices.tddBudget?.roundsPerIteration ?? TDD_PAPER_BUDGET.roundsPerIteration,
    },
    measureTests: choices.measureTests ?? true,
    select: choices.select ?? 'thm',
    testStage: choices.testStage ?? 'all',
    ablations: {
      noThm: choices.ablations?.noThm ?? false,
      noApis: choices.ablations?.noApis ?? false,
      noRrw: choices.ablations?.noRrw ?? false,
    },
    // Each limit from the flags, else the config files.
    limits: {
      ...((choices.limits?.maxCostUsd ?? config.limits?.maxCost) !== undefined
        ? { maxCostUsd: (choices.limits?.maxCostUsd ?? config.limits?.maxCost)! }
        : {}),
      ...((choices.limits?.maxTokens ?? config.limits?.maxTokens) !== undefined
        ? { maxTokens: (choices.limits?.maxTokens ?? config.limits?.maxTokens)! }
        : {}),
    },
  };
}

/** The settings a session recorded; what an older session did not record is chosen as for a new run. */
export function recordedChoices(start: EventOf<'session.start'>): RunChoices {
  const c = start.config;
  return {
    ...(c.T !== undefined ? { T: c.T === 'all' ? Infinity : c.T } : {}),
    jobs: c.jobs,
    onePass: c.onePass,
    ...(c.caller ? { caller: c.caller } : {}),
    ...(c.reach === false ? { reach: false } : {}),
    testTimeoutSec: c.testTimeoutSec,
    strategy: start.strategy,
    budget: c.budget,
    tddBudget: c.tddBudget,
    select: c.select,
    testStage: c.testStage,
    ablations: c.ablations,
    ...(c.limits ? { limits: c.limits } : {}),
  };
}
