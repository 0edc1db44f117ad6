/**
 * USD per million tokens for each kind of token. `cachedInput`: input read from the provider's
 * prompt cache; `cacheWrite`: input written to it (Anthropic bills a write above the input price;
 * OpenAI writes for free). A kind left out costs what `input` costs.
 */
export type Price = { input: number; output: number; cachedInput?: number; cacheWrite?: number };

/**
 * What tenet knows of a model it names: its context window and longest answer (tokens), and its
 * published price (USD per million tokens, see Price). Matched by the longest prefix of the name
 * (modelInfo). A model missing here runs all the same: its price comes from the config's `prices`,
 * its window from `--context-window` or the config's `contextWindow`, and the run warns of what is
 * unknown.
 *
 * Windows and output limits, as each provider's model pages give them (2025):
 * - OpenAI (platform.openai.com/docs/models): GPT-4o 128k / 16,384; GPT-4.1 1,047,576 / 32,768;
 *   GPT-5 400k / 128k (gpt-5-chat 128k / 16,384); o1, o3, o3-mini, o4-mini 200k / 100k; o1-mini 128k / 65,536.
 * - DeepSeek (api-docs.deepseek.com/quick_start/pricing): 128k; deepseek-chat answers up to 8k,
 *   deepseek-reasoner up to 64k.
 * - Anthropic (docs.claude.com/en/docs/about-claude/models/overview): every model 200k; Opus 4 and
 *   4.1 answer up to 32k, Sonnet 4, Sonnet 3.7, Haiku 4.5 and Opus 4.5 up to 64k, the 3.5 models 8,192.
 * Prices: see the sources in pricing.ts.
 */
export interface ModelInfo {
  /** Tokens of one request's input and its answer together. */
  window?: number;
  /** The longest answer the model gives (its max_tokens ceiling). */
  maxOutput?: number;
  price: Price;
}

const K = 1000;

export const CATALOGUE: Record<string, ModelInfo> = {
  'gpt-4o-mini': { window: 128 * K, maxOutput: 16_384, price: { input: 0.15, cachedInput: 0.075, output: 0.6 } },
  'gpt-4o': { window: 128 * K, maxOutput: 16_384, price: { input: 2.5, cachedInput: 1.25, output: 10 } },
  'gpt-4.1-nano': { window: 1_047_576, maxOutput: 32_768, price: { input: 0.1, cachedInput: 0.025, output: 0.4 } },
  'gpt-4.1-mini': { window: 1_047_576, maxOutput: 32_768, price: { input: 0.4, cachedInput: 0.1, output: 1.6 } },
  'gpt-4.1': { window: 1_047_576, maxOutput: 32_768, price: { input: 2, cachedInput: 0.5, output: 8 } },
  'gpt-5': { window: 400 * K, maxOutput: 128 * K, price: { input: 1.25, cachedInput: 0.125, output: 10 } },
  // ChatGPT's model behind the API: GPT-5's prices, a smaller window.
  'gpt-5-chat': { window: 128 * K, maxOutput: 16_384, price: { input: 1.25, cachedInput: 0.125, output: 10 } },
  'gpt-5-mini': { window: 400 * K, maxOutput: 128 * K, price: { input: 0.25, cachedInput: 0.025, output: 2 } },
  'gpt-5-nano': { window: 400 * K, maxOutput: 128 * K, price: { input: 0.05, cachedInput: 0.005, output: 0.4 } },
  o1: { window: 200 * K, maxOutput: 100 * K, price: { input: 15, cachedInput: 7.5, output: 60 } },
  'o1-mini': { window: 128 * K, maxOutput: 65_536, price: { input: 1.1, cachedInput: 0.55, output: 4.4 } },
  o3: { window: 200 * K, maxOutput: 100 * K, price: { input: 2, cachedInput: 0.5, output: 8 } },
  'o3-mini': { window: 200 * K, maxOutput: 100 * K, price: { input: 1.1, cachedInput: 0.55, output: 4.4 } },
  'o4-mini': { window: 200 * K, maxOutput: 100 * K, price: { input: 1.1, cachedInput: 0.275, output: 4.4 } },
  'deepseek-chat': { window: 128 * K, maxOutput: 8 * K, price: { input: 0.27, cachedInput: 0.07, output: 1.1 } },
  'deepseek-v3': { window: 128 * K, maxOutput: 8 * K, price: { input: 0.27, cachedInput: 0.07, output: 1.1 } },
  'deepseek-reasoner': { window: 128 * K, maxOutput: 64 * K, price: { input: 0.55, cachedInput: 0.14, output: 2.19 } },
  'claude-opus-4': {
    window: 200 * K,
    maxOutput: 32 * K,
    price: { input: 15, cacheWrite: 18.75, cachedInput: 1.5, output: 75 },
  },
  // Opus 4.5 and later cost a third of Opus 4 and 4.1: without these the prefix above would bill them at 15.
  'claude-opus-4-5': {
    window: 200 * K,
    maxOutput: 64 * K,
    price: { input: 5, cacheWrite: 6.25, cachedInput: 0.5, output: 25 },
  },
  'claude-opus-4-6': {
    window: 200 * K,
    maxOutput: 64 * K,
    price: { input: 5, cacheWrite: 6.25, cachedInput: 0.5, output: 25 },
  },
  'claude-sonnet-4': {
    window: 200 * K,
    maxOutput: 64 * K,
    price: { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  },
  'claude-3-7-sonnet': {
    window: 200 * K,
    maxOutput: 64 * K,
    price: { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  },
  'claude-3-5-sonnet': {
    window: 200 * K,
    maxOutput: 8_192,
    price: { input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 },
  },
  'claude-haiku-4': {
    window: 200 * K,
    maxOutput: 64 * K,
    price: { input: 1, cacheWrite: 1.25, cachedInput: 0.1, output: 5 },
  },
  'claude-3-5-haiku': {
    window: 200 * K,
    maxOutput: 8_192,
    price: { input: 0.8, cacheWrite: 1, cachedInput: 0.08, output: 4 },
  },
  // The scripted stand-in has no window: its requests are never condensed unless --context-window gives one.
  scripted: { price: { input: 0, output: 0 } },
};

/** The longest key of `table` that names `model` ("deepseek/deepseek-chat-v3" → "deepseek-chat"). */
export function closestName(model: string, table: Record<string, unknown>): string | undefined {
  if (Object.hasOwn(table, model)) return model;
  const name = model.toLowerCase().replace(/^.*\//, '');
  return Object.keys(table)
    .filter((k) => name.startsWith(k.toLowerCase()))
    .sort((a, b) => b.length - a.length)[0];
}

/** What the catalogue knows of a model, or undefined. */
export function modelInfo(model: string): ModelInfo | undefined {
  const key = closestName(model, CATALOGUE);
  return key ? CATALOGUE[key] : undefined;
}
