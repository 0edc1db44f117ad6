import { join } from 'node:path';
import { expect } from 'vitest';
import { runCli } from './cli';
import type { FakeModelServer, FakeTurn } from './fake-model-server';
import { shopScratch } from './shop-scratch';
import { PRICES, type Provider } from './published-prices';

// Runs against the fake providers with and without their prompt cache: shared by test/e2e/cache-cost*.test.ts.
// `tenet run` (the built CLI) against each fake provider, once with the provider's prompt cache and
// once against a server without one: the same conversation, so the cache is the only difference.

export const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';
export const TURNS: FakeTurn[] = [
  {
    say: 'Let me look at subtotal and at the tests.',
    calls: [
      { name: 'search_method_in_class', arguments: { method_name: 'subtotal', class_name: 'Cart' } },
      { name: 'search_code', arguments: { code_str: 'def test_summary' } },
    ],
  },
  { say: 'And how discount is applied.', calls: [{ name: 'search_method', arguments: { method_name: 'discount' } }] },
  {
    say: 'The total is the discounted subtotal.',
    calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }],
  },
];

export const { scratch, repo, start, envFor } = shopScratch('tenet-cache-cost-');
export const sessionsDir = join(scratch, 'sessions');
let server: FakeModelServer | undefined;
/** Closes the fake server the last run started. */
export async function closeServer(): Promise<void> {
  await server?.close();
  server = undefined;
}

// biome-ignore lint/suspicious/noExplicitAny: wire JSON, read loosely
export type Json = Record<string, any>;

export async function run(provider: Provider, cache: boolean) {
  server = await start(TURNS, { cache });
  const env = envFor(server, provider);
  const out = await runCli(
    [
      'run',
      '--repo',
      repo.dir,
      '--target',
      'shop/cart.py::Cart.total',
      '--blank',
      '-T',
      '2',
      '--provider',
      provider,
      '--model',
      PRICES[provider].model,
      '--json',
      '--tests',
      'tests/test_cart.py',
    ],
    { env },
  );
  expect(out.code, out.stderr).toBe(0);
  const events = out.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as Json);
  const served = server.requests.map((r) => r.usage!);
  return { events, result: events.at(-1)!, served, env, fake: server };
}

export const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
