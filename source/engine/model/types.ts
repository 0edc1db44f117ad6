import type { Message, ToolCall, ToolDefinition, Usage } from '../protocol/messages';

export interface ModelRequest {
  system: string;
  messages: Message[];
  tools: ToolDefinition[];
  temperature: number;
  maxTokens: number;
}

export interface ModelResponse {
  content: string;
  toolCalls: ToolCall[];
  usage: Usage;
  /** Why the model stopped: 'tool_calls', 'stop', 'length', … as the provider says it. */
  stopReason: string;
  /** The model that answered, as the provider names it. */
  model: string;
  /** An answer from a recorded session (rerun): what it cost then, which the run counts instead of pricing it again. */
  recorded?: { costUsd: number; cacheSavedUsd?: number | undefined };
}

export interface RetryNotice {
  attempt: number;
  maxAttempts: number;
  reason: string;
  delayMs: number;
}

export interface ToolDelta {
  index: number;
  name: string;
  arguments: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Text as it streams in. */
  onDelta?: (text: string) => void;
  /**
   * A tool call's arguments as they stream in (the UI shows the code growing): the call's place in
   * the answer, its name, and the next piece of its JSON (empty when the call has just begun).
   */
  onToolDelta?: (delta: ToolDelta) => void;
  /** Something the provider's SDK warned about (a deprecated model), for the run to show once as its own warning. */
  onWarning?: (message: string) => void;
  /** A failed attempt that will be retried (429, 5xx, timeout, a stream cut). */
  onRetry?: (notice: RetryNotice) => void;
  /**
   * The call ends without an answer (the provider gave up, or it was cancelled) after attempts the
   * provider billed (cut mid-stream, or while streaming): what they used, told before the error is
   * thrown, so that it is counted.
   */
  onUnanswered?: (usage: Usage) => void;
}

export interface Model {
  readonly provider: string;
  readonly name: string;
  /** What the UI shows: the model, or that a scripted stand-in answers. */
  readonly label: string;
  complete(request: ModelRequest, options?: CallOptions): Promise<ModelResponse>;
  /**
   * A recorded session's calls that got no answer (rerun), met before the answer `complete` gives
   * next, each once: the conversation counts them at their recorded cost and checks the limits
   * after each, as the run did.
   */
  unansweredBefore?(): RecordedUnanswered[];
}

/** A call of a recorded session that got no answer, and what the provider billed for it then. */
export interface RecordedUnanswered {
  reason: 'failed' | 'cancelled';
  usage: Usage;
  costUsd: number;
  cacheSavedUsd?: number | undefined;
  durationMs: number;
}

/** A provider failed for good (after retries, or on an error retrying cannot fix). Exit code 3. `fix` says what to do. */
export class ProviderError extends Error {
  constructor(
    message: string,
    readonly status?: number,
    readonly fix = 'check the API key, --model and --base-url, or try again later',
    /** The request was longer than the model's context window (the conversation condenses harder and asks again). */
    readonly tooLong = false,
  ) {
    super(message);
    this.name = 'ProviderError';
  }
}
