import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { windowProblem, windowTokens } from './fake-context-window';
import { requestProblem } from './fake-request-rules';
import { AnthropicPromptCache, OpenAiPromptCache, TooManyBreakpoints, type CacheUsage } from './fake-prompt-cache';

/**
 * A model server on 127.0.0.1 that speaks the OpenAI chat-completions and Anthropic messages wire
 * formats (streamed as server-sent events, or whole), playing scripted turns in order, so the real
 * SDK clients run unmodified against it. Every request is recorded for assertions. Input tokens
 * are counted from the request and its prompt cache works as each API's does (fake-prompt-cache.ts),
 * reported in each API's own usage fields, unless a turn fixes its usage.
 */
export interface FakeTurn {
  /** Text the assistant says. */
  say?: string;
  /** Tool calls; `arguments` as an object, or a raw (possibly malformed) JSON string. */
  calls?: { name: string; arguments?: Record<string, unknown> | string }[];
  /** The model refuses: OpenAI streams this in `refusal` with no content; Anthropic says it and stops with `refusal`. */
  refusal?: string;
  /** Answer with this HTTP error status instead (the turn is consumed). */
  status?: number;
  /** With `status`: the error message in the body (default: one for the status). */
  message?: string;
  /** With `status`: the error's type (and OpenAI's code), e.g. `insufficient_quota` (default: one for the status). */
  errorType?: string;
  /** Stream the text, then an error event, as a server overloaded mid-answer does after its 200 (e.g. `overloaded_error`, `server_error`). */
  streamError?: { type: string; message: string };
  /** With `status`: the response headers (default: `retry-after-ms: 20`). */
  headers?: Record<string, string>;
  /**
   * Stream part of the answer (the text, and the first piece of the first call's arguments), then: `true`
   * drops the connection; `'close'` ends the response cleanly but without the end marker ([DONE]
   * and finish_reason, or message_stop); `'stall'` goes silent with the connection open.
   */
  cut?: true | 'close' | 'stall';
  /** Fixed token counts (no cache); without it the input is counted from the request, the output is 20. */
  usage?: { input: number; output: number };
  /** OpenAI: leave usage out of the stream even when asked for it (as some compatible servers do). */
  noUsage?: boolean;
  /** Wait this long before answering (time for a test to press keys mid-call). */
  delayMs?: number;
  /** Answer only once this settles: a test does something while the call is in flight, then lets it end. */
  hold?: Promise<unknown>;
  /** Streamed: wait this long between two chunks (a slow model, whose code grows on screen). */
  chunkDelayMs?: number;
}

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
  /** The body as it came over the wire. */
  raw: string;
  /** The usage the server answered with, in tenet's terms (input counts every input token); none for an error. */
  usage?: { input: number; output: number; cacheRead: number; cacheWrite: number };
}

export interface FakeServerOptions {
  /** false: a server without a prompt cache (no token is ever read from or written to one). Default true. */
  cache?: boolean;
  /** A context window in tokens: a longer request is answered with the API's own 400 (fake-context-window.ts), and plays no turn. */
  window?: number;
  /** Where to listen (default 127.0.0.1 and a free port): 0.0.0.0 when the server runs as a service others reach. */
  listen?: { host: string; port: number };
  /**
   * The answer to each request, from the request itself, instead of the queue of turns: one server
   * for many tasks at once (a benchmark's), each asking about its own target. Undefined: the queue's turn.
   */
  turnFor?: (body: Record<string, unknown>, headers: IncomingMessage['headers']) => FakeTurn | undefined;
}

export interface FakeModelServer {
  /** `http://127.0.0.1:PORT` (OpenAI clients add `/v1`; Anthropic clients use it as is). */
  url: string;
  requests: RecordedRequest[];
  /** With a window: each request's input tokens as the window counts them, and the requests refused as too long. */
  windowed: { tokens: number; refused: boolean }[];
  /** Turns not played yet. */
  remaining(): number;
  close(): Promise<void>;
}

/**
 * A streamed answer: server-sent events written in order, each after `gapMs`, then the end (or the
 * cut a turn asks for). Events are queued by the wire formats below and sent by `flush`.
 */
class EventStream {
  private readonly queue: string[] = [];
  constructor(
    private readonly response: ServerResponse,
    private readonly gapMs = 0,
  ) {}

  sse(data: unknown, event?: string): void {
    this.queue.push(
      `${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`,
    );
  }

  /** Sends what was queued, then ends the response cleanly or as `cut` asks. */
  flush(cut?: FakeTurn['cut']): void {
    if (!this.gapMs) {
      // At once, in a loop: a call with megabytes of arguments is tens of thousands of frames,
      // which a recursion per frame (and a shift per frame) could not send.
      if (this.response.destroyed) return;
      for (const frame of this.queue) this.response.write(frame);
      this.queue.length = 0;
      if (cut) cutOff(this.response, cut);
      else this.response.end();
      return;
    }
    const next = () => {
      if (this.response.destroyed) return;
      const frame = this.queue.shift();
      if (frame === undefined) return cut ? cutOff(this.response, cut) : void this.response.end();
      this.response.write(frame);
      setTimeout(next, this.gapMs);
    };
    next();
  }
}

const argumentsText = (call: NonNullable<FakeTurn['calls']>[number]) =>
  typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {});
/** Ends a cut turn the way it asks (see FakeTurn.cut). A stalled response stays open until close(). */
function cutOff(response: ServerResponse, cut: FakeTurn['cut']): void {
  if (cut === 'close') response.end();
  else if (cut !== 'stall') response.socket?.destroy();
}

/** Text as the APIs stream it: pieces of a few tokens (16 characters here). */
const pieces = (text: string, size = 16) =>
  Array.from({ length: Math.ceil(text.length / size) }, (_, i) => text.slice(i * size, (i + 1) * size));

const DEFAULT_OUTPUT = 20;

function openAi(
  turn: FakeTurn,
  body: Record<string, unknown>,
  response: ServerResponse,
  counter: number,
  tokens: CacheUsage,
): void {
  const model = String(body.model);
  const output = turn.usage?.output ?? DEFAULT_OUTPUT;
  const usage = {
    prompt_tokens: tokens.input,
    completion_tokens: output,
    total_tokens: tokens.input + output,
    prompt_tokens_details: { cached_tokens: tokens.read },
  };
  const calls = (turn.calls ?? []).map((c, i) => ({
    id: `call_${counter}_${i}`,
    type: 'function',
    function: { name: c.name, arguments: argumentsText(c) },
  }));
  const finish = calls.length ? 'tool_calls' : 'stop';
  if (!body.stream) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: `chatcmpl-${counter}`,
        object: 'chat.completion',
        created: 1,
        model,
        choices: [
          {
            index: 0,
            message: {
              role: 'assistant',
              content: turn.say ?? null,
              refusal: turn.refusal ?? null,
              ...(calls.length ? { tool_calls: calls } : {}),
            },
            finish_reason: finish,
            logprobs: null,
          },
        ],
        usage,
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const stream = new EventStream(response, turn.chunkDelayMs);
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    stream.sse({
      id: `chatcmpl-${counter}`,
      object: 'chat.completion.chunk',
      created: 1,
      model,
      choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }],
    });
  chunk({ role: 'assistant', content: turn.refusal === undefined ? '' : null, refusal: null });
  for (const piece of pieces(turn.say ?? '')) chunk({ content: piece });
  for (const piece of pieces(turn.refusal ?? '')) chunk({ refusal: piece });
  if (turn.streamError) {
    stream.sse({ error: { message: turn.streamError.message, type: turn.streamError.type, param: null, code: null } });
    stream.flush();
    return;
  }
  if (turn.cut && !calls.length) {
    stream.flush(turn.cut);
    return;
  }
  for (const [index, call] of calls.entries()) {
    chunk({
      tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }],
    });
    for (const piece of pieces(call.function.arguments)) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
      if (turn.cut) {
        stream.flush(turn.cut);
        return;
      }
    }
  }
  chunk({}, finish);
  if ((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage && !turn.noUsage) {
    stream.sse({ id: `chatcmpl-${counter}`, object: 'chat.completion.chunk', created: 1, model, choices: [], usage });
  }
  stream.sse('[DONE]');
  stream.flush();
}

function anthropic(
  turn: FakeTurn,
  body: Record<string, unknown>,
  response: ServerResponse,
  counter: number,
  tokens: CacheUsage,
): void {
  const model = String(body.model);
  const output = turn.usage?.output ?? DEFAULT_OUTPUT;
  // Anthropic's input_tokens leaves out what was read from or written to the cache.
  const inputUsage = {
    input_tokens: tokens.input - tokens.read - tokens.written,
    cache_creation_input_tokens: tokens.written,
    cache_read_input_tokens: tokens.read,
  };
  const tools = (turn.calls ?? []).map((c, i) => {
    let parsed: unknown = {};
    try {
      parsed = JSON.parse(argumentsText(c));
    } catch {
      parsed = undefined; // malformed: only the stream can carry it, as partial JSON
    }
    return { id: `toolu_${counter}_${i}`, name: c.name, input: parsed, raw: argumentsText(c) };
  });
  const stopReason = turn.refusal !== undefined ? 'refusal' : tools.length ? 'tool_use' : 'end_turn';
  const say = turn.refusal ?? turn.say;
  if (!body.stream) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(
      JSON.stringify({
        id: `msg_${counter}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [
          ...(say ? [{ type: 'text', text: say }] : []),
          ...tools.map((t) => ({ type: 'tool_use', id: t.id, name: t.name, input: t.input ?? {} })),
        ],
        stop_reason: stopReason,
        stop_sequence: null,
        usage: { ...inputUsage, output_tokens: output },
      }),
    );
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const stream = new EventStream(response, turn.chunkDelayMs);
  stream.sse(
    {
      type: 'message_start',
      message: {
        id: `msg_${counter}`,
        type: 'message',
        role: 'assistant',
        model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...inputUsage, output_tokens: 1 },
      },
    },
    'message_start',
  );
  let index = 0;
  if (say) {
    stream.sse(
      { type: 'content_block_start', index, content_block: { type: 'text', text: '' } },
      'content_block_start',
    );
    for (const piece of pieces(say))
      stream.sse(
        { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } },
        'content_block_delta',
      );
    if (turn.streamError) {
      stream.sse({ type: 'error', error: turn.streamError }, 'error');
      stream.flush();
      return;
    }
    if (turn.cut && !tools.length) {
      stream.flush(turn.cut);
      return;
    }
    stream.sse({ type: 'content_block_stop', index }, 'content_block_stop');
    index++;
  }
  for (const tool of tools) {
    stream.sse(
      {
        type: 'content_block_start',
        index,
        content_block: { type: 'tool_use', id: tool.id, name: tool.name, input: {} },
      },
      'content_block_start',
    );
    for (const piece of pieces(tool.raw)) {
      stream.sse(
        { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } },
        'content_block_delta',
      );
      if (turn.cut) {
        stream.flush(turn.cut);
        return;
      }
    }
    stream.sse({ type: 'content_block_stop', index }, 'content_block_stop');
    index++;
  }
  // As the API does today, message_delta repeats the input counts (cumulative) with the final output count.
  stream.sse(
    {
      type: 'message_delta',
      delta: { stop_reason: stopReason, stop_sequence: null },
      usage: { ...inputUsage, output_tokens: output },
    },
    'message_delta',
  );
  stream.sse({ type: 'message_stop' }, 'message_stop');
  stream.flush();
}

export async function startFakeModelServer(
  turns: FakeTurn[],
  options: FakeServerOptions = {},
): Promise<FakeModelServer> {
  const queue = [...turns];
  const requests: RecordedRequest[] = [];
  const windowed: FakeModelServer['windowed'] = [];
  const caches = { openAi: new OpenAiPromptCache(), anthropic: new AnthropicPromptCache() };
  let counter = 0;
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      const recorded: RecordedRequest = { path: request.url ?? '', headers: request.headers, body, raw };
      requests.push(recorded);
      const isOpenAi = request.url?.endsWith('/chat/completions');
      const isAnthropic = request.url?.endsWith('/messages');
      if (!isOpenAi && !isAnthropic) {
        response
          .writeHead(404, { 'content-type': 'application/json' })
          .end(JSON.stringify({ error: { message: `no route ${request.url}` } }));
        return;
      }
      // A request the real API would refuse is refused here too, and plays no turn.
      const problem = requestProblem(isOpenAi ? 'openai' : 'anthropic', request.headers, body);
      if (problem) {
        response.writeHead(400, { 'content-type': 'application/json' });
        response.end(
          JSON.stringify(
            isOpenAi
              ? { error: { message: problem, type: 'invalid_request_error', param: null, code: null } }
              : { type: 'error', error: { type: 'invalid_request_error', message: problem } },
          ),
        );
        return;
      }
      if (options.window !== undefined) {
        const api = isOpenAi ? 'openai' : 'anthropic';
        const tooLong = windowProblem(api, body, options.window);
        windowed.push({ tokens: windowTokens(api, body), refused: !!tooLong });
        if (tooLong) {
          response.writeHead(tooLong.status, { 'content-type': 'application/json' }).end(JSON.stringify(tooLong.body));
          return;
        }
      }
      const turn = options.turnFor?.(body, request.headers) ??
        queue.shift() ?? { say: '(the fake server has no more turns)' };
      counter++;
      if (turn.status) {
        const message = turn.message ?? (turn.status === 429 ? 'Rate limit reached' : `Server error ${turn.status}`);
        response.writeHead(turn.status, {
          'content-type': 'application/json',
          ...(turn.headers ?? { 'retry-after-ms': '20' }),
        });
        const type = turn.errorType ?? (turn.status === 429 ? 'rate_limit_error' : 'api_error');
        response.end(
          JSON.stringify(
            isOpenAi
              ? { error: { message, type, param: null, code: turn.errorType ?? null } }
              : { type: 'error', error: { type, message } },
          ),
        );
        return;
      }
      let tokens: CacheUsage;
      try {
        tokens = (isOpenAi ? caches.openAi : caches.anthropic).use(body, options.cache !== false);
      } catch (error) {
        if (!(error instanceof TooManyBreakpoints)) throw error;
        response
          .writeHead(400, { 'content-type': 'application/json' })
          .end(JSON.stringify({ type: 'error', error: { type: 'invalid_request_error', message: error.message } }));
        return;
      }
      if (turn.usage) tokens = { input: turn.usage.input, read: 0, written: 0 };
      if (!(isOpenAi && turn.noUsage))
        recorded.usage = {
          input: tokens.input,
          output: turn.usage?.output ?? DEFAULT_OUTPUT,
          cacheRead: tokens.read,
          cacheWrite: tokens.written,
        };
      const answer = () => (isOpenAi ? openAi : anthropic)(turn, body, response, counter, tokens);
      if (turn.hold) void turn.hold.then(answer);
      else if (turn.delayMs) setTimeout(answer, turn.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) =>
    server.listen(options.listen?.port ?? 0, options.listen?.host ?? '127.0.0.1', resolve),
  );
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    windowed,
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
