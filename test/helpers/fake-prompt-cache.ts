import { createHash } from 'node:crypto';

/**
 * The prompt caches of the two APIs, as their documentation describes them, for the fake model
 * server. Tokens are counted as 4 characters each of the request's JSON (the fake has no
 * tokenizer); what matters is that the same bytes give the same count and a longer prefix more.
 *
 * - OpenAI (developers.openai.com/api/docs/guides/prompt-caching; the cookbook's "Prompt Caching
 *   201"): automatic; a request of 1,024 tokens or more reads the longest prefix it shares exactly
 *   with an earlier request, in steps of 128 tokens; the prompt is the tool definitions, then the
 *   messages. Usage: prompt_tokens counts everything, prompt_tokens_details.cached_tokens the part
 *   read. Writes are free and not reported.
 * - Anthropic (platform.claude.com/docs/en/build-with-claude/prompt-caching): only prefixes that
 *   end at a block marked with cache_control (order: tools, system, messages), at most 4 marks (a
 *   5th is a 400), a prefix shorter than 1,024 tokens is not cached; a hit is looked for at each
 *   mark and up to 20 blocks before it. Usage: input_tokens counts only what is neither read nor
 *   written; cache_read_input_tokens and cache_creation_input_tokens the rest.
 */
export const MIN_CACHED_TOKENS = 1024;
const OPENAI_STEP = 128;
const LOOKBACK = 20;

export const tokensOf = (characters: number) => Math.ceil(characters / 4);

export interface CacheUsage {
  /** Every input token. */
  input: number;
  read: number;
  written: number;
}

function commonPrefix(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}

/** The prompt as OpenAI sees it: the tools, then each message, as the request's JSON has them. */
export function openAiPrompt(body: Record<string, unknown>): string {
  const messages = (body.messages as unknown[] | undefined) ?? [];
  return `${String(body.model)}\n${JSON.stringify(body.tools ?? [])}\n${messages.map((m) => JSON.stringify(m)).join('\n')}`;
}

export class OpenAiPromptCache {
  private readonly prompts: string[] = [];

  /** Counts a request and what of it the cache holds, then remembers it for later requests. */
  use(body: Record<string, unknown>, enabled: boolean): CacheUsage {
    const prompt = openAiPrompt(body);
    const input = tokensOf(prompt.length);
    const shared = enabled ? Math.max(0, ...this.prompts.map((earlier) => commonPrefix(earlier, prompt))) : 0;
    this.prompts.push(prompt);
    const sharedTokens = Math.floor(shared / 4);
    const read =
      input >= MIN_CACHED_TOKENS && sharedTokens >= MIN_CACHED_TOKENS
        ? Math.min(input, Math.floor(sharedTokens / OPENAI_STEP) * OPENAI_STEP)
        : 0;
    return { input, read, written: 0 };
  }
}

interface Block {
  text: string;
  marked: boolean;
}

const unmarked = (block: Record<string, unknown>) => {
  const { cache_control: _mark, ...rest } = block;
  return rest;
};

/** The request's blocks in the order Anthropic caches them: tools, system, messages. */
export function anthropicBlocks(body: Record<string, unknown>): Block[] {
  const blocks: Block[] = [];
  const add = (block: Record<string, unknown>, extra: Record<string, unknown> = {}) =>
    blocks.push({ text: JSON.stringify({ ...extra, ...unmarked(block) }), marked: !!block.cache_control });
  for (const tool of (body.tools as Record<string, unknown>[] | undefined) ?? []) add(tool);
  const system = body.system;
  if (typeof system === 'string') add({ type: 'text', text: system });
  else for (const block of (system as Record<string, unknown>[] | undefined) ?? []) add(block);
  for (const message of (body.messages as { role: string; content: unknown }[] | undefined) ?? []) {
    if (typeof message.content === 'string') add({ type: 'text', text: message.content }, { role: message.role });
    else for (const block of message.content as Record<string, unknown>[]) add(block, { role: message.role });
  }
  return blocks;
}

export class TooManyBreakpoints extends Error {}

export class AnthropicPromptCache {
  private readonly entries = new Set<string>();

  use(body: Record<string, unknown>, enabled: boolean): CacheUsage {
    const blocks = anthropicBlocks(body);
    // Each prefix by a hash chained over its blocks, and its length in tokens.
    const keys: string[] = [];
    const tokens: number[] = [];
    let key = String(body.model);
    let characters = 0;
    for (const block of blocks) {
      key = createHash('sha256').update(key).update(block.text).digest('hex');
      characters += block.text.length;
      keys.push(key);
      tokens.push(tokensOf(characters));
    }
    const input = tokens.at(-1) ?? 0;
    const marks = blocks.flatMap((block, i) => (block.marked ? [i] : []));
    if (marks.length > 4)
      throw new TooManyBreakpoints(`A maximum of 4 blocks with cache_control may be provided. Found ${marks.length}.`);
    if (!enabled) return { input, read: 0, written: 0 };
    let hit = -1;
    for (const mark of marks) {
      for (let i = mark; i >= Math.max(0, mark - LOOKBACK + 1); i--) {
        if (this.entries.has(keys[i]!)) {
          hit = Math.max(hit, i);
          break;
        }
      }
    }
    const read = hit >= 0 ? tokens[hit]! : 0;
    let writtenUpTo = -1;
    for (const mark of marks) {
      if (mark > hit && tokens[mark]! >= MIN_CACHED_TOKENS) {
        this.entries.add(keys[mark]!);
        writtenUpTo = mark;
      }
    }
    return { input, read, written: writtenUpTo >= 0 ? tokens[writtenUpTo]! - read : 0 };
  }
}
