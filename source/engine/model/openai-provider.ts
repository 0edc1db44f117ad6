import OpenAI from 'openai';
import type { AttemptUsage } from './attempt-usage';
import { estimateUsage } from './estimate-usage';
import { SdkModel, type ProviderSettings } from './sdk-model';
import type { StreamWatch } from './stream-watch';
import type { CallOptions, ModelRequest, ModelResponse } from './types';
import type { Message, ToolCall, Usage } from '../protocol/messages';

type WireMessage = OpenAI.Chat.Completions.ChatCompletionMessageParam;

function toOpenAiMessages(system: string, messages: Message[]): WireMessage[] {
  const wire: WireMessage[] = [{ role: 'system', content: system }];
  for (const message of messages) {
    if (message.role === 'user') wire.push({ role: 'user', content: message.content });
    else if (message.role === 'tool')
      wire.push({ role: 'tool', tool_call_id: message.toolCallId, content: message.content });
    else {
      // Content may be left out only beside tool calls: an empty answer (a refusal had its text
      // recorded as content) goes back as a placeholder, or every later request is a 400.
      wire.push({
        role: 'assistant',
        content: message.content || (message.toolCalls.length ? null : '(no content)'),
        ...(message.toolCalls.length
          ? {
              tool_calls: message.toolCalls.map((c) => ({
                id: c.id,
                type: 'function' as const,
                function: { name: c.name, arguments: c.arguments },
              })),
            }
          : {}),
      });
    }
  }
  return wire;
}

/**
 * Token counts as tenet records them. prompt_tokens counts every input token; of them, OpenAI
 * reports those read from its prompt cache as prompt_tokens_details.cached_tokens, and DeepSeek
 * (an OpenAI-compatible server) as prompt_cache_hit_tokens. Neither charges for cache writes.
 */
export function openAiUsage(usage: OpenAI.CompletionUsage & { prompt_cache_hit_tokens?: number }): Usage {
  const read = usage.prompt_tokens_details?.cached_tokens ?? usage.prompt_cache_hit_tokens ?? 0;
  return {
    inputTokens: usage.prompt_tokens ?? 0,
    outputTokens: usage.completion_tokens ?? 0,
    cacheReadTokens: read,
    cacheWriteTokens: 0,
  };
}

/**
 * OpenAI's reasoning models (o1, o3, o4-mini, the gpt-5 family and the generations after it, but
 * their chat variants) reject `max_tokens` and any temperature but the default: they take
 * `max_completion_tokens` instead. Other OpenAI-compatible servers may know only `max_tokens`, so
 * it stays for everything else.
 */
function isReasoningModel(model: string): boolean {
  const name = model.toLowerCase().replace(/^.*\//, ''); // "openai/o3-mini" → "o3-mini"
  const generation = /^gpt-(\d+)(?:\.\d+)?(?!\.)(-.*)?$/.exec(name);
  return /^o\d/.test(name) || (!!generation && Number(generation[1]) >= 5 && !/-chat/.test(generation[2] ?? ''));
}

/**
 * OpenAI chat completions with tools, streamed (with `stream_options.include_usage` for token
 * counts), parallel tool calls on. Any OpenAI-compatible server works through the base URL:
 * DeepSeek, vLLM, Ollama, llama.cpp.
 */
export class OpenAiModel extends SdkModel<OpenAI> {
  readonly provider = 'openai';

  constructor(settings: ProviderSettings) {
    super(settings, 'openai', (options) => new OpenAI(options));
  }

  protected async once(
    request: ModelRequest,
    options: CallOptions,
    watch: StreamWatch,
    attempt: AttemptUsage,
  ): Promise<ModelResponse> {
    const reasoning = isReasoningModel(this.settings.model);
    let content = '';
    let refusal = '';
    let stopReason = '';
    let model = this.settings.model;
    let usage: Usage | undefined;
    const calls: { id: string; name: string; arguments: string }[] = [];
    try {
      const stream = await this.client.chat.completions.create(
        {
          model: this.settings.model,
          messages: toOpenAiMessages(request.system, request.messages),
          ...(request.tools.length
            ? {
                tools: request.tools.map((t) => ({
                  type: 'function' as const,
                  function: { name: t.name, description: t.description, parameters: t.parameters },
                })),
                parallel_tool_calls: true,
              }
            : {}),
          ...(reasoning
            ? { max_completion_tokens: request.maxTokens }
            : { temperature: request.temperature, max_tokens: request.maxTokens }),
          stream: true,
          stream_options: { include_usage: true },
        },
        { signal: watch.signal },
      );
      for await (const chunk of stream) {
        watch.touch();
        attempt.chunk();
        if (chunk.model) model = chunk.model;
        if (chunk.usage) attempt.report((usage = openAiUsage(chunk.usage)), true);
        const choice = chunk.choices?.[0];
        if (!choice) continue;
        if (choice.finish_reason) stopReason = choice.finish_reason;
        const delta = choice.delta;
        if (delta?.content) {
          content += delta.content;
          options.onDelta?.(delta.content);
        }
        if (delta?.refusal) {
          refusal += delta.refusal;
          options.onDelta?.(delta.refusal);
        }
        for (const part of delta?.tool_calls ?? []) {
          const call = (calls[part.index] ??= { id: '', name: '', arguments: '' });
          if (part.id) call.id = part.id;
          if (part.function?.name) call.name += part.function.name;
          if (part.function?.arguments) call.arguments += part.function.arguments;
          if (part.function?.name || part.function?.arguments)
            options.onToolDelta?.({ index: part.index, name: call.name, arguments: part.function?.arguments ?? '' });
        }
      }
    } catch (error) {
      throw watch.failure(error);
    }
    // The SDK ends quietly when the server closes without [DONE]; a finish_reason is the proof the answer is whole.
    watch.finish(!!stopReason, 'finish_reason');
    const toolCalls: ToolCall[] = calls
      .filter(Boolean)
      .map((c, i) => ({ id: c.id || `call_${i}`, name: c.name, arguments: c.arguments }));
    // Some OpenAI-compatible servers ignore include_usage: count the tokens ourselves, marked as estimated.
    // A refusal comes in its own field, with no content: it is the answer, and the stop's reason.
    if (refusal && !content) [content, stopReason] = [refusal, 'refusal'];
    return {
      content,
      toolCalls,
      usage: usage ?? (await estimateUsage(request, content, toolCalls)),
      stopReason,
      model,
    };
  }
}
