import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/**
 * A model server on 127.0.0.1 that speaks the OpenAI chat-completions and Anthropic messages wire
 * formats (streamed as server-sent events, or whole), playing scripted turns in order, so the real
 * SDK clients run unmodified against it. Every request is recorded for assertions.
 */
export interface FakeTurn {
  /** Text the assistant says. */
  say?: string;
  /** Tool calls; `arguments` as an object, or a raw (possibly malformed) JSON string. */
  calls?: { name: string; arguments?: Record<string, unknown> | string }[];
  /** Answer with this HTTP error status instead (the turn is consumed). */
  status?: number;
  /** With `status`: the error message in the body (default: one for the status). */
  message?: string;
  /** With `status`: the response headers (default: `retry-after-ms: 20`). */
  headers?: Record<string, string>;
  /**
   * Stream part of the answer (the text, and half of the first call's arguments), then: `true`
   * drops the connection; `'close'` ends the response cleanly but without the end marker ([DONE]
   * and finish_reason, or message_stop); `'stall'` goes silent with the connection open.
   */
  cut?: true | 'close' | 'stall';
  usage?: { input: number; output: number };
  /** OpenAI: leave usage out of the stream even when asked for it (as some compatible servers do). */
  noUsage?: boolean;
  /** Wait this long before answering (time for a test to press keys mid-call). */
  delayMs?: number;
  /** Answer only once this settles: a test does something while the call is in flight, then lets it end. */
  hold?: Promise<unknown>;
}

export interface RecordedRequest {
  path: string;
  headers: IncomingMessage['headers'];
  body: Record<string, unknown>;
}

export interface FakeModelServer {
  /** `http://127.0.0.1:PORT` (OpenAI clients add `/v1`; Anthropic clients use it as is). */
  url: string;
  requests: RecordedRequest[];
  /** Turns not played yet. */
  remaining(): number;
  close(): Promise<void>;
}

function sse(response: ServerResponse, data: unknown, event?: string): void {
  response.write(`${event ? `event: ${event}\n` : ''}data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`);
}

const argumentsText = (call: NonNullable<FakeTurn['calls']>[number]) => (typeof call.arguments === 'string' ? call.arguments : JSON.stringify(call.arguments ?? {}));
/** Ends a cut turn the way it asks (see FakeTurn.cut). A stalled response stays open until close(). */
function cutOff(response: ServerResponse, cut: FakeTurn['cut']): void {
  if (cut === 'close') response.end();
  else if (cut !== 'stall') response.socket?.destroy();
}

const halves = (text: string) => [text.slice(0, Math.ceil(text.length / 2)), text.slice(Math.ceil(text.length / 2))].filter(Boolean);

function openAi(turn: FakeTurn, body: Record<string, unknown>, response: ServerResponse, counter: number): void {
  const model = String(body.model);
  const usage = { prompt_tokens: turn.usage?.input ?? 100, completion_tokens: turn.usage?.output ?? 20, total_tokens: (turn.usage?.input ?? 100) + (turn.usage?.output ?? 20) };
  const calls = (turn.calls ?? []).map((c, i) => ({ id: `call_${counter}_${i}`, type: 'function', function: { name: c.name, arguments: argumentsText(c) } }));
  const finish = calls.length ? 'tool_calls' : 'stop';
  if (!body.stream) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({
      id: `chatcmpl-${counter}`, object: 'chat.completion', created: 1, model,
      choices: [{ index: 0, message: { role: 'assistant', content: turn.say ?? null, ...(calls.length ? { tool_calls: calls } : {}) }, finish_reason: finish, logprobs: null }],
      usage,
    }));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  const chunk = (delta: Record<string, unknown>, finishReason: string | null = null) =>
    sse(response, { id: `chatcmpl-${counter}`, object: 'chat.completion.chunk', created: 1, model, choices: [{ index: 0, delta, finish_reason: finishReason, logprobs: null }] });
  chunk({ role: 'assistant', content: '' });
  for (const piece of halves(turn.say ?? '')) chunk({ content: piece });
  if (turn.cut && !calls.length) return cutOff(response, turn.cut);
  for (const [index, call] of calls.entries()) {
    chunk({ tool_calls: [{ index, id: call.id, type: 'function', function: { name: call.function.name, arguments: '' } }] });
    for (const piece of halves(call.function.arguments)) {
      chunk({ tool_calls: [{ index, function: { arguments: piece } }] });
      if (turn.cut) return cutOff(response, turn.cut);
    }
  }
  chunk({}, finish);
  if ((body.stream_options as { include_usage?: boolean } | undefined)?.include_usage && !turn.noUsage) {
    sse(response, { id: `chatcmpl-${counter}`, object: 'chat.completion.chunk', created: 1, model, choices: [], usage });
  }
  sse(response, '[DONE]');
  response.end();
}

function anthropic(turn: FakeTurn, body: Record<string, unknown>, response: ServerResponse, counter: number): void {
  const model = String(body.model);
  const input = turn.usage?.input ?? 100;
  const output = turn.usage?.output ?? 20;
  const tools = (turn.calls ?? []).map((c, i) => {
    let parsed: unknown = {};
    try {
      parsed = JSON.parse(argumentsText(c));
    } catch {
      parsed = undefined; // malformed: only the stream can carry it, as partial JSON
    }
    return { id: `toolu_${counter}_${i}`, name: c.name, input: parsed, raw: argumentsText(c) };
  });
  const stopReason = tools.length ? 'tool_use' : 'end_turn';
  if (!body.stream) {
    response.writeHead(200, { 'content-type': 'application/json' });
    response.end(JSON.stringify({
      id: `msg_${counter}`, type: 'message', role: 'assistant', model,
      content: [...(turn.say ? [{ type: 'text', text: turn.say }] : []), ...tools.map((t) => ({ type: 'tool_use', id: t.id, name: t.name, input: t.input ?? {} }))],
      stop_reason: stopReason, stop_sequence: null, usage: { input_tokens: input, output_tokens: output },
    }));
    return;
  }
  response.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache' });
  sse(response, { type: 'message_start', message: { id: `msg_${counter}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage: { input_tokens: input, output_tokens: 1 } } }, 'message_start');
  let index = 0;
  if (turn.say) {
    sse(response, { type: 'content_block_start', index, content_block: { type: 'text', text: '' } }, 'content_block_start');
    for (const piece of halves(turn.say)) sse(response, { type: 'content_block_delta', index, delta: { type: 'text_delta', text: piece } }, 'content_block_delta');
    if (turn.cut && !tools.length) return cutOff(response, turn.cut);
    sse(response, { type: 'content_block_stop', index }, 'content_block_stop');
    index++;
  }
  for (const tool of tools) {
    sse(response, { type: 'content_block_start', index, content_block: { type: 'tool_use', id: tool.id, name: tool.name, input: {} } }, 'content_block_start');
    for (const piece of halves(tool.raw)) {
      sse(response, { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: piece } }, 'content_block_delta');
      if (turn.cut) return cutOff(response, turn.cut);
    }
    sse(response, { type: 'content_block_stop', index }, 'content_block_stop');
    index++;
  }
  sse(response, { type: 'message_delta', delta: { stop_reason: stopReason, stop_sequence: null }, usage: { output_tokens: output } }, 'message_delta');
  sse(response, { type: 'message_stop' }, 'message_stop');
  response.end();
}

export async function startFakeModelServer(turns: FakeTurn[]): Promise<FakeModelServer> {
  const queue = [...turns];
  const requests: RecordedRequest[] = [];
  let counter = 0;
  const server: Server = createServer((request, response) => {
    let raw = '';
    request.setEncoding('utf8');
    request.on('data', (chunk: string) => (raw += chunk));
    request.on('end', () => {
      const body = raw ? (JSON.parse(raw) as Record<string, unknown>) : {};
      requests.push({ path: request.url ?? '', headers: request.headers, body });
      const isOpenAi = request.url?.endsWith('/chat/completions');
      const isAnthropic = request.url?.endsWith('/messages');
      if (!isOpenAi && !isAnthropic) {
        response.writeHead(404, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: `no route ${request.url}` } }));
        return;
      }
      const turn = queue.shift() ?? { say: '(the fake server has no more turns)' };
      counter++;
      if (turn.status) {
        const message = turn.message ?? (turn.status === 429 ? 'Rate limit reached' : `Server error ${turn.status}`);
        response.writeHead(turn.status, { 'content-type': 'application/json', ...(turn.headers ?? { 'retry-after-ms': '20' }) });
        response.end(JSON.stringify(isOpenAi ? { error: { message, type: 'rate_limit_error', code: null } } : { type: 'error', error: { type: turn.status === 429 ? 'rate_limit_error' : 'api_error', message } }));
        return;
      }
      const answer = () => (isOpenAi ? openAi : anthropic)(turn, body, response, counter);
      if (turn.hold) void turn.hold.then(answer);
      else if (turn.delayMs) setTimeout(answer, turn.delayMs);
      else answer();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    requests,
    remaining: () => queue.length,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
