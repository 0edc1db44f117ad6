/**
 * USD per million tokens for each kind of token. `cachedInput`: input read from the provider's
 * prompt cache; `cacheWrite`: input written to it (Anthropic bills a write above the input price;
 * OpenAI writes for free). A kind left out costs what `input` costs.
 */
export type Price = { input: number; output: number; cachedInput?: number; cacheWrite?: number };

/**
 * Published prices of the models tenet knows, matched by the longest prefix of the name.
 * - OpenAI: platform.openai.com/docs/pricing, the Input / Cached input / Output columns (standard
 *   tier, as listed mid-2025; o3 after its June 2025 cut).
 * - DeepSeek: api-docs.deepseek.com/quick_start/pricing-details-usd (input on a cache hit / on a
 *   miss / output; its API reports hits as prompt_cache_hit_tokens).
 * - Anthropic: platform.claude.com/docs/en/build-with-claude/prompt-caching ("Pricing": a
 *   5-minute cache write costs 1.25x the input price, a cache read 0.1x) and its models' input and
 *   output prices; the same figures as GitHub's docs/data/tables/copilot/models-and-pricing.yml.
 *   tenet's breakpoints use the default 5-minute TTL.
 */
export const PRICES: Record<string, Price> = {
  'gpt-4o-mini': { input: 0.15, cachedInput: 0.075, output: 0.6 },
  'gpt-4o': { input: 2.5, cachedInput: 1.25, output: 10 },
  'gpt-4.1-nano': { input: 0.1, cachedInput: 0.025, output: 0.4 },
  'gpt-4.1-mini': { input: 0.4, cachedInput: 0.1, output: 1.6 },
  'gpt-4.1': { input: 2, cachedInput: 0.5, output: 8 },
  'gpt-5': { input: 1.25, cachedInput: 0.125, output: 10 },
  'gpt-5-mini': { input: 0.25, cachedInput: 0.025, output: 2 },
  'gpt-5-nano': { input: 0.05, cachedInput: 0.005, output: 0.4 },
  o1: { input: 15, cachedInput: 7.5, output: 60 },
  'o1-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  o3: { input: 2, cachedInput: 0.5, output: 8 },
  'o3-mini': { input: 1.1, cachedInput: 0.55, output: 4.4 },
  'o4-mini': { input: 1.1, cachedInput: 0.275, output: 4.4 },
  'deepseek-chat': { input: 0.27, cachedInput: 0.07, output: 1.1 },
  'deepseek-v3': { input: 0.27, cachedInput: 0.07, output: 1.1 },
  'deepseek-reasoner': { input: 0.55, cachedInput: 0.14, output: 2.19 },
  'claude-opus-4': { input: 15, cacheWrite: 18.75, cachedInput: 1.5, output: 75 },
  // Opus 4.5 and later cost a third of Opus 4 and 4.1: without these the prefix above would bill them at 15.
  'claude-opus-4-5': { input: 5, cacheWrite: 6.25, cachedInput: 0.5, output: 25 },
  'claude-opus-4-6': { input: 5, cacheWrite: 6.25, cachedInput: 0.5, output: 25 },
  'claude-sonnet-4': { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  'claude-3-7-sonnet': { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  'claude-3-5-sonnet': { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  'claude-haiku-4': { input: 1, cacheWrite: 1.25, cachedInput: 0.1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, cacheWrite: 1, cachedInput: 0.08, output: 4 },
  scripted: { input: 0, output: 0 },
};

/** The price of a model: the configured override, else the longest known prefix of its name. */
export function priceOf(model: string, overrides: Record<string, Price> = {}): Price | undefined {
  const table = { ...PRICES, ...overrides };
  if (table[model]) return table[model];
  const name = model.toLowerCase().replace(/^.*\//, ''); // "deepseek/deepseek-chat" → "deepseek-chat"
  const key = Object.keys(table)
    .filter((k) => name.startsWith(k.toLowerCase()))
    .sort((a, b) => b.length - a.length)[0];
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
  return (fresh * price.input + read * (price.cachedInput ?? price.input) + written * (price.cacheWrite ?? price.input) + usage.outputTokens * price.output) / 1_000_000;
}

/**
 * What caching saved on a call: its cost with every input token at the input price, less its
 * cost. Negative when a call wrote to the cache (Anthropic's write premium) and nothing read it.
 */
export function cacheSavingOf(price: Pricing | undefined, usage: Tokens): number {
  if (!price || isUnpriced(price)) return 0;
  return costOf(price, { inputTokens: usage.inputTokens, outputTokens: usage.outputTokens }) - costOf(price, usage);
}
