import type { ModelRequest } from './types';
import type { ToolCall, Usage } from '../protocol/messages';

/** Chat formats add a few tokens of framing per message; OpenAI's own guide counts about this many. */
const PER_MESSAGE = 4;

/**
 * Token counts for a call whose server sent none (some OpenAI-compatible servers ignore
 * `stream_options.include_usage`), with the tokenizer perf/prompt-size.ts uses (o200k_base, GPT-4o
 * and GPT-4.1's). Other models tokenize differently, hence `estimated`. The tokenizer's tables are
 * large, so they load only when a server leaves usage out.
 */
export async function estimateUsage(
  request: ModelRequest,
  content: string,
  toolCalls: readonly ToolCall[],
): Promise<Usage> {
  const tokenizer = await import('gpt-tokenizer/encoding/o200k_base');
  // Code may contain "<|endoftext|>": counted as text, not refused as a special token.
  const countTokens = (text: string) => tokenizer.countTokens(text, { disallowedSpecial: new Set() });
  const callText = (calls: readonly ToolCall[]) => calls.map((c) => c.name + c.arguments).join('');
  let input = countTokens(request.system) + PER_MESSAGE;
  for (const message of request.messages) {
    input +=
      PER_MESSAGE +
      countTokens(message.content) +
      (message.role === 'assistant' ? countTokens(callText(message.toolCalls)) : 0);
  }
  if (request.tools.length) input += countTokens(JSON.stringify(request.tools));
  return { inputTokens: input, outputTokens: countTokens(content + callText(toolCalls)), estimated: true };
}
