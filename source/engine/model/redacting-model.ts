import type { Redactor } from '../util/redact';
import type { Message } from '../protocol/messages';
import { ProviderError, type Model } from './types';

function redactMessage(message: Message, text: (value: string) => string): Message {
  if (message.role === 'assistant')
    return {
      ...message,
      content: text(message.content),
      toolCalls: message.toolCalls.map((call) => ({ ...call, arguments: text(call.arguments) })),
    };
  return { ...message, content: text(message.content) };
}

/**
 * A model whose requests carry no secret of tenet's environment: what a tool printed (a shell
 * that read `/proc/*\/environ`, a test that printed a key) is redacted before it is sent, and a
 * provider's error that echoes the key it was given is redacted before anyone prints it.
 */
export function redactingModel(model: Model, redactor: Redactor): Model {
  const text = (value: string) => redactor.text(value);
  return {
    provider: model.provider,
    name: model.name,
    label: model.label,
    async complete(request, options = {}) {
      try {
        return await model.complete(
          { ...request, system: text(request.system), messages: request.messages.map((m) => redactMessage(m, text)) },
          {
            ...options,
            ...(options.onRetry
              ? { onRetry: (notice) => options.onRetry!({ ...notice, reason: text(notice.reason) }) }
              : {}),
          },
        );
      } catch (error) {
        if (error instanceof ProviderError)
          throw new ProviderError(text(error.message), error.status, error.fix, error.tooLong);
        if (error instanceof Error && error.name !== 'AbortError') error.message = text(error.message);
        throw error;
      }
    },
  };
}
