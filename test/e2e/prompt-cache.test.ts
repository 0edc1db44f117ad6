import { afterEach, describe, expect, it } from 'vitest';
import { Conversation } from '../../source/engine/agent/conversation';
import type { EngineEvent } from '../../source/engine/events';
import { anthropicUsage } from '../../source/engine/model/anthropic-cache';
import { AnthropicModel } from '../../source/engine/model/anthropic-provider';
import { OpenAiModel, openAiUsage } from '../../source/engine/model/openai-provider';
import { priceOf } from '../../source/engine/model/pricing';
import type { Model } from '../../source/engine/model/types';
import type { Message } from '../../source/engine/protocol/messages';
import type { ToolContext } from '../../source/engine/tools/context';
import { toolDefinitions } from '../../source/engine/tools/registry';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { MIN_CACHED_TOKENS } from '../helpers/fake-prompt-cache';
import { assertSharedPrefixes } from '../helpers/shared-prefix';

// Prompt caching through the real SDKs, against the fake server's caches (which follow each API's
// documented rules): what the providers send, and what they make of the usage they get back.

let server: FakeModelServer;
afterEach(() => server?.close());

const settings = (base: string, model: string) => ({
  model,
  apiKey: 'sk-test',
  baseUrl: base,
  timeoutMs: 5000,
  retry: { maxAttempts: 2, baseDelayMs: 10, maxDelayMs: 20 },
});
/** A system prompt long enough to be cached on its own (the fake counts 4 characters a token). */
const SYSTEM = `You implement one Python function. ${'Read the tests before you write code. '.repeat(120)}`;
const TOOLS = toolDefinitions(['search_class', 'search_method', 'read_file']);

/** Text-only rounds of a real Conversation: the requests grow as a session's do. */
async function rounds(model: Model, count: number, price = priceOf(model.name)) {
  const events: EngineEvent[] = [];
  const conversation = new Conversation({
    model,
    system: SYSTEM,
    ctx: {} as ToolContext,
    emit: (e) => events.push(e),
    price,
    temperature: 0,
    maxTokens: 64,
  });
  conversation.say('Implement `tax_for`.');
  for (let i = 0; i < count; i++) {
    await conversation.round([]);
    conversation.say(`Round ${i + 2}: go on.`);
  }
  return {
    totals: conversation.totals,
    responses: events.filter((e): e is Extract<EngineEvent, { type: 'model.response' }> => e.type === 'model.response'),
  };
}

describe('OpenAI: the cache is automatic; tenet reads what it saved', () => {
  it("a session's later requests read their shared prefix from the cache, counted and priced as cached input", async () => {
    server = await startFakeModelServer([{ say: 'one' }, { say: 'two' }, { say: 'three' }]);
    const { totals, responses } = await rounds(new OpenAiModel(settings(`${server.url}/v1`, 'gpt-4.1-mini')), 3);
    const served = server.requests.map((r) => r.usage!);
    expect(served[0]!.cacheRead).toBe(0);
    expect(served[1]!.cacheRead).toBeGreaterThanOrEqual(MIN_CACHED_TOKENS);
    // In steps of 128 tokens: a round that added a few words may read no more than the one before.
    expect(served[2]!.cacheRead).toBeGreaterThanOrEqual(served[1]!.cacheRead);
    // Each response records what the server said: all input, of it the part read from the cache.
    expect(responses.map((r) => [r.usage.inputTokens, r.usage.cacheReadTokens, r.usage.cacheWriteTokens])).toEqual(
      served.map((u) => [u.input, u.cacheRead, 0]),
    );
    // gpt-4.1-mini: $0.40 input, $0.10 cached input, $1.60 output per million.
    const expected = served.map((u) => ((u.input - u.cacheRead) * 0.4 + u.cacheRead * 0.1 + u.output * 1.6) / 1e6);
    responses.forEach((r, i) => {
      expect(r.costUsd).toBeCloseTo(expected[i]!, 12);
    });
    const uncached = served.reduce((sum, u) => sum + (u.input * 0.4 + u.output * 1.6) / 1e6, 0);
    expect(totals.costUsd).toBeCloseTo(
      expected.reduce((a, b) => a + b, 0),
      12,
    );
    expect(totals.cacheSavedUsd).toBeCloseTo(uncached - totals.costUsd, 12);
    expect(totals.cacheReadTokens).toBe(served.reduce((sum, u) => sum + u.cacheRead, 0));
  });

  it('consecutive requests share their prefix byte for byte: the tools, then every earlier message', async () => {
    server = await startFakeModelServer([{ say: 'one' }, { say: 'two' }, { say: 'three' }]);
    const events: EngineEvent[] = [];
    const model = new OpenAiModel(settings(`${server.url}/v1`, 'gpt-4.1-mini'));
    const conversation = new Conversation({
      model,
      system: SYSTEM,
      ctx: {} as ToolContext,
      emit: (e) => events.push(e),
      price: undefined,
      temperature: 0,
      maxTokens: 64,
    });
    conversation.say('start');
    for (let i = 0; i < 3; i++) {
      // A tool set named in another order from one round to the next still goes out in one order.
      await conversation.round(i % 2 ? ['search_class', 'read_file'] : ['read_file', 'search_class']);
      conversation.say(`next ${i}`);
    }
    assertSharedPrefixes(server);
  });
});

describe('Anthropic: tenet marks what to cache', () => {
  it('the first request writes its prefix, each later one reads the previous and writes its own', async () => {
    server = await startFakeModelServer([{ say: 'one' }, { say: 'two' }, { say: 'three' }]);
    const { totals, responses } = await rounds(new AnthropicModel(settings(server.url, 'claude-sonnet-4-6')), 3);
    const served = server.requests.map((r) => r.usage!);
    expect(served[0]).toMatchObject({ cacheRead: 0 });
    expect(served[0]!.cacheWrite).toBeGreaterThanOrEqual(MIN_CACHED_TOKENS);
    // Request 2 reads exactly what request 1 wrote, and writes the rest up to its own end.
    expect(served[1]!.cacheRead).toBe(served[0]!.cacheWrite);
    expect(served[2]!.cacheRead).toBe(served[1]!.cacheRead + served[1]!.cacheWrite);
    // input_tokens came back without the cached parts: tenet's input is the whole.
    expect(responses.map((r) => [r.usage.inputTokens, r.usage.cacheReadTokens, r.usage.cacheWriteTokens])).toEqual(
      served.map((u) => [u.input, u.cacheRead, u.cacheWrite]),
    );
    // Sonnet: $3 input, $3.75 a cache write, $0.30 a cache read, $15 output per million.
    const cost = served.reduce(
      (sum, u) =>
        sum +
        ((u.input - u.cacheRead - u.cacheWrite) * 3 + u.cacheWrite * 3.75 + u.cacheRead * 0.3 + u.output * 15) / 1e6,
      0,
    );
    const uncached = served.reduce((sum, u) => sum + (u.input * 3 + u.output * 15) / 1e6, 0);
    expect(totals.costUsd).toBeCloseTo(cost, 12);
    expect(totals.cacheSavedUsd).toBeCloseTo(uncached - cost, 12);
    expect(totals.costUsd).toBeLessThan(uncached);
    // Never more than Anthropic's 4 breakpoints (the fake answers 400 to a fifth).
    for (const request of server.requests) expect(request.raw.match(/"cache_control"/g)!.length).toBeLessThanOrEqual(4);
  });

  it('a round of many parallel tool calls (over 20 blocks) still reads the previous request: its end is marked too', async () => {
    server = await startFakeModelServer([{ say: 'first' }, { say: 'second' }]);
    const model = new AnthropicModel(settings(server.url, 'claude-sonnet-4-6'));
    const first: Message[] = [{ role: 'user', content: 'Look everywhere.' }];
    await model.complete({ system: SYSTEM, messages: first, tools: TOOLS, temperature: 0, maxTokens: 64 });
    const calls = Array.from({ length: 15 }, (_, i) => ({
      id: `c${i}`,
      name: 'read_file',
      arguments: JSON.stringify({ file_name: `m${i}.py` }),
    }));
    const second: Message[] = [
      ...first,
      { role: 'assistant', content: 'Reading all of them.', toolCalls: calls },
      ...calls.map((c) => ({ role: 'tool' as const, toolCallId: c.id, name: c.name, content: `contents of ${c.id}` })),
      { role: 'user', content: 'Go on.' },
    ];
    const response = await model.complete({
      system: SYSTEM,
      messages: second,
      tools: TOOLS,
      temperature: 0,
      maxTokens: 64,
    });
    const [one, two] = server.requests.map((r) => r.usage!);
    expect(two!.cacheRead).toBe(one!.cacheWrite);
    expect(response.usage.cacheReadTokens).toBe(one!.cacheWrite);
  });

  it('a server without a cache: nothing read or written, every input token at the input price', async () => {
    server = await startFakeModelServer([{ say: 'one' }, { say: 'two' }], { cache: false });
    const { totals } = await rounds(new AnthropicModel(settings(server.url, 'claude-sonnet-4-6')), 2);
    expect(totals).toMatchObject({ cacheReadTokens: 0, cacheWriteTokens: 0, cacheSavedUsd: 0 });
    expect(totals.inputTokens).toBe(server.requests.reduce((sum, r) => sum + r.usage!.input, 0));
  });
});

describe('usage fields as each API words them', () => {
  it("OpenAI's cached_tokens, and DeepSeek's prompt_cache_hit_tokens", () => {
    expect(
      openAiUsage({
        prompt_tokens: 2000,
        completion_tokens: 50,
        total_tokens: 2050,
        prompt_tokens_details: { cached_tokens: 1536 },
      }),
    ).toEqual({ inputTokens: 2000, outputTokens: 50, cacheReadTokens: 1536, cacheWriteTokens: 0 });
    expect(
      openAiUsage({ prompt_tokens: 100, completion_tokens: 5, total_tokens: 105, prompt_cache_hit_tokens: 64 }),
    ).toMatchObject({ inputTokens: 100, cacheReadTokens: 64 });
    expect(openAiUsage({ prompt_tokens: 100, completion_tokens: 5, total_tokens: 105 })).toMatchObject({
      inputTokens: 100,
      cacheReadTokens: 0,
    });
  });

  it("Anthropic's counts add up to the input; a message_delta without them keeps message_start's", () => {
    const start = anthropicUsage({
      input_tokens: 50,
      output_tokens: 1,
      cache_creation_input_tokens: 300,
      cache_read_input_tokens: 2000,
    });
    expect(start).toEqual({ inputTokens: 2350, outputTokens: 1, cacheReadTokens: 2000, cacheWriteTokens: 300 });
    expect(anthropicUsage({ output_tokens: 40 }, start)).toEqual({
      inputTokens: 2350,
      outputTokens: 40,
      cacheReadTokens: 2000,
      cacheWriteTokens: 300,
    });
    expect(
      anthropicUsage(
        { input_tokens: null, output_tokens: 40, cache_read_input_tokens: null, cache_creation_input_tokens: null },
        start,
      ),
    ).toEqual({ inputTokens: 2350, outputTokens: 40, cacheReadTokens: 2000, cacheWriteTokens: 300 });
    // The cumulative counts repeated in message_delta are not added twice.
    expect(
      anthropicUsage(
        { input_tokens: 50, output_tokens: 40, cache_creation_input_tokens: 300, cache_read_input_tokens: 2000 },
        start,
      ).inputTokens,
    ).toBe(2350);
  });
});
