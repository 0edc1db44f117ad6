import type Anthropic from '@anthropic-ai/sdk';
import type { Usage } from '../protocol/messages';

/**
 * Where an Anthropic request marks its prompt-cache breakpoints. Anthropic caches nothing unless a
 * block carries `cache_control`; the prefix up to a marked block (in the order tools → system →
 * messages) is written to the cache, and a later request that repeats it reads it at a tenth of the
 * input price (platform.claude.com/docs/en/build-with-claude/prompt-caching). The rules that shape
 * this file: at most 4 breakpoints a request (more is a 400); a hit is looked for at each
 * breakpoint and at most 20 blocks before it; a prefix shorter than the model's minimum (1,024
 * tokens for Sonnet 4.5, more for some models) is simply not cached, without an error.
 *
 * A TENET session resends its growing conversation every round, so four marks do the work:
 * 1. the last tool definition: the tool schemas (~1,500 tokens) are the same in every session
 *    with the same toolset, so they are read from the cache across the tasks of a benchmark run;
 * 2. the system prompt: tools + system, the same for the whole session;
 * 3. the end of the previous request (its last user message): what this request reads;
 * 4. the end of this request (its last message): what the next request will read.
 * Mark 3 keeps the hit when a round added more than 20 blocks (many parallel tool calls), where
 * mark 4's look-back would not reach the previous entry. Four is also all the API takes.
 */

const EPHEMERAL: Anthropic.CacheControlEphemeral = { type: 'ephemeral' };

/** A message of the conversation as tenet sends it: always a list of blocks, so any can carry a breakpoint. */
export type ConversationMessage = { role: 'user' | 'assistant'; content: Anthropic.ContentBlockParam[] };

/** Marks the last block of a message (text, tool_use and tool_result blocks all take a breakpoint). */
function markLastBlock(message: ConversationMessage | undefined): void {
  const block = message?.content.at(-1);
  if (block) Object.assign(block, { cache_control: EPHEMERAL });
}

/** Marks the conversation in place: this request's end and the previous request's end. */
export function markConversation(messages: ConversationMessage[]): void {
  const lastAssistant = messages.findLastIndex((m) => m.role === 'assistant');
  // The previous request ended with the user message just before the model's last answer.
  const previousEnd = lastAssistant > 0 ? messages.slice(0, lastAssistant).findLastIndex((m) => m.role === 'user') : -1;
  if (previousEnd >= 0 && previousEnd !== messages.length - 1) markLastBlock(messages[previousEnd]);
  markLastBlock(messages.at(-1));
}

/** The system prompt as one text block with a breakpoint (an empty system prompt is left out: the API refuses empty text blocks). */
export function cachedSystem(system: string): Anthropic.TextBlockParam[] | undefined {
  return system ? [{ type: 'text', text: system, cache_control: EPHEMERAL }] : undefined;
}

/** The tool definitions with a breakpoint on the last one. */
export function cachedTools(tools: Anthropic.Tool[]): Anthropic.Tool[] {
  return tools.map((tool, i) => (i === tools.length - 1 ? { ...tool, cache_control: EPHEMERAL } : tool));
}

type WireUsage = {
  input_tokens?: number | null;
  output_tokens?: number | null;
  cache_creation_input_tokens?: number | null;
  cache_read_input_tokens?: number | null;
};

/**
 * Anthropic's usage as tenet records it. Anthropic's input_tokens counts only the input after the
 * last cache breakpoint: the request's input is input_tokens + cache_creation_input_tokens +
 * cache_read_input_tokens (the SDK's Usage documents the sum), which is what inputTokens holds.
 * A stream reports usage in message_start and again, cumulatively, in message_delta, where a
 * count may be missing or null: each count is the largest reported so far (cumulative counts
 * never go down).
 */
export function anthropicUsage(usage: WireUsage, previous?: Usage): Usage {
  const before = { read: previous?.cacheReadTokens ?? 0, written: previous?.cacheWriteTokens ?? 0 };
  const read = Math.max(usage.cache_read_input_tokens ?? 0, before.read);
  const written = Math.max(usage.cache_creation_input_tokens ?? 0, before.written);
  const fresh = Math.max(usage.input_tokens ?? 0, previous ? previous.inputTokens - before.read - before.written : 0);
  return {
    inputTokens: fresh + read + written,
    outputTokens: Math.max(usage.output_tokens ?? 0, previous?.outputTokens ?? 0),
    cacheReadTokens: read,
    cacheWriteTokens: written,
  };
}
