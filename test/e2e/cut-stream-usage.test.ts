import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import type { FakeModelServer, FakeTurn } from '../helpers/fake-model-server';
import { shopScratch } from '../helpers/shop-scratch';
import { PRICES, type Provider } from '../helpers/published-prices';

// `tenet run` (the built CLI) whose first model answer is cut mid-stream and retried: the
// provider bills the cut attempt's tokens, so the run counts them, in every figure it reports.

const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';
const CUT = 'Let me look at subtotal first, and then at the';
const TURNS: FakeTurn[] = [
  {
    say: 'Let me look at subtotal.',
    calls: [{ name: 'search_method_in_class', arguments: { method_name: 'subtotal', class_name: 'Cart' } }],
  },
  {
    say: 'The total is the discounted subtotal.',
    calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }],
  },
];
/** Each API's way of failing mid-answer: Anthropic's overloaded_error event after message_start, OpenAI's dropped connection. */
const CUTS: Record<Provider, FakeTurn> = {
  anthropic: { say: CUT, streamError: { type: 'overloaded_error', message: 'Overloaded' } },
  // A gap between chunks, so what was written before the drop reaches the client.
  openai: { say: CUT, cut: true, chunkDelayMs: 5 },
};

type Served = { input: number; output: number; cacheRead: number; cacheWrite: number };
// biome-ignore lint/suspicious/noExplicitAny: wire JSON, read loosely
type Json = Record<string, any>;

const { scratch, repo, start, envFor } = shopScratch('tenet-cut-usage-');
let server: FakeModelServer | undefined;

const sum = (values: number[]) => values.reduce((a, b) => a + b, 0);
const costOf = (price: (typeof PRICES)[Provider], u: Served) =>
  ((u.input - u.cacheRead - u.cacheWrite) * price.input +
    u.cacheRead * price.read +
    u.cacheWrite * price.write +
    u.output * price.output) /
  1e6;

describe.each(['anthropic', 'openai'] as const)(
  'a run whose first %s answer is cut mid-stream and retried',
  (provider) => {
    it('counts the cut attempt in the tokens, the cost, the events, the result and tenet show, marked estimated', async () => {
      server = await start([CUTS[provider], ...TURNS]);
      const env = envFor(server, provider);
      const price = PRICES[provider];
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
          price.model,
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
      const result = events.at(-1)!;
      expect(events.filter((e) => e.type === 'model.retry')).toHaveLength(1);
      const [cut, ...answered] = server.requests.map((r) => r.usage!);
      expect(answered).toHaveLength(TURNS.length);

      // What the answers alone used, as the server reported it; the cut attempt comes on top.
      const extra = {
        input: result.usage.inputTokens - sum(answered.map((u) => u.input)),
        output: result.usage.outputTokens - sum(answered.map((u) => u.output)),
      };
      if (provider === 'anthropic') {
        // message_start gave the input and cache counts before the overloaded_error: those, exactly.
        expect(extra.input).toBe(cut!.input);
        expect(result.usage.cacheReadTokens).toBe(cut!.cacheRead + sum(answered.map((u) => u.cacheRead)));
        expect(result.usage.cacheWriteTokens).toBe(cut!.cacheWrite + sum(answered.map((u) => u.cacheWrite)));
      } else {
        // OpenAI's usage comes in the last chunk, which never came: the input is estimated (o200k
        // against the fake's 4 characters a token), so only its size is known here.
        expect(extra.input).toBeGreaterThan(cut!.input / 2);
        expect(extra.input).toBeLessThan(cut!.input * 2);
        expect(result.usage.cacheReadTokens).toBe(sum(answered.map((u) => u.cacheRead)));
      }
      // The output streamed before the cut, counted with the tokenizer.
      expect(extra.output).toBe(countTokens(CUT));
      expect(result.tokensEstimated).toBe(true);
      expect(events.filter((e) => e.type === 'warning').map((e) => e.message)).toContain(
        'Some token counts are estimated with the o200k_base tokenizer: the model server sent none for them (it leaves usage out, or a stream was cut before its usage came).',
      );

      // The cost prices the cut attempt's tokens, each kind at its price, as it does the answers'.
      const cutUsage = {
        input: extra.input,
        output: extra.output,
        cacheRead: provider === 'anthropic' ? cut!.cacheRead : 0,
        cacheWrite: provider === 'anthropic' ? cut!.cacheWrite : 0,
      };
      expect(result.costUsd).toBeCloseTo(costOf(price, cutUsage) + sum(answered.map((u) => costOf(price, u))), 12);
      // The events carry it: the first response's usage and cost hold the cut attempt's.
      const responses = events.filter((e) => e.type === 'model.response');
      expect(responses).toHaveLength(TURNS.length);
      expect(responses[0]!.usage).toMatchObject({
        inputTokens: extra.input + answered[0]!.input,
        outputTokens: extra.output + answered[0]!.output,
        estimated: true,
      });
      expect(sum(responses.map((e) => e.costUsd))).toBeCloseTo(result.costUsd, 12);

      // tenet show (the log folded again) says the same totals.
      const shown = await runCli(['show', result.sessionId], { env });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain(`- ${result.usage.inputTokens.toLocaleString('en')} tokens in`);
      expect(shown.stdout).toContain(`$${result.costUsd.toFixed(4)}`);
    }, 120_000);
  },
);

describe.each(['anthropic', 'openai'] as const)(
  'a run whose %s call gives up, every attempt cut mid-stream',
  (provider) => {
    it('still counts what the cut attempts used: in an event, the result, its cost and tenet show, marked estimated', async () => {
      // Two attempts (maxRetries 2), both cut: the provider error ends the run.
      server = await start([CUTS[provider], CUTS[provider]]);
      const config = join(scratch, `two-attempts-${provider}`);
      mkdirSync(join(config, 'tenet'), { recursive: true });
      writeFileSync(join(config, 'tenet', 'config.json'), JSON.stringify({ maxRetries: 2 }));
      const env = envFor(server, provider, { config: `two-attempts-${provider}` });
      const price = PRICES[provider];
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
          price.model,
          '--json',
          '--tests',
          'tests/test_cart.py',
        ],
        { env },
      );
      expect(out.code, out.stderr).toBe(3);
      const events = out.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as Json);
      const result = events.at(-1)!;
      expect(result).toMatchObject({ type: 'result', stopReason: 'error', usage: { modelCalls: 0 } });
      expect(events.filter((e) => e.type === 'model.retry')).toHaveLength(1);
      expect(events.filter((e) => e.type === 'model.response')).toHaveLength(0);
      const cuts = server.requests.map((r) => r.usage!);
      expect(cuts).toHaveLength(2);

      // One event says what the call used though it got no answer; the result counts it.
      const lost = events.filter((e) => e.type === 'model.unanswered');
      expect(lost).toHaveLength(1);
      expect(lost[0]).toMatchObject({
        reason: 'failed',
        usage: { inputTokens: result.usage.inputTokens, outputTokens: result.usage.outputTokens, estimated: true },
        costUsd: result.costUsd,
      });
      // The output streamed before each cut, counted with the tokenizer.
      expect(result.usage.outputTokens).toBe(2 * countTokens(CUT));
      if (provider === 'anthropic') {
        // message_start gave each attempt's input and cache counts before the overloaded_error: those, exactly.
        expect(result.usage.inputTokens).toBe(sum(cuts.map((u) => u.input)));
        expect(result.usage.cacheReadTokens).toBe(sum(cuts.map((u) => u.cacheRead)));
        expect(result.usage.cacheWriteTokens).toBe(sum(cuts.map((u) => u.cacheWrite)));
      } else {
        // OpenAI's usage never came: the input is estimated (o200k against the fake's 4 characters a token).
        expect(result.usage.inputTokens).toBeGreaterThan(sum(cuts.map((u) => u.input)) / 2);
        expect(result.usage.inputTokens).toBeLessThan(sum(cuts.map((u) => u.input)) * 2);
      }
      const cutUsage = {
        input: result.usage.inputTokens,
        output: result.usage.outputTokens,
        cacheRead: result.usage.cacheReadTokens ?? 0,
        cacheWrite: result.usage.cacheWriteTokens ?? 0,
      };
      expect(result.costUsd).toBeGreaterThan(0);
      expect(result.costUsd).toBeCloseTo(costOf(price, cutUsage), 12);
      expect(result.tokensEstimated).toBe(true);

      // tenet show (the log, which has no result: the session stays resumable) says what was billed.
      const shown = await runCli(['show', result.sessionId], { env });
      expect(shown.code, shown.stderr).toBe(0);
      expect(shown.stdout).toContain(
        `The model call got no answer; what it used was billed all the same: ${result.usage.inputTokens.toLocaleString('en')} tokens in`,
      );
      expect(shown.stdout).toContain(`$${result.costUsd.toFixed(4)}`);
      // The session list (the log folded) has its cost.
      const listed = await runCli(['sessions', '--json'], { env });
      expect(listed.code, listed.stderr).toBe(0);
      const row = (JSON.parse(listed.stdout) as Json[]).find((r) => r.id === result.sessionId)!;
      expect(row).toMatchObject({
        status: 'error',
        tokens: { input: result.usage.inputTokens, output: result.usage.outputTokens },
      });
      expect(row.costUsd).toBeCloseTo(result.costUsd, 12);
    }, 120_000);
  },
);
