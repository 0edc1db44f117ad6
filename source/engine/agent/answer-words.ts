/** How a model's answer reads to the session: the code a submission carries, and an answer that ended oddly. */
import type { ModelResponse } from '../model/types';

/** The `code` argument of a submission, or the raw arguments when they are not JSON. */
export function codeArgument(json: string): string {
  try {
    return String(JSON.parse(json).code ?? '');
  } catch {
    return json;
  }
}

/** What the developer should know about how an answer ended: the model refused, or was cut off. */
export function oddStop(response: ModelResponse, maxTokens: number): string | undefined {
  if (response.stopReason === 'refusal')
    return `The model refused to answer${response.content ? `: ${response.content.slice(0, 200)}` : ''}. If it keeps refusing, stop the run and try another model.`;
  if (response.stopReason === 'length' || response.stopReason === 'max_tokens') {
    return `The model's answer was cut at maxTokens (${maxTokens})${response.toolCalls.length ? ': its last tool call may be incomplete' : ''}. Raise maxTokens in the config if this repeats.`;
  }
  return undefined;
}
