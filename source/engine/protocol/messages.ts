import * as z from 'zod';

/** A tool call as the model made it: arguments are the raw JSON text it sent (it may be malformed). */
export const toolCallSchema = z.object({ id: z.string(), name: z.string(), arguments: z.string() });
export type ToolCall = z.infer<typeof toolCallSchema>;

/** Provider-neutral conversation, converted to each wire format by its provider. */
export const messageSchema = z.discriminatedUnion('role', [
  z.object({ role: z.literal('user'), content: z.string() }),
  z.object({ role: z.literal('assistant'), content: z.string(), toolCalls: z.array(toolCallSchema) }),
  z.object({ role: z.literal('tool'), toolCallId: z.string(), name: z.string(), content: z.string() }),
]);
export type Message = z.infer<typeof messageSchema>;

/**
 * The tokens of one model call. `inputTokens` is every input token, cached or not (what OpenAI
 * calls prompt_tokens; Anthropic's input_tokens plus its two cache counts); the cache counts say
 * how many of them were read from, or written to, the provider's prompt cache, which bills them at
 * other prices. Sessions recorded before tenet counted the cache have no cache fields: read as 0.
 */
export const usageSchema = z.object({
  inputTokens: z.number(),
  outputTokens: z.number(),
  /** Of inputTokens, read from the prompt cache (OpenAI's cached_tokens, Anthropic's cache_read_input_tokens). */
  cacheReadTokens: z.number().optional(),
  /** Of inputTokens, written to the prompt cache (Anthropic's cache_creation_input_tokens; OpenAI writes for free and reports none). */
  cacheWriteTokens: z.number().optional(),
  /** The server reported no usage: tenet counted the tokens itself (o200k_base), so they are approximate. */
  estimated: z.boolean().optional(),
});
export type Usage = z.infer<typeof usageSchema>;

/** The JSON-schema definition of a tool, as both the OpenAI and Anthropic APIs take it. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
