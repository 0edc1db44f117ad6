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

/**
 * The token limit a request of `input` tokens would pass, and the words that say so: a limit stops
 * the session before the call that would pass it, and a request's input is known before it goes.
 * Checked on what was spent alone, a call that went out at 5,188 of 8,000 tokens with 3,150 of input
 * ended the session at 8,368 (issue 46.13). Undefined when the request fits.
 */
export function requestPastLimit(
  limits: SpendLimits | undefined,
  sums: UsageSums,
  input: number,
): { reached: LimitReached; message: string } | undefined {
  const max = limits?.maxTokens;
  const spent = tokensSpent(sums);
  if (max === undefined || spent + input <= max) return undefined;
  const n = (v: number) => v.toLocaleString('en-US');
  return {
    reached: { limit: 'tokens', spent, max },
    message: `The next model call's request is about ${n(input)} input tokens, more than the ${n(Math.max(0, max - spent))} left of the session's limit of ${n(max)} tokens: it is not made.`,
  };
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
