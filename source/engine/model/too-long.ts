/**
 * A provider's answer that the request is longer than the model's context window: OpenAI's 400
 * with code `context_length_exceeded` ("This model's maximum context length is … tokens"), and
 * Anthropic's 400 `invalid_request_error` "prompt is too long: … tokens > … maximum" (or, input and
 * max_tokens together, "input length and `max_tokens` exceed context limit"). OpenAI-
 * compatible servers word it their own way (vLLM: "maximum context length"; llama.cpp: "exceeds
 * the available context size"), hence the wording too.
 */
export function isContextTooLong(error: unknown): boolean {
  const e = error as
    | { status?: unknown; code?: unknown; message?: unknown; error?: { code?: unknown; error?: { code?: unknown } } }
    | undefined;
  if (!e || (typeof e.status === 'number' && e.status !== 400 && e.status !== 413)) return false;
  const codes = [e.code, e.error?.code, e.error?.error?.code];
  if (codes.includes('context_length_exceeded')) return true;
  return /context_length_exceeded|prompt is too long|maximum context length|exceed context limit|exceeds the (available )?context (size|window)/i.test(
    String(e.message ?? ''),
  );
}
