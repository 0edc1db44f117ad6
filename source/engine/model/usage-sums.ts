import type { Usage } from '../protocol/messages';

/**
 * A session's model calls added up: tokens of each kind, cost, and what the prompt cache saved.
 * One function adds a call, so the conversation, a folded log, a failed run's tally and the TUI
 * count the same way; a call recorded before tenet counted the cache adds 0 to the cache sums.
 */
export interface UsageSums {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens: number;
  cacheWriteTokens: number;
  costUsd: number;
  cacheSavedUsd: number;
  /** Some call reported its cache counts: without one (a scripted model, an older session) the cache sums say nothing, and are not shown. */
  cacheCounted: boolean;
}

export const noUsage = (): UsageSums => ({
  inputTokens: 0,
  outputTokens: 0,
  cacheReadTokens: 0,
  cacheWriteTokens: 0,
  costUsd: 0,
  cacheSavedUsd: 0,
  cacheCounted: false,
});

/** A conversation's counts: the usage sums and the calls and rounds, with what makes them approximate. */
export interface Totals extends UsageSums {
  modelCalls: number;
  toolCalls: number;
  rounds: number;
  /** Some calls were not priced (unknown model): costUsd leaves them out. */
  unpriced?: boolean;
  /** Some token counts were estimated (the server sent none). */
  estimatedTokens?: boolean;
}

export const newTotals = (): Totals => ({ ...noUsage(), modelCalls: 0, toolCalls: 0, rounds: 0 });

/** Adds one model call (a `model.response` event, or a response and its price). */
export function addCall(
  sums: UsageSums,
  call: { usage: Usage; costUsd: number; cacheSavedUsd?: number | undefined },
): void {
  sums.inputTokens += call.usage.inputTokens;
  sums.outputTokens += call.usage.outputTokens;
  sums.cacheReadTokens += call.usage.cacheReadTokens ?? 0;
  sums.cacheWriteTokens += call.usage.cacheWriteTokens ?? 0;
  sums.costUsd += call.costUsd;
  sums.cacheSavedUsd += call.cacheSavedUsd ?? 0;
  if (call.usage.cacheReadTokens !== undefined) sums.cacheCounted = true;
}

/** The sums as a usage to show: the cache counts only when some call reported them. */
export function shownUsage(sums: UsageSums): {
  inputTokens: number;
  outputTokens: number;
  cacheReadTokens?: number;
  cacheWriteTokens?: number;
} {
  const { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens } = sums;
  return sums.cacheCounted
    ? { inputTokens, outputTokens, cacheReadTokens, cacheWriteTokens }
    : { inputTokens, outputTokens };
}

/** A run's result figures (`usage`, `costUsd`, and `cacheSavedUsd` when the cache was counted) from its sums and call counts. */
export function resultUsage(sums: UsageSums, modelCalls: number, toolCalls: number) {
  return {
    usage: { ...shownUsage(sums), modelCalls, toolCalls },
    costUsd: sums.costUsd,
    ...(sums.cacheCounted ? { cacheSavedUsd: sums.cacheSavedUsd } : {}),
  };
}
