import { cacheShare } from './usage-sums';

/**
 * How tokens, the prompt cache and money are worded wherever a run is shown (the headless printer,
 * `tenet show`, the result screen, the TUI footer), so the figures read the same everywhere.
 */

/** Dollars: four decimals below a dollar (one call costs fractions of a cent), two above. */
export const money = (usd: number): string => `$${usd.toFixed(usd < 1 ? 4 : 2)}`;

const whole = (n: number) => n.toLocaleString('en');

/**
 * `12,345 tokens in (80% from cache, 1,200 written to it)`. A session recorded before tenet
 * counted the cache has no cache counts, and says nothing about the cache.
 */
export function tokensIn(usage: { inputTokens: number; cacheReadTokens?: number | undefined; cacheWriteTokens?: number | undefined }): string {
  const text = `${whole(usage.inputTokens)} tokens in`;
  if (usage.cacheReadTokens === undefined) return text;
  const share = cacheShare(usage);
  const parts = [...(share === null ? [] : [`${Math.round(share * 100)}% from cache`]), ...(usage.cacheWriteTokens ? [`${whole(usage.cacheWriteTokens)} written to it`] : [])];
  return parts.length ? `${text} (${parts.join(', ')})` : text;
}

/** `12,345 tokens in (80% from cache) / 500 out`. */
export function tokensInOut(usage: { inputTokens: number; outputTokens: number; cacheReadTokens?: number | undefined; cacheWriteTokens?: number | undefined }): string {
  return `${tokensIn(usage)} / ${whole(usage.outputTokens)} out`;
}

/** A cost and what the prompt cache did to it: `$0.0123 (caching saved $0.0301)`; the cost alone when nothing is known or nothing changed. */
export function costText(costUsd: number, cacheSavedUsd?: number): string {
  if (!cacheSavedUsd || Math.abs(cacheSavedUsd) < 0.00005) return money(costUsd);
  return cacheSavedUsd > 0 ? `${money(costUsd)} (caching saved ${money(cacheSavedUsd)})` : `${money(costUsd)} (cache writes added ${money(-cacheSavedUsd)})`;
}
