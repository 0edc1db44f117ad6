import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResults } from '../../source/engine/bench/run-dir';
import { runCli } from '../helpers/cli';
import type { FakeModelServer, FakeTurn } from '../helpers/fake-model-server';
import { shopScratch } from '../helpers/shop-scratch';
import { PRICES, type Provider } from '../helpers/published-prices';
import { assertSharedPrefixes } from '../helpers/shared-prefix';

// `tenet run` (the built CLI) against each fake provider, once with the provider's prompt cache and
// once against a server without one: the same conversation, so the cache is the only difference.

const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';
const TURNS: FakeTurn[] = [
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

const { scratch, repo, start, envFor } = shopScratch('tenet-cache-cost-');
const sessionsDir = join(scratch, 'sessions');
let server: FakeModelServer | undefined;

// biome-ignore lint/suspicious/noExplicitAny: wire JSON, read loosely
type Json = Record<string, any>;

async function run(provider: Provider, cache: boolean) {
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

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);

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

    await server!.close();
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

describe('a session recorded before tenet counted the cache', () => {
  it('still loads, shows, replays and reruns, and claims nothing about the cache', async () => {
    const { result, env } = await run('openai', true);
    await server!.close();
    server = undefined;
    // Strip what this version adds, as an older tenet wrote the log.
    const file = join(sessionsDir, result.sessionId, 'events.jsonl');
    const old = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => {
        const event = JSON.parse(line) as Json;
        delete event.cacheSavedUsd;
        if (event.usage) {
          delete event.usage.cacheReadTokens;
          delete event.usage.cacheWriteTokens;
        }
        return JSON.stringify(event);
      });
    writeFileSync(file, `${old.join('\n')}\n`);
    const shown = await runCli(['show', result.sessionId], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`- ${result.usage.inputTokens.toLocaleString('en')} tokens in / `);
    expect(shown.stdout).not.toContain('cache');
    const replayed = await runCli(['replay', result.sessionId, '--json'], { env });
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(JSON.parse(replayed.stdout.trim().split('\n').at(-1)!)).toMatchObject({
      type: 'result',
      usage: { inputTokens: result.usage.inputTokens },
    });
    const rerun = await runCli(['rerun', result.sessionId], { env });
    expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
    const listed = await runCli(['sessions', '--json'], { env });
    expect(listed.code).toBe(0);
  }, 120_000);
});

describe('bench run and bench report against the fake OpenAI server', () => {
  it("each result carries its cache figures, and the report's cached share and saving are their sums", async () => {
    const tasks = join(scratch, 'tasks.jsonl');
    const made = await runCli(['bench', 'make', '--repo', repo.dir, '--out', tasks, '--count', '3'], {
      env: { TENET_SESSIONS_DIR: sessionsDir },
    });
    expect(made.code, made.stderr).toBe(0);
    // Two model calls a task, one after the other: a file read, then no code (the task fails; its cost counts all the same).
    server = await start(
      Array.from({ length: 3 }, () => [
        { calls: [{ name: 'read_file', arguments: { file_name: 'shop/cart.py' } }] },
        { say: 'Not sure yet.' },
      ]).flat(),
    );
    const out = join(scratch, 'bench');
    const ran = await runCli(
      [
        'bench',
        'run',
        tasks,
        '--out',
        out,
        '--provider',
        'openai',
        '--model',
        'gpt-4.1-mini',
        '--pregen-rounds',
        '2',
        '--rrw-attempts',
        '0',
        '--json',
      ],
      { env: envFor(server) },
    );
    expect(ran.code, ran.stderr).toBe(0);
    const served = server.requests.map((r) => r.usage!);
    expect(served).toHaveLength(6);
    const results = readResults(out);
    expect(results).toHaveLength(3);
    // The results add up to what the server reported, request by request.
    const price = PRICES.openai;
    expect(sum(results.map((r) => r.usage.inputTokens))).toBe(sum(served.map((u) => u.input)));
    expect(sum(results.map((r) => r.usage.cacheReadTokens!))).toBe(sum(served.map((u) => u.cacheRead)));
    expect(sum(results.map((r) => r.costUsd))).toBeCloseTo(
      sum(
        served.map(
          (u) => ((u.input - u.cacheRead) * price.input + u.cacheRead * price.read + u.output * price.output) / 1e6,
        ),
      ),
      12,
    );
    expect(sum(results.map((r) => r.cacheSavedUsd!))).toBeCloseTo(
      sum(served.map((u) => (u.cacheRead * (price.input - price.read)) / 1e6)),
      12,
    );
    // Later tasks read the tool definitions and system prompt the first task's requests left in the cache.
    expect(results.every((r) => r.usage.cacheReadTokens! > 0)).toBe(true);

    const json = await runCli(['bench', 'report', out, '--format', 'json']);
    expect(json.code).toBe(0);
    const overall = (JSON.parse(json.stdout) as { configurations: { overall: Record<string, number> }[] })
      .configurations[0]!.overall;
    const share = sum(served.map((u) => u.cacheRead)) / sum(served.map((u) => u.input));
    expect(overall.cachedShare).toBeCloseTo(share, 12);
    expect(overall.avgCacheSavedUsd).toBeCloseTo(sum(results.map((r) => r.cacheSavedUsd!)) / 3, 12);
    const md = await runCli(['bench', 'report', out]);
    expect(md.stdout).toContain('| Cached input | Avg cost (USD) | Avg saved by caching (USD) |');
    expect(md.stdout).toContain(
      `| ${(share * 100).toFixed(2)}% | ${overall.avgCostUsd!.toFixed(4)} | ${overall.avgCacheSavedUsd!.toFixed(4)} |`,
    );
  }, 240_000);
});
