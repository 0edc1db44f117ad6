import Anthropic from '@anthropic-ai/sdk';
import {
  anthropicUsage,
  cachedSystem,
  cachedTools,
  markConversation,
  type ConversationMessage,
} from './anthropic-cache';
import type { AttemptUsage } from './attempt-usage';
import { catchingSdkWarnings } from './sdk-console';
import { SdkModel, type ProviderSettings } from './sdk-model';
import type { StreamWatch } from './stream-watch';
import type { CallOptions, ModelRequest, ModelResponse } from './types';
import type { Message, ToolCall, Usage } from '../protocol/messages';

type Block = Anthropic.ContentBlockParam;

function parseInput(raw: string): Record<string, unknown> {
  try {
    const value = JSON.parse(raw || '{}');
    return value && typeof value === 'object' && !Array.isArray(value) ? value : { value };
  } catch {
    // Malformed JSON cannot be a tool_use input; the tool result already told the model.
    return {};
  }
}

/**
 * Anthropic wants strict user/assistant alternation and tool results as user content blocks: tool
 * results and the prompt that follows them become one user message.
 */
export function toAnthropicMessages(messages: Message[]): ConversationMessage[] {
  const wire: ConversationMessage[] = [];
  const push = (role: 'user' | 'assistant', blocks: Block[]) => {
    const last = wire[wire.length - 1];
    if (last && last.role === role) last.content.push(...blocks);
    else wire.push({ role, content: blocks });
  };
  // The API refuses a text block of whitespace alone (400): such text goes as a placeholder, or not at all.
  const said = (text: string) => text.trim().length > 0;
  for (const message of messages) {
    if (message.role === 'user')
      push('user', [{ type: 'text', text: said(message.content) ? message.content : '(empty)' }]);
    else if (message.role === 'tool')
      push('user', [
        {
          type: 'tool_result',
          tool_use_id: message.toolCallId,
          content: said(message.content) ? message.content : '(no output)',
        },
      ]);
    else {
      const blocks: Block[] = [];
      if (said(message.content)) blocks.push({ type: 'text', text: message.content });
      for (const call of message.toolCalls)
        blocks.push({ type: 'tool_use', id: call.id, name: call.name, input: parseInput(call.arguments) });
      push('assistant', blocks.length ? blocks : [{ type: 'text', text: '(no content)' }]);
    }
  }
  return wire;
}

/** The request's body: the conversation in Anthropic's shape, with its prompt-cache breakpoints (see anthropic-cache.ts). */
export function toAnthropicBody(model: string, request: ModelRequest): Anthropic.MessageCreateParamsStreaming {
  const messages = toAnthropicMessages(request.messages);
  markConversation(messages);
  const system = cachedSystem(request.system);
  const tools = request.tools.map((t) => ({
    name: t.name,
    description: t.description,
    input_schema: t.parameters as Anthropic.Tool.InputSchema,
  }));
  return {
    model,
    max_tokens: request.maxTokens,
    ...(system ? { system } : {}),
    messages,
    ...(tools.length ? { tools: cachedTools(tools) } : {}),
    stream: true,
  };
}

/** Anthropic messages with tool_use / tool_result blocks, streamed, the repeated prefix cached. */
export class AnthropicModel extends SdkModel<Anthropic> {
  readonly provider = 'anthropic';
  /** What the SDK warned, said once per run (it warns on every request). */
  private readonly warned = new Set<string>();

  constructor(settings: ProviderSettings) {
    super(settings, 'anthropic', (options) => new Anthropic(options));
  }

  protected async once(
    request: ModelRequest,
    options: CallOptions,
    watch: StreamWatch,
    attempt: AttemptUsage,
  ): Promise<ModelResponse> {
    let content = '';
    let stopReason = '';
    let stopped = false;
    let model = this.settings.model;
    let usage: Usage = { inputTokens: 0, outputTokens: 0, cacheReadTokens: 0, cacheWriteTokens: 0 };
    const blocks = new Map<number, { type: string; id: string; name: string; json: string }>();
    try {
      // No temperature: this SDK sends anthropic-version 2026-10-21, under which the Messages API
      // answers 400 to any sampling parameter (temperature, top_p, top_k), even at its default.
      const body = toAnthropicBody(this.settings.model, request);
      const stream = await catchingSdkWarnings(
        () => this.client.messages.create(body, { signal: watch.signal }),
        (message) => {
          if (this.warned.has(message)) return;
          this.warned.add(message);
          options.onWarning?.(`The Anthropic SDK says: ${message}`);
        },
      );
      for await (const event of stream) {
        watch.touch();
        attempt.chunk();
        switch (event.type) {
          case 'message_start':
            model = event.message.model || model;
            // The input and cache counts; the output's is only begun (1 or so) until message_delta.
            if (event.message.usage) attempt.report((usage = anthropicUsage(event.message.usage)), false);
            break;
          case 'content_block_start': {
            const block = event.content_block;
            blocks.set(event.index, {
              type: block.type,
              id: block.type === 'tool_use' ? block.id : '',
              name: block.type === 'tool_use' ? block.name : '',
              json: '',
            });
            if (block.type === 'text' && block.text) {
              content += block.text;
              options.onDelta?.(block.text);
            }
            if (block.type === 'tool_use')
              options.onToolDelta?.({ index: event.index, name: block.name, arguments: '' });
            break;
          }
          case 'content_block_delta':
            if (event.delta.type === 'text_delta') {
              content += event.delta.text;
              options.onDelta?.(event.delta.text);
            } else if (event.delta.type === 'input_json_delta') {
              const block = blocks.get(event.index);
              if (block) block.json += event.delta.partial_json;
              if (block)
                options.onToolDelta?.({ index: event.index, name: block.name, arguments: event.delta.partial_json });
            }
            break;
          case 'message_delta':
            if (event.delta.stop_reason) stopReason = event.delta.stop_reason;
            if (event.usage) attempt.report((usage = anthropicUsage(event.usage, usage)), true);
            break;
          case 'message_stop':
            stopped = true;
            break;
          default:
            break;
        }
      }
    } catch (error) {
      throw watch.failure(error);
    }
    // The SDK ends quietly when the connection closes cleanly; only message_stop says the answer is whole.
    watch.finish(stopped, 'message_stop');
    const toolCalls: ToolCall[] = [...blocks.entries()]
      .sort(([a], [b]) => a - b)
      .filter(([, b]) => b.type === 'tool_use')
      .map(([, b]) => ({ id: b.id, name: b.name, arguments: b.json || '{}' }));
    return { content, toolCalls, usage, stopReason: stopReason || 'end_turn', model };
  }
}
