import type { IncomingMessage } from 'node:http';

/**
 * What the real APIs answer 400 to, checked on every request the fake model server gets, so a
 * request the real server would refuse fails the tests too instead of being answered. Each rule
 * says what the API says.
 */
export function requestProblem(
  api: 'openai' | 'anthropic',
  headers: IncomingMessage['headers'],
  body: Record<string, unknown>,
): string | undefined {
  return api === 'openai' ? openAiProblem(body) : anthropicProblem(headers, body);
}

type Json = Record<string, unknown>;
const list = (value: unknown): Json[] => (Array.isArray(value) ? (value as Json[]) : []);

function openAiProblem(body: Json): string | undefined {
  for (const [index, message] of list(body.messages).entries()) {
    // "content: required unless tool_calls or function_call is specified" (assistant messages).
    if (
      message.role === 'assistant' &&
      typeof message.content !== 'string' &&
      !Array.isArray(message.content) &&
      !list(message.tool_calls).length
    ) {
      return `Invalid value for 'messages[${index}].content': expected a string, got ${message.content === undefined ? 'nothing' : String(message.content)}.`;
    }
  }
  return undefined;
}

function anthropicProblem(headers: IncomingMessage['headers'], body: Json): string | undefined {
  const version = String(headers['anthropic-version'] ?? '');
  if (!version) return 'anthropic-version: header is required';
  // API version 2026-10-21 removed the sampling parameters: a 400 even at their defaults.
  if (version >= '2026-10-21') {
    for (const name of ['temperature', 'top_p', 'top_k'])
      if (name in body) return `${name}: Extra inputs are not permitted`;
  }
  if (typeof body.max_tokens !== 'number') return 'max_tokens: Field required';
  for (const block of list(body.system))
    if (!String(block.text ?? '').trim()) return 'system: text content blocks must contain non-whitespace text';
  const messages = list(body.messages);
  for (const [index, message] of messages.entries()) {
    const blocks =
      typeof message.content === 'string' ? [{ type: 'text', text: message.content }] : list(message.content);
    if (!blocks.length) return `messages.${index}: all messages must have non-empty content`;
    for (const block of blocks) {
      if (block.type === 'text' && !String(block.text ?? '').trim())
        return 'messages: text content blocks must contain non-whitespace text';
    }
    // Every tool_use is answered by a tool_result at the start of the next message.
    const uses = blocks.filter((block) => block.type === 'tool_use').map((block) => block.id);
    const next = list(messages[index + 1]?.content);
    const answered = new Set(next.filter((block) => block.type === 'tool_result').map((block) => block.tool_use_id));
    if (uses.some((id) => !answered.has(id)) && index + 1 < messages.length) {
      return `messages.${index + 1}: \`tool_use\` ids were found without \`tool_result\` blocks immediately after`;
    }
  }
  return undefined;
}
