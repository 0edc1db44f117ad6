/** A tool call as the model made it: arguments are the raw JSON text it sent (it may be malformed). */
export interface ToolCall {
  id: string;
  name: string;
  arguments: string;
}

/** Provider-neutral conversation, converted to each wire format by its provider. */
export type Message =
  | { role: 'user'; content: string }
  | { role: 'assistant'; content: string; toolCalls: ToolCall[] }
  | { role: 'tool'; toolCallId: string; name: string; content: string };

/**
 * The tokens of one model call. `inputTokens` is every input token, cached or not (what OpenAI
 * calls prompt_tokens; Anthropic's input_tokens plus its two cache counts); the cache counts say
 * how many of them were read from, or written to, the provider's prompt cache, which bills them at
 * other prices. Sessions recorded before tenet counted the cache have no cache fields: read as 0.
 */
export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** Of inputTokens, read from the prompt cache (OpenAI's cached_tokens, Anthropic's cache_read_input_tokens). */
  cacheReadTokens?: number;
  /** Of inputTokens, written to the prompt cache (Anthropic's cache_creation_input_tokens; OpenAI writes for free and reports none). */
  cacheWriteTokens?: number;
  /** The server reported no usage: tenet counted the tokens itself (o200k_base), so they are approximate. */
  estimated?: boolean;
}

/** The JSON-schema definition of a tool, as both the OpenAI and Anthropic APIs take it. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
