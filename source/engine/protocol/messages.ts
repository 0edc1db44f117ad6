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

export interface Usage {
  inputTokens: number;
  outputTokens: number;
  /** The server reported no usage: tenet counted the tokens itself (o200k_base), so they are approximate. */
  estimated?: boolean;
}

/** The JSON-schema definition of a tool, as both the OpenAI and Anthropic APIs take it. */
export interface ToolDefinition {
  name: string;
  description: string;
  parameters: Record<string, unknown>;
}
