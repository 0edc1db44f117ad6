import { CATALOGUE, closestName } from './catalogue';

export type { Price } from './catalogue';
import type { Price } from './catalogue';

/**
 * Published prices of the models tenet knows, from the model catalogue (catalogue.ts, the one table
 * of what tenet knows of a model), matched by the longest prefix of the name.
 * - OpenAI: platform.openai.com/docs/pricing, the Input / Cached input / Output columns (standard
 *   tier, as listed mid-2025; o3 after its June 2025 cut).
 * - DeepSeek: api-docs.deepseek.com/quick_start/pricing-details-usd (input on a cache hit / on a
 *   miss / output; its API reports hits as prompt_cache_hit_tokens).
 * - Anthropic: platform.claude.com/docs/en/build-with-claude/prompt-caching ("Pricing": a
 *   5-minute cache write costs 1.25x the input price, a cache read 0.1x) and its models' input and
 *   output prices; the same figures as GitHub's docs/data/tables/copilot/models-and-pricing.yml.
 *   tenet's breakpoints use the default 5-minute TTL.
 */
export const PRICES: Record<string, Price> = Object.fromEntries(
  Object.entries(CATALOGUE).map(([name, info]) => [name, info.price]),
);

/** The price of a model: the configured override, else the longest known prefix of its name. */
export function priceOf(model: string, overrides: Record<string, Price> = {}): Price | undefined {
  const table = { ...PRICES, ...overrides };
  const key = closestName(model, table); // "deepseek/deepseek-chat" → "deepseek-chat"
  return key ? table[key] : undefined;
}

/**
 * A model with no known price: its calls count as $0, which must not pass for "free", so the
 * run warns once and the totals say the cost is incomplete.
 */
export interface Unpriced {
  unpriced: true;
  model: string;
}

/** What a run prices its calls with; undefined: nothing to price (a replay of a recorded session). */
export type Pricing = Price | Unpriced;

export const isUnpriced = (price: Pricing | undefined): price is Unpriced => !!price && 'unpriced' in price;

export function unpricedWarning(model: string): string {
  return (
    `No price is known for model ${model}: its cost is not counted (shown as $0). ` +
    `Set it in .tenet.json or ~/.config/tenet/config.json: "prices": {"${model}": {"input": 0.5, "cachedInput": 0.25, "output": 1.5}} (USD per million tokens).`
  );
}

type Tokens = { inputTokens: number; outputTokens: number; cacheReadTokens?: number; cacheWriteTokens?: number };

/** A call's cost, each kind of token at its price: input not cached, read from the cache, written to it, output. */
export function costOf(price: Pricing | undefined, usage: Tokens): number {
  if (!price || isUnpriced(price)) return 0;
  const read = usage.cacheReadTokens ?? 0;
  const written = usage.cacheWriteTokens ?? 0;
  const fresh = Math.max(0, usage.inputTokens - read - written);
  return (
    (fresh * price.input +
      read * (price.cachedInput ?? price.input) +
      written * (price.cacheWrite ?? price.input) +
      usage.outputTokens * price.output) /
    1_000_000
  );
}

/**
 * What caching saved on a call: its cost with every input token at the input price, less its
 * cost. Negative when a call wrote to the cache (Anthropic's write premium) and nothing read it.
 */
export function cacheSavingOf(price: Pricing | undefined, usage: Tokens): number {
  if (!price || isUnpriced(price)) return 0;
  return costOf(price, { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }) - costOf(price, usage);
}
