import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { PRICES } from '../helpers/published-prices';
import { assertSharedPrefixes } from '../helpers/shared-prefix';
import { TURNS, run, closeServer, sum } from '../helpers/cache-cost';

describe.each(['openai', 'anthropic'] as const)('a run against the fake %s server', (provider) => {
  it('with the cache: cached tokens counted, a lower cost than without, and every figure adds up', async () => {
    const cached = await run(provider, true);
    const price = PRICES[provider];
    const { result, served } = cached;
    const responses = cached.events.filter((e) => e.type === 'model.response');
    expect(responses).toHaveLength(TURNS.length);
    // The result's tokens are the responses' sums, which are what the server reported.
    const usage = result.usage;
    expect(usage.inputTokens).toBe(sum(served.map((u) => u.input)));
    expect(usage.outputTokens).toBe(sum(served.map((u) => u.output)));
    expect(usage.cacheReadTokens).toBe(sum(served.map((u) => u.cacheRead)));
    expect(usage.cacheWriteTokens).toBe(sum(served.map((u) => u.cacheWrite)));
    expect([usage.inputTokens, usage.cacheReadTokens, usage.cacheWriteTokens]).toEqual([
      sum(responses.map((e) => e.usage.inputTokens)),
      sum(responses.map((e) => e.usage.cacheReadTokens)),
      sum(responses.map((e) => e.usage.cacheWriteTokens)),
    ]);
    expect(usage.cacheReadTokens).toBeGreaterThan(0);
    if (provider === 'anthropic') expect(usage.cacheWriteTokens).toBeGreaterThan(0);
    // Each kind at its price, by hand.
    const cost = sum(
      served.map(
        (u) =>
          ((u.input - u.cacheRead - u.cacheWrite) * price.input +
            u.cacheRead * price.read +
            u.cacheWrite * price.write +
            u.output * price.output) /
          1e6,
      ),
    );
    const uncachedCost = sum(served.map((u) => (u.input * price.input + u.output * price.output) / 1e6));
    expect(result.costUsd).toBeCloseTo(cost, 12);
    expect(result.costUsd).toBeCloseTo(sum(responses.map((e) => e.costUsd)), 12);
    expect(result.cacheSavedUsd).toBeCloseTo(uncachedCost - cost, 12);
    expect(result.cacheSavedUsd).toBeCloseTo(sum(responses.map((e) => e.cacheSavedUsd)), 12);
    if (provider === 'openai') assertSharedPrefixes(cached.fake);

    await closeServer();
    const plain = await run(provider, false);
    // The same conversation, token for token; only the cache differs.
    expect(plain.result.usage).toMatchObject({
      inputTokens: usage.inputTokens,
      outputTokens: usage.outputTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
    });
    expect(plain.result.cacheSavedUsd).toBe(0);
    expect(result.costUsd).toBeLessThan(plain.result.costUsd);
    expect(result.costUsd + result.cacheSavedUsd).toBeCloseTo(plain.result.costUsd, 12);

    // `tenet show` says it: the share read from the cache, and what it saved.
    const shown = await runCli(['show', result.sessionId], { env: cached.env });
    expect(shown.code).toBe(0);
    const share = Math.round((100 * usage.cacheReadTokens) / usage.inputTokens);
    expect(shown.stdout).toContain(`- ${usage.inputTokens.toLocaleString('en')} tokens in (${share}% from cache`);
    expect(shown.stdout).toContain(`(caching saved $${result.cacheSavedUsd.toFixed(4)})`);
  }, 120_000);
});
