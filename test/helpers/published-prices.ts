/**
 * USD per million tokens, as published, for the models the cost tests run (see
 * source/engine/model/pricing.ts): written out here so a test checks tenet's sums against the
 * providers' figures, not against tenet's own table.
 */
export const PRICES = {
  openai: { model: 'gpt-4.1-mini', input: 0.4, read: 0.1, write: 0.4, output: 1.6 },
  anthropic: { model: 'claude-sonnet-4-6', input: 3, read: 0.3, write: 3.75, output: 15 },
} as const;

export type Provider = keyof typeof PRICES;
