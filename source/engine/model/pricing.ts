/** USD per million tokens, input and output, for models tenet knows (prefix match on the name). */
export type Price = { input: number; output: number };

export const PRICES: Record<string, Price> = {
  'gpt-4o-mini': { input: 0.15, output: 0.6 },
  'gpt-4o': { input: 2.5, output: 10 },
  'gpt-4.1-nano': { input: 0.1, output: 0.4 },
  'gpt-4.1-mini': { input: 0.4, output: 1.6 },
  'gpt-4.1': { input: 2, output: 8 },
  'gpt-5': { input: 1.25, output: 10 },
  'gpt-5-mini': { input: 0.25, output: 2 },
  'gpt-5-nano': { input: 0.05, output: 0.4 },
  o1: { input: 15, output: 60 },
  'o1-mini': { input: 1.1, output: 4.4 },
  o3: { input: 2, output: 8 },
  'o3-mini': { input: 1.1, output: 4.4 },
  'o4-mini': { input: 1.1, output: 4.4 },
  'deepseek-chat': { input: 0.27, output: 1.1 },
  'deepseek-v3': { input: 0.27, output: 1.1 },
  'deepseek-reasoner': { input: 0.55, output: 2.19 },
  'claude-opus-4': { input: 15, output: 75 },
  'claude-sonnet-4': { input: 3, output: 15 },
  'claude-3-7-sonnet': { input: 3, output: 15 },
  'claude-3-5-sonnet': { input: 3, output: 15 },
  'claude-haiku-4': { input: 1, output: 5 },
  'claude-3-5-haiku': { input: 0.8, output: 4 },
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
    `Set it in .tenet.json or ~/.config/tenet/config.json: "prices": {"${model}": {"input": 0.5, "output": 1.5}} (USD per million tokens).`
  );
}

export function costOf(price: Pricing | undefined, usage: { inputTokens: number; outputTokens: number }): number {
  if (!price || isUnpriced(price)) return 0;
  return (usage.inputTokens * price.input + usage.outputTokens * price.output) / 1_000_000;
}
