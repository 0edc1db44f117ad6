import Anthropic from '@anthropic-ai/sdk';
import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';
import OpenAI from 'openai';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { Conversation } from '../../source/engine/agent/conversation';
import type { EngineEvent } from '../../source/engine/events';
import { AnthropicModel } from '../../source/engine/model/anthropic-provider';
import { createModel } from '../../source/engine/model/create-model';
import { estimateUsage } from '../../source/engine/model/estimate-usage';
import { OpenAiModel } from '../../source/engine/model/openai-provider';
import type { ModelRequest, RetryNotice, ToolDelta } from '../../source/engine/model/types';
import { ProviderError } from '../../source/engine/model/types';
import { SpendLimitError, type SpendLimits } from '../../source/engine/model/spend-limits';
import { foldEvents } from '../../source/engine/session/fold';
import type { ToolContext } from '../../source/engine/tools/context';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';

const request: ModelRequest = {
  system: 'be brief',
  messages: [
    { role: 'user', content: 'hello' },
    {
      role: 'assistant',
      content: 'looking',
      toolCalls: [{ id: 't1', name: 'search_class', arguments: '{"class_name":"Cart"}' }],
    },
    { role: 'tool', toolCallId: 't1', name: 'search_class', content: 'Found 1 class' },
    { role: 'user', content: 'go on' },
  ],
  tools: [
    {
      name: 'search_class',
      description: 'find a class',
      parameters: { type: 'object', properties: { class_name: { type: 'string' } }, required: ['class_name'] },
    },
  ],
  temperature: 0,
  maxTokens: 256,
};

const settings = (_server: FakeModelServer, base: string, more: { model?: string; timeoutMs?: number } = {}) => ({
  model: 'test-model',
  apiKey: 'sk-test-secret',
  baseUrl: base,
  timeoutMs: 5000,
  retry: { maxAttempts: 3, baseDelayMs: 10, maxDelayMs: 50 },
  ...more,
});
/** A tool call whose arguments the cut turns stop half-way through. */
const cartLookup = [{ name: 'search_class', arguments: { class_name: 'Cart' } }];

/** A submission whose code streams in many pieces, as the real APIs send a long argument. */
const submission = {
  name: 'submit_implementation',
  arguments: { code: 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n' },
};

/** What onToolDelta saw, per call: its name and its arguments pieces. */
function toolDeltas() {
  const seen = new Map<number, { name: string; pieces: string[] }>();
  const onToolDelta = (d: ToolDelta) => {
    const entry = seen.get(d.index) ?? { name: d.name, pieces: [] };
    entry.name = d.name;
    if (d.arguments) entry.pieces.push(d.arguments);
    seen.set(d.index, entry);
  };
  return { seen, onToolDelta };
}

let server: FakeModelServer;
afterEach(() => server?.close());

describe('OpenAI provider through the real SDK', () => {
  it('streams text and parallel tool calls, reports usage, and sends the documented request', async () => {
    server = await startFakeModelServer([
      {
        say: 'Two lookups.',
        calls: [
          { name: 'search_class', arguments: { class_name: 'A' } },
          { name: 'search_method', arguments: { method_name: 'b' } },
        ],
        usage: { input: 321, output: 45 },
      },
    ]);
    const model = new OpenAiModel(settings(server, `${server.url}/v1`));
    const deltas: string[] = [];
    const response = await model.complete(request, { onDelta: (d) => deltas.push(d) });
    expect(deltas.join('')).toBe('Two lookups.');
    expect(response).toMatchObject({
      content: 'Two lookups.',
      usage: { inputTokens: 321, outputTokens: 45 },
      stopReason: 'tool_calls',
    });
    expect(response.toolCalls.map((c) => [c.name, JSON.parse(c.arguments)])).toEqual([
      ['search_class', { class_name: 'A' }],
      ['search_method', { method_name: 'b' }],
    ]);
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/chat/completions');
    expect(sent.headers.authorization).toBe('Bearer sk-test-secret');
    expect(sent.body).toMatchObject({
      model: 'test-model',
      temperature: 0,
      max_tokens: 256,
      stream: true,
      stream_options: { include_usage: true },
      parallel_tool_calls: true,
    });
    expect(sent.body).not.toHaveProperty('max_completion_tokens');
    expect(sent.body.messages).toEqual([
      { role: 'system', content: 'be brief' },
      { role: 'user', content: 'hello' },
      {
        role: 'assistant',
        content: 'looking',
        tool_calls: [
          { id: 't1', type: 'function', function: { name: 'search_class', arguments: '{"class_name":"Cart"}' } },
        ],
      },
      { role: 'tool', tool_call_id: 't1', content: 'Found 1 class' },
      { role: 'user', content: 'go on' },
    ]);
  });

  it("streams a tool call's arguments piece by piece as they come (the code grows on screen)", async () => {
    server = await startFakeModelServer([{ say: 'Here it is.', calls: [submission] }]);
    const { seen, onToolDelta } = toolDeltas();
    const response = await new OpenAiModel(settings(server, `${server.url}/v1`)).complete(request, { onToolDelta });
    const streamed = seen.get(0)!;
    expect(streamed.name).toBe('submit_implementation');
    expect(streamed.pieces.length).toBeGreaterThan(3);
    expect(streamed.pieces.join('')).toBe(response.toolCalls[0]!.arguments);
  });

  it('retries a 429 and a stream cut mid-way, reporting each retry', async () => {
    server = await startFakeModelServer([
      { status: 429 },
      { say: 'partial answer that will be cut', cut: true },
      { say: 'done' },
    ]);
    const retries: RetryNotice[] = [];
    const response = await new OpenAiModel(settings(server, `${server.url}/v1`)).complete(request, {
      onRetry: (n) => retries.push(n),
    });
    expect(response.content).toBe('done');
    expect(retries.map((r) => r.reason)).toEqual([
      'rate limited (429): Rate limit reached',
      expect.stringMatching(/^connection lost/),
    ]);
    expect(retries[0]!.delayMs).toBe(20); // the server's retry-after-ms
  });

  it('retries a stream the server closed cleanly before its end, instead of taking the half answer', async () => {
    server = await startFakeModelServer([{ say: 'Looking.', calls: cartLookup, cut: 'close' }, { say: 'done' }]);
    const retries: RetryNotice[] = [];
    const response = await new OpenAiModel(settings(server, `${server.url}/v1`)).complete(request, {
      onRetry: (n) => retries.push(n),
    });
    expect(response).toMatchObject({ content: 'done', toolCalls: [] });
    expect(retries.map((r) => r.reason)).toEqual(['stream ended early (no finish_reason)']);
  });

  it('aborts and retries a stream that stalls after the headers, within the timeout setting', async () => {
    server = await startFakeModelServer([{ say: 'Looking.', calls: cartLookup, cut: 'stall' }, { say: 'done' }]);
    const retries: RetryNotice[] = [];
    const started = Date.now();
    const response = await new OpenAiModel(settings(server, `${server.url}/v1`, { timeoutMs: 300 })).complete(request, {
      onRetry: (n) => retries.push(n),
    });
    expect(response.content).toBe('done');
    expect(retries.map((r) => r.reason)).toEqual(['stream stalled (no data for 0.3 s)']);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it('gives up on a stream that keeps stalling, after the retry budget', async () => {
    server = await startFakeModelServer([
      { say: 'a', cut: 'stall' },
      { say: 'b', cut: 'stall' },
      { say: 'c', cut: 'stall' },
    ]);
    await expect(
      new OpenAiModel(settings(server, `${server.url}/v1`, { timeoutMs: 200 })).complete(request),
    ).rejects.toThrow('stream stalled (no data for 0.2 s); gave up after 3 attempts');
  });

  it('a cancel during the stream is a cancellation, not a half answer nor a retry', async () => {
    server = await startFakeModelServer([{ say: 'Looking.', cut: 'stall' }, { say: 'not asked for' }]);
    const controller = new AbortController();
    const retries: RetryNotice[] = [];
    const call = new OpenAiModel(settings(server, `${server.url}/v1`)).complete(request, {
      signal: controller.signal,
      onDelta: () => controller.abort(),
      onRetry: (n) => retries.push(n),
    });
    await expect(call).rejects.toMatchObject({ name: 'AbortError' });
    expect(retries).toEqual([]);
    expect(server.requests).toHaveLength(1);
  });

  it('reasoning models, the gpt-5 family and later generations, get max_completion_tokens and no temperature', async () => {
    const reasoning = ['o3-mini', 'gpt-5-mini', 'openai/o1', 'gpt-5.1', 'gpt-6-luna'];
    server = await startFakeModelServer([...reasoning, 'gpt-4.1-mini', 'gpt-5-chat-latest'].map((say) => ({ say })));
    for (const model of [...reasoning, 'gpt-4.1-mini', 'gpt-5-chat-latest'])
      await new OpenAiModel(settings(server, `${server.url}/v1`, { model })).complete(request);
    for (const sent of server.requests.slice(0, reasoning.length)) {
      expect(sent.body).toMatchObject({ max_completion_tokens: 256 });
      expect(sent.body).not.toHaveProperty('max_tokens');
      expect(sent.body).not.toHaveProperty('temperature');
    }
    // Models before gpt-5, and chat variants, take max_tokens and a temperature.
    for (const sent of server.requests.slice(reasoning.length))
      expect(sent.body).toMatchObject({ max_tokens: 256, temperature: 0 });
  });

  it('counts the tokens itself, marked estimated, when a compatible server sends no usage', async () => {
    server = await startFakeModelServer([{ say: 'Two lookups.', calls: cartLookup, noUsage: true }]);
    const response = await new OpenAiModel(settings(server, `${server.url}/v1`)).complete(request);
    expect(response.usage.estimated).toBe(true);
    expect(response.usage.outputTokens).toBe(countTokens('Two lookups.search_class{"class_name":"Cart"}'));
    // At least the system prompt, the messages and the tool schema.
    expect(response.usage.inputTokens).toBeGreaterThan(
      countTokens(JSON.stringify(request.tools)) + countTokens('be brief hello looking Found 1 class go on'),
    );
  });

  it('a refused connection is said as such, with the address to check, not as a lost one', async () => {
    // A port nothing listens on: that of a server of its own, closed (afterEach closes this test's).
    const gone = await startFakeModelServer([]);
    const url = `${gone.url}/v1`;
    await gone.close();
    server = await startFakeModelServer([]);
    const retries: RetryNotice[] = [];
    const failure = await new OpenAiModel(settings(server, url))
      .complete(request, { onRetry: (n) => retries.push(n) })
      .catch((error: unknown) => error);
    expect(retries.map((r) => r.reason)).toEqual([
      'connection refused (nothing answers at the server address)',
      'connection refused (nothing answers at the server address)',
    ]);
    expect(failure).toMatchObject({
      message: 'connection refused (nothing answers at the server address); gave up after 3 attempts',
      fix: expect.stringMatching(/^check --base-url/),
    });
  });

  it('gives up after the retry budget with a provider error', async () => {
    server = await startFakeModelServer([{ status: 503 }, { status: 503 }, { status: 503 }]);
    await expect(new OpenAiModel(settings(server, `${server.url}/v1`)).complete(request)).rejects.toThrow(
      ProviderError,
    );
    expect(server.requests).toHaveLength(3);
  });

  it('retries a stream that ends in a server_error event after its 200, as OpenAI sends when it fails mid-answer', async () => {
    server = await startFakeModelServer([
      {
        say: 'Partial',
        streamError: { type: 'server_error', message: 'The server had an error while processing your request.' },
      },
      { say: 'done' },
    ]);
    const retries: RetryNotice[] = [];
    const response = await new OpenAiModel(settings(server, `${server.url}/v1`)).complete(request, {
      onRetry: (n) => retries.push(n),
    });
    expect(response.content).toBe('done');
    expect(retries.map((r) => r.reason)).toEqual([
      'the stream ended in an error (server_error): The server had an error while processing your request.',
    ]);
  });

  it('a stream cut mid-answer and retried is billed, so counted: its tokens estimated (OpenAI sends usage only at the end), marked so', async () => {
    const cut = 'I will look at the cart first, then';
    server = await startFakeModelServer([
      {
        say: cut,
        streamError: { type: 'server_error', message: 'The server had an error while processing your request.' },
      },
      { say: 'done', usage: { input: 321, output: 7 } },
    ]);
    const response = await new OpenAiModel(settings(server, `${server.url}/v1`)).complete(request);
    expect(response.content).toBe('done');
    const spent = await estimateUsage(request, cut, []);
    expect(spent.outputTokens).toBe(countTokens(cut));
    expect(response.usage).toEqual({
      inputTokens: 321 + spent.inputTokens,
      outputTokens: 7 + spent.outputTokens,
      cacheReadTokens: 0,
      cacheWriteTokens: 0,
      estimated: true,
    });
  });

  it("an attempt the server never answered (a 429) costs nothing: the usage is the answer's own, not estimated", async () => {
    server = await startFakeModelServer([{ status: 429 }, { say: 'done', usage: { input: 321, output: 7 } }]);
    const response = await new OpenAiModel(settings(server, `${server.url}/v1`)).complete(request);
    expect(response.usage).toEqual({ inputTokens: 321, outputTokens: 7, cacheReadTokens: 0, cacheWriteTokens: 0 });
  });

  it('a used-up quota (429 insufficient_quota) is not retried: the server says why, and the fix is the account', async () => {
    const message = 'You exceeded your current quota, please check your plan and billing details.';
    server = await startFakeModelServer([
      { status: 429, errorType: 'insufficient_quota', message },
      { say: 'never asked' },
    ]);
    const failure = await new OpenAiModel(settings(server, `${server.url}/v1`))
      .complete(request)
      .catch((error: unknown) => error);
    expect(failure).toBeInstanceOf(ProviderError);
    expect(failure).toMatchObject({
      message: `429 ${message}`,
      status: 429,
      fix: expect.stringMatching(/plan, quota and billing/),
    });
    expect(server.requests).toHaveLength(1);
  });

  it('retries end with the last server message and what to do', async () => {
    server = await startFakeModelServer([
      { status: 503, message: 'Service Unavailable' },
      { status: 503, message: 'Service Unavailable' },
      { status: 503, message: 'Service Unavailable' },
    ]);
    await expect(new OpenAiModel(settings(server, `${server.url}/v1`)).complete(request)).rejects.toMatchObject({
      message: 'server error (503): Service Unavailable; gave up after 3 attempts',
      fix: expect.stringMatching(/^the provider is unavailable or overloaded: try again later/),
    });
  });

  it('the server also answers non-streaming requests in the OpenAI format', async () => {
    server = await startFakeModelServer([{ say: 'whole', calls: [{ name: 'finish', arguments: { reason: 'x' } }] }]);
    const client = new OpenAI({ apiKey: 'k', baseURL: `${server.url}/v1` });
    const completion = await client.chat.completions.create({
      model: 'm',
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(completion.choices[0]!.message.content).toBe('whole');
    expect(completion.choices[0]!.message.tool_calls?.[0]).toMatchObject({
      function: { name: 'finish', arguments: '{"reason":"x"}' },
    });
  });
});

describe('Anthropic provider through the real SDK', () => {
  it('streams text and tool_use blocks, and sends tool results as user tool_result blocks', async () => {
    server = await startFakeModelServer([
      {
        say: 'Checking.',
        calls: [{ name: 'search_class', arguments: { class_name: 'A' } }],
        usage: { input: 77, output: 9 },
      },
    ]);
    const model = new AnthropicModel(settings(server, server.url));
    const response = await model.complete(request);
    expect(response).toMatchObject({
      content: 'Checking.',
      usage: { inputTokens: 77, outputTokens: 9 },
      stopReason: 'tool_use',
    });
    expect(response.toolCalls).toEqual([{ id: 'toolu_1_0', name: 'search_class', arguments: '{"class_name":"A"}' }]);
    const sent = server.requests[0]!;
    expect(sent.path).toBe('/v1/messages');
    expect(sent.headers.authorization ?? sent.headers['x-api-key']).toMatch(/sk-test-secret/);
    // Prompt-cache breakpoints: the tools, the system prompt, the previous request's end (what this
    // one reads) and this request's end (what the next one reads): four, Anthropic's maximum.
    const mark = { cache_control: { type: 'ephemeral' } };
    expect(sent.body).toMatchObject({
      model: 'test-model',
      system: [{ type: 'text', text: 'be brief', ...mark }],
      stream: true,
      max_tokens: 256,
    });
    expect(sent.body).not.toHaveProperty('temperature');
    expect(sent.body.tools).toEqual([
      { name: 'search_class', description: 'find a class', input_schema: request.tools[0]!.parameters, ...mark },
    ]);
    expect(sent.body.messages).toEqual([
      { role: 'user', content: [{ type: 'text', text: 'hello', ...mark }] },
      {
        role: 'assistant',
        content: [
          { type: 'text', text: 'looking' },
          { type: 'tool_use', id: 't1', name: 'search_class', input: { class_name: 'Cart' } },
        ],
      },
      {
        role: 'user',
        content: [
          { type: 'tool_result', tool_use_id: 't1', content: 'Found 1 class' },
          { type: 'text', text: 'go on', ...mark },
        ],
      },
    ]);
  });

  it("a deprecated model's SDK warning comes once as a warning of the run, never on the console (it would tear the TUI's screen)", async () => {
    server = await startFakeModelServer([{ say: 'one' }, { say: 'two' }]);
    const model = new AnthropicModel(settings(server, server.url, { model: 'claude-sonnet-4-5' }));
    const warnings: string[] = [];
    const onConsole = vi.spyOn(console, 'warn').mockImplementation(() => {});
    try {
      for (const _ of [1, 2]) await model.complete(request, { onWarning: (m) => warnings.push(m) });
    } finally {
      onConsole.mockRestore();
    }
    expect(onConsole).not.toHaveBeenCalled();
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^The Anthropic SDK says: The model 'claude-sonnet-4-5' is deprecated and will reach end-of-life on November 30th, 2026\. Please migrate/,
    );
    expect(console.warn).not.toBe(onConsole);
  });

  it("streams a tool_use block's input piece by piece as it comes", async () => {
    server = await startFakeModelServer([{ say: 'Here it is.', calls: [submission] }]);
    const { seen, onToolDelta } = toolDeltas();
    const response = await new AnthropicModel(settings(server, server.url)).complete(request, { onToolDelta });
    // Block 0 is the text; the tool_use block is 1.
    const streamed = seen.get(1)!;
    expect(streamed.name).toBe('submit_implementation');
    expect(streamed.pieces.length).toBeGreaterThan(3);
    expect(streamed.pieces.join('')).toBe(response.toolCalls[0]!.arguments);
  });

  it('passes malformed tool-call JSON through, for the agent to report back', async () => {
    server = await startFakeModelServer([{ calls: [{ name: 'search_class', arguments: '{"class_name": ' }] }]);
    const response = await new AnthropicModel(settings(server, server.url)).complete(request);
    expect(response.toolCalls[0]!.arguments).toBe('{"class_name": ');
  });

  it('retries a stream cut mid-way', async () => {
    server = await startFakeModelServer([{ say: 'this is cut', cut: true }, { say: 'fine' }]);
    const retries: RetryNotice[] = [];
    expect(
      (await new AnthropicModel(settings(server, server.url)).complete(request, { onRetry: (n) => retries.push(n) }))
        .content,
    ).toBe('fine');
    expect(retries).toHaveLength(1);
  });

  it('retries a stream the server closed cleanly before message_stop, instead of taking the half answer', async () => {
    server = await startFakeModelServer([{ say: 'Looking.', calls: cartLookup, cut: 'close' }, { say: 'fine' }]);
    const retries: RetryNotice[] = [];
    const response = await new AnthropicModel(settings(server, server.url)).complete(request, {
      onRetry: (n) => retries.push(n),
    });
    expect(response).toMatchObject({ content: 'fine', toolCalls: [] });
    expect(retries.map((r) => r.reason)).toEqual(['stream ended early (no message_stop)']);
  });

  it('aborts and retries a stream that stalls after the headers', async () => {
    server = await startFakeModelServer([{ say: 'Looking.', calls: cartLookup, cut: 'stall' }, { say: 'fine' }]);
    const retries: RetryNotice[] = [];
    const response = await new AnthropicModel(settings(server, server.url, { timeoutMs: 300 })).complete(request, {
      onRetry: (n) => retries.push(n),
    });
    expect(response.content).toBe('fine');
    expect(retries.map((r) => r.reason)).toEqual(['stream stalled (no data for 0.3 s)']);
  });

  it('retries a stream that ends in an overloaded_error event after its 200, as Anthropic sends under load', async () => {
    server = await startFakeModelServer([
      { say: 'Partial', streamError: { type: 'overloaded_error', message: 'Overloaded' } },
      { say: 'done' },
    ]);
    const retries: RetryNotice[] = [];
    const response = await new AnthropicModel(settings(server, server.url)).complete(request, {
      onRetry: (n) => retries.push(n),
    });
    expect(response.content).toBe('done');
    expect(retries.map((r) => r.reason)).toEqual(['the stream ended in an error (overloaded_error): Overloaded']);
  });

  it('a stream cut mid-answer and retried is billed, so counted: the input and cache counts message_start gave, the output streamed estimated', async () => {
    const cut = 'I will implement it now and';
    // A gap between chunks, so what was written before the drop reaches the client.
    server = await startFakeModelServer([
      { say: cut, calls: [submission], cut: true, chunkDelayMs: 5 },
      { say: 'fine' },
    ]);
    const { seen, onToolDelta } = toolDeltas();
    const response = await new AnthropicModel(settings(server, server.url)).complete(request, { onToolDelta });
    expect(response.content).toBe('fine');
    const [lost, answered] = server.requests.map((r) => r.usage!);
    // The cut attempt streamed its text and the first piece of the call's arguments.
    const streamed = seen.get(1)!;
    expect(streamed.pieces).toHaveLength(1);
    expect(response.usage).toEqual({
      inputTokens: lost!.input + answered!.input,
      outputTokens: countTokens(cut + streamed.name + streamed.pieces[0]) + answered!.output,
      cacheReadTokens: lost!.cacheRead + answered!.cacheRead,
      cacheWriteTokens: lost!.cacheWrite + answered!.cacheWrite,
      estimated: true,
    });
  });

  it("an error says the server's words, not its JSON body, and what to do: 401 the key, 404 the model", async () => {
    server = await startFakeModelServer([
      { status: 401, errorType: 'authentication_error', message: 'invalid x-api-key' },
      { status: 404, errorType: 'not_found_error', message: 'model: test-model' },
    ]);
    const model = new AnthropicModel(settings(server, server.url));
    await expect(model.complete(request)).rejects.toMatchObject({
      message: '401 invalid x-api-key',
      fix: expect.stringMatching(/^check the API key/),
    });
    await expect(model.complete(request)).rejects.toMatchObject({
      message: '404 model: test-model',
      fix: expect.stringMatching(/^check --model/),
    });
    expect(server.requests).toHaveLength(2);
  });

  it('the server also answers non-streaming requests in the Anthropic format', async () => {
    server = await startFakeModelServer([{ say: 'whole', calls: [{ name: 'finish', arguments: { reason: 'x' } }] }]);
    const client = new Anthropic({ apiKey: 'k', baseURL: server.url });
    const message = await client.messages.create({
      model: 'm',
      max_tokens: 10,
      messages: [{ role: 'user', content: 'hi' }],
    });
    expect(message.content).toEqual([
      { type: 'text', text: 'whole' },
      { type: 'tool_use', id: 'toolu_1_0', name: 'finish', input: { reason: 'x' } },
    ]);
  });
});

describe('cost that cannot be counted is said so, once', () => {
  /** Two text-only rounds (no tool runs, so no tool context is needed) through a configured model. */
  async function twoRounds(model: string, prices: Record<string, { input: number; output: number }> = {}) {
    const choice = createModel(
      { prices, maxRetries: 1 },
      { provider: 'openai', model, baseUrl: `${server.url}/v1` },
      {},
    );
    const events: EngineEvent[] = [];
    const conversation = new Conversation({
      model: choice.model,
      system: 's',
      ctx: {} as ToolContext,
      emit: (e) => events.push(e),
      price: choice.price,
      temperature: 0,
      maxTokens: 64,
    });
    conversation.say('hi');
    await conversation.round([]);
    await conversation.round([]);
    return { totals: conversation.totals, warnings: events.flatMap((e) => (e.type === 'warning' ? [e.message] : [])) };
  }

  it('an unknown model: one warning naming it and how to price it, and the totals marked unpriced', async () => {
    server = await startFakeModelServer([
      { say: 'a', usage: { input: 1000, output: 10 } },
      { say: 'b', usage: { input: 1000, output: 10 } },
    ]);
    const { totals, warnings } = await twoRounds('my-local-llm');
    expect(warnings).toEqual([
      expect.stringMatching(
        /^No price is known for model my-local-llm: its cost is not counted .*"prices": \{"my-local-llm": \{"input"/,
      ),
    ]);
    expect(totals).toMatchObject({ costUsd: 0, unpriced: true, inputTokens: 2000 });
  });

  it('a price set in the config counts, without a warning', async () => {
    server = await startFakeModelServer([
      { say: 'a', usage: { input: 1000, output: 10 } },
      { say: 'b', usage: { input: 1000, output: 10 } },
    ]);
    const { totals, warnings } = await twoRounds('my-local-llm', { 'my-local-llm': { input: 1, output: 2 } });
    expect(warnings).toEqual([]);
    expect(totals.unpriced).toBeUndefined();
    expect(totals.costUsd).toBeCloseTo(0.00204, 10);
  });

  it('a server without usage: estimated tokens are counted, said once, and marked in the totals', async () => {
    server = await startFakeModelServer([
      { say: 'a', noUsage: true },
      { say: 'b', noUsage: true },
    ]);
    const { totals, warnings } = await twoRounds('gpt-4.1-mini');
    expect(warnings).toEqual([
      'Some token counts are estimated with the o200k_base tokenizer: the model server sent none for them (it leaves usage out, or a stream was cut before its usage came).',
    ]);
    expect(totals.estimatedTokens).toBe(true);
    expect(totals.costUsd).toBeGreaterThan(0);
  });
});

describe('a call the developer cancels mid-answer (Esc)', () => {
  const streamed = 'Let me read the cart before I write anything, then';

  /**
   * A conversation whose first answer streams its text and then goes silent (the developer gives up
   * waiting): Esc once the whole text is on screen, the engine's cancel of the call in flight, and
   * the developer makes the call again, which answers.
   */
  async function cancelledOnce(limits?: SpendLimits) {
    server = await startFakeModelServer([{ say: streamed, cut: 'stall' }, { say: 'done' }]);
    const choice = createModel(
      { maxRetries: 1 },
      { provider: 'anthropic', model: 'claude-sonnet-4-6', baseUrl: server.url },
      {},
    );
    const events: EngineEvent[] = [];
    let esc: AbortController | undefined;
    let text = '';
    const conversation = new Conversation({
      model: choice.model,
      system: 's',
      ctx: {} as ToolContext,
      price: choice.price,
      temperature: 0,
      maxTokens: 64,
      ...(limits ? { limits } : {}),
      emit: (e) => {
        events.push(e);
        if (e.type === 'model.delta' && (text += e.text) === streamed) esc!.abort();
      },
      callSignal: () => (esc = new AbortController()).signal,
      afterCancelledCall: async () => 'retry',
    });
    conversation.say('hi');
    return { conversation, events };
  }

  it('counts what the provider billed until the cancel: the input message_start gave, the output streamed estimated, in the events and the totals', async () => {
    const { conversation, events } = await cancelledOnce();
    const { response } = await conversation.round([]);
    expect(response.content).toBe('done');
    expect(events.filter((e) => e.type === 'warning').map((e) => e.message)).toContain('The model call was cancelled.');

    const [cancelled, answered] = server.requests.map((r) => r.usage!);
    const lost = events.filter(
      (e): e is Extract<EngineEvent, { type: 'model.unanswered' }> => e.type === 'model.unanswered',
    );
    expect(lost).toHaveLength(1);
    expect(lost[0]).toMatchObject({
      reason: 'cancelled',
      usage: {
        inputTokens: cancelled!.input,
        outputTokens: countTokens(streamed),
        cacheReadTokens: cancelled!.cacheRead,
        cacheWriteTokens: cancelled!.cacheWrite,
        estimated: true,
      },
    });
    expect(lost[0]!.costUsd).toBeGreaterThan(0);
    const reply = events.find(
      (e): e is Extract<EngineEvent, { type: 'model.response' }> => e.type === 'model.response',
    )!;
    // The totals (the result's usage and cost, the spend limits) have both; one model call.
    expect(conversation.totals).toMatchObject({
      modelCalls: 1,
      inputTokens: cancelled!.input + answered!.input,
      outputTokens: countTokens(streamed) + answered!.output,
      estimatedTokens: true,
    });
    expect(conversation.totals.costUsd).toBeCloseTo(lost[0]!.costUsd + reply.costUsd, 12);
    // The log folded again (tenet show, sessions, resume) counts the same.
    const folded = foldEvents(events).totals;
    expect(folded).toMatchObject({
      modelCalls: 1,
      inputTokens: conversation.totals.inputTokens,
      outputTokens: conversation.totals.outputTokens,
    });
    expect(folded.costUsd).toBeCloseTo(conversation.totals.costUsd, 12);
  });

  it("is not made again past the session's cost limit: what the cancelled call was billed counts toward it", async () => {
    // Less than what the cancelled call was billed (its input, and the output it streamed).
    const { conversation, events } = await cancelledOnce({ maxCostUsd: 0.0001 });
    await expect(conversation.round([])).rejects.toBeInstanceOf(SpendLimitError);
    expect(server.requests).toHaveLength(1);
    expect(events.map((e) => e.type)).toEqual(expect.arrayContaining(['model.unanswered', 'limit.reached']));
    expect(events.some((e) => e.type === 'model.response')).toBe(false);
  });
});

describe('answers that would make the next request a 400', () => {
  /** Two rounds through the provider (its fake server refuses what the real API refuses): the warnings and what the second request sent. */
  async function twoRounds(provider: 'openai' | 'anthropic') {
    const baseUrl = provider === 'openai' ? `${server.url}/v1` : server.url;
    const choice = createModel({ maxRetries: 1 }, { provider, model: 'test-model', baseUrl }, {});
    const events: EngineEvent[] = [];
    const conversation = new Conversation({
      model: choice.model,
      system: 's',
      ctx: {} as ToolContext,
      emit: (e) => events.push(e),
      price: undefined,
      temperature: 0,
      maxTokens: 64,
    });
    conversation.say('hi');
    await conversation.round([]);
    conversation.say('go on');
    const second = await conversation.round([]);
    return {
      second,
      sent: server.requests[1]!.body.messages as { role: string; content: unknown }[],
      warnings: events.flatMap((e) => (e.type === 'warning' ? [e.message] : [])),
    };
  }

  it('OpenAI: a refusal is the answer, said as a warning, and goes back as the assistant content', async () => {
    server = await startFakeModelServer([{ refusal: 'I cannot help with that request.' }, { say: 'fine' }]);
    const { second, sent, warnings } = await twoRounds('openai');
    expect(second.response.content).toBe('fine');
    expect(warnings).toEqual([
      expect.stringMatching(/^The model refused to answer: I cannot help with that request\./),
    ]);
    expect(sent[2]).toEqual({ role: 'assistant', content: 'I cannot help with that request.' });
  });

  it('OpenAI: an empty answer goes back with placeholder content (content may be left out only beside tool calls)', async () => {
    server = await startFakeModelServer([{ say: '' }, { say: 'fine' }]);
    const { second, sent } = await twoRounds('openai');
    expect(second.response.content).toBe('fine');
    expect(sent[2]).toEqual({ role: 'assistant', content: '(no content)' });
  });

  it('Anthropic: text of whitespace alone before a tool call is not sent back as a text block', async () => {
    server = await startFakeModelServer([
      { say: '\n\n', calls: [{ name: 'view_directory', arguments: { path: '.' } }] },
      { say: 'fine' },
    ]);
    const { second, sent } = await twoRounds('anthropic');
    expect(second.response.content).toBe('fine');
    expect(sent[1]).toEqual({
      role: 'assistant',
      content: [{ type: 'tool_use', id: 'toolu_1_0', name: 'view_directory', input: { path: '.' } }],
    });
  });

  it('Anthropic: a refusal is said as a warning, and the conversation goes on', async () => {
    server = await startFakeModelServer([{ refusal: 'I will not do that.' }, { say: 'fine' }]);
    const { second, warnings } = await twoRounds('anthropic');
    expect(second.response.content).toBe('fine');
    expect(warnings).toEqual([expect.stringMatching(/^The model refused to answer: I will not do that\./)]);
  });
});
