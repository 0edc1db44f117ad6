/** USD per million tokens, input and output. */
export type Price = { input: number; output: number };

/** Models tenet knows the price of, by price: input, output, then the name prefixes that cost that. */
const TABLE: [input: number, output: number, ...models: string[]][] = [
  [0.15, 0.6, 'gpt-4o-mini'],
  [2.5, 10, 'gpt-4o'],
  [0.1, 0.4, 'gpt-4.1-nano'],
  [0.4, 1.6, 'gpt-4.1-mini'],
  [2, 8, 'gpt-4.1', 'o3'],
  [1.25, 10, 'gpt-5'],
  [0.25, 2, 'gpt-5-mini'],
  [0.05, 0.4, 'gpt-5-nano'],
  [15, 60, 'o1'],
  [1.1, 4.4, 'o1-mini', 'o3-mini', 'o4-mini'],
  [0.27, 1.1, 'deepseek-chat', 'deepseek-v3'],
  [0.55, 2.19, 'deepseek-reasoner'],
  [15, 75, 'claude-opus-4'],
  [3, 15, 'claude-sonnet-4', 'claude-3-7-sonnet', 'claude-3-5-sonnet'],
  [1, 5, 'claude-haiku-4'],
  [0.8, 4, 'claude-3-5-haiku'],
  [0, 0, 'scripted'],
];

const PRICES: Record<string, Price> = Object.fromEntries(TABLE.flatMap(([input, output, ...models]) => models.map((model) => [model, { input, output }])));

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
