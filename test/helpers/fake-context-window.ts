import { countTokens } from 'gpt-tokenizer/encoding/o200k_base';

/**
 * The context window of a fake model, enforced as each API does, with the error body each sends
 * (the shapes of their documentation and of real answers):
 * - OpenAI: 400 `invalid_request_error`, code `context_length_exceeded`: "This model's maximum
 *   context length is N tokens. However, you requested M tokens (I in the messages, O in the
 *   completion). …" when the input and max_tokens together pass the window.
 * - Anthropic: 400 `invalid_request_error` "prompt is too long: I tokens > N maximum" when the
 *   input alone passes it; "input length and `max_tokens` exceed context limit: I + O > N, …"
 *   when only the two together do.
 * Tokens are counted with o200k_base over the text the model reads (not the JSON around it), as a
 * real tokenizer would; Claude's tokenizer gives more tokens for the same code, so the Anthropic
 * count is 15% higher: tenet's budget must hold with a tokenizer that counts more than its own.
 */
export const ANTHROPIC_TOKENIZER_FACTOR = 1.15;

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);
const count = (text: string) => countTokens(text, { disallowedSpecial: new Set() });
const text = (content: unknown): string =>
  typeof content === 'string'
    ? content
    : list(content)
        .map((b) =>
          typeof b.text === 'string'
            ? b.text
            : b.type === 'tool_use'
              ? `${String(b.name)}${JSON.stringify(b.input ?? {})}`
              : b.type === 'tool_result'
                ? text(b.content)
                : '',
        )
        .join('\n');

/** The request's input tokens, as this fake's window counts them. */
export function windowTokens(api: 'openai' | 'anthropic', body: Json): number {
  const tools = body.tools ? count(JSON.stringify(body.tools)) : 0;
  if (api === 'openai') {
    let n = tools;
    for (const m of list(body.messages)) {
      n +=
        4 +
        count(text(m.content)) +
        list(m.tool_calls).reduce(
          (sum, c) => sum + count(JSON.stringify((c as { function?: unknown }).function ?? {})),
          0,
        );
    }
    return n;
  }
  let n = tools + count(text(body.system));
  for (const m of list(body.messages)) n += 4 + count(text(m.content));
  return Math.ceil(n * ANTHROPIC_TOKENIZER_FACTOR);
}

/** The error a request past `window` gets (status and body), or undefined when it fits. */
export function windowProblem(
  api: 'openai' | 'anthropic',
  body: Json,
  window: number,
): { status: number; body: Json } | undefined {
  const input = windowTokens(api, body);
  const output = Number(body.max_tokens ?? body.max_completion_tokens ?? 0);
  if (api === 'openai') {
    if (input + output <= window) return undefined;
    const message = `This model's maximum context length is ${window} tokens. However, you requested ${input + output} tokens (${input} in the messages, ${output} in the completion). Please reduce the length of the messages or completion.`;
    return {
      status: 400,
      body: { error: { message, type: 'invalid_request_error', param: 'messages', code: 'context_length_exceeded' } },
    };
  }
  if (input > window)
    return {
      status: 400,
      body: {
        type: 'error',
        error: { type: 'invalid_request_error', message: `prompt is too long: ${input} tokens > ${window} maximum` },
      },
    };
  if (input + output > window) {
    return {
      status: 400,
      body: {
        type: 'error',
        error: {
          type: 'invalid_request_error',
          message: `input length and \`max_tokens\` exceed context limit: ${input} + ${output} > ${window}, decrease input length or \`max_tokens\` and try again`,
        },
      },
    };
  }
  return undefined;
}
