import { AgentStop } from '../errors';
import type { SpendLimits } from '../protocol/settings';
import type { UsageSums } from './usage-sums';

export type { SpendLimits };

/** A limit met: which one, what was spent, and the limit. */
export interface LimitReached {
  limit: 'cost' | 'tokens';
  spent: number;
  max: number;
}

export const tokensSpent = (sums: UsageSums): number => sums.inputTokens + sums.outputTokens;

/** The first limit the sums have reached, if any: the session makes no more model calls then. */
export function limitReached(limits: SpendLimits | undefined, sums: UsageSums): LimitReached | undefined {
  if (limits?.maxCostUsd !== undefined && sums.costUsd >= limits.maxCostUsd)
    return { limit: 'cost', spent: sums.costUsd, max: limits.maxCostUsd };
  if (limits?.maxTokens !== undefined && tokensSpent(sums) >= limits.maxTokens)
    return { limit: 'tokens', spent: tokensSpent(sums), max: limits.maxTokens };
  return undefined;
}

/** What is left of each limit that is set (never below 0). */
export function remaining(limits: SpendLimits | undefined, sums: UsageSums): { costUsd?: number; tokens?: number } {
  return {
    ...(limits?.maxCostUsd !== undefined ? { costUsd: Math.max(0, limits.maxCostUsd - sums.costUsd) } : {}),
    ...(limits?.maxTokens !== undefined ? { tokens: Math.max(0, limits.maxTokens - tokensSpent(sums)) } : {}),
  };
}

/**
 * Thrown before a model call the limits forbid: the run stops there, with what it has (see
 * run/run-agent.ts). The limit.reached event has said so.
 */
export class SpendLimitError extends AgentStop {
  constructor(readonly reached: LimitReached) {
    super(
      `the session's ${reached.limit === 'cost' ? 'cost' : 'token'} limit is reached`,
      reached.limit === 'cost' ? 'cost-limit' : 'token-limit',
    );
    this.name = 'SpendLimitError';
  }
}

/** A run a spend limit stopped: it exits 1 whatever its evaluation found (it did not end by itself). */
export const stoppedByLimit = (result: { stopReason: string }): boolean =>
  result.stopReason === 'cost-limit' || result.stopReason === 'token-limit';
