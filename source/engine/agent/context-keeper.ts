import type { EventOf } from '../events';
import type { Message, ToolDefinition } from '../protocol/messages';
import { applyReplacements, condense, condensedKinds, type CondenseLevel } from './condense';
import {
  condenseAbove,
  condenseAtBoundaryAbove,
  condenseTarget,
  RequestSizer,
  type ContextBudget,
} from './context-size';

type Condensed = Omit<EventOf<'context.condensed'>, 'type'>;

export interface RequestFit {
  /** The request's size as it will be sent, against the window (a known window only). */
  context?: { tokens: number; window: number };
  /** What to replace before sending, when the request had to be condensed. */
  condensed?: Condensed;
  /** Even condensed as far as tenet goes, the request is past the window. */
  warning?: string;
}

/**
 * Keeps a conversation inside its model's context window: before each request it counts what
 * will be sent and, past the threshold, picks the mildest condensation (condense.ts) that brings
 * the request down to the target; at a stage boundary it condenses earlier, where the new prompt
 * costs the cache little. Without a known window it only acts on the provider's "too long".
 */
export class ContextKeeper {
  private sizer: RequestSizer | undefined;
  private boundary = false;

  constructor(private readonly budget: ContextBudget | undefined) {
    if (budget) this.sizer = new RequestSizer();
  }

  /** Made when first needed: a run without a window loads the tokenizer only for a "too long". */
  private get size(): RequestSizer {
    return (this.sizer ??= new RequestSizer());
  }

  /** The next request opens a stage (or an attempt, or an iteration). */
  markBoundary(): void {
    this.boundary = true;
  }

  async beforeRequest(
    system: string,
    messages: readonly Message[],
    tools: readonly ToolDefinition[],
    round: number,
  ): Promise<RequestFit> {
    const atBoundary = this.boundary;
    this.boundary = false;
    if (!this.budget) return {};
    const tokens = await this.size.request(system, messages, tools);
    const limit = atBoundary ? condenseAtBoundaryAbove(this.budget) : condenseAbove(this.budget);
    if (tokens <= limit) return { context: { tokens, window: this.budget.window } };
    const condensed = await this.condensed(
      system,
      messages,
      tools,
      round,
      tokens,
      1,
      atBoundary ? 'stage' : 'threshold',
    );
    const after = condensed?.tokensAfter ?? tokens;
    return {
      context: { tokens: after, window: this.budget.window },
      ...(condensed ? { condensed } : {}),
      ...(after > this.budget.window - this.budget.reserve ? { warning: this.pastWindow(after) } : {}),
    };
  }

  /** The request's input tokens as tenet counts them (what a token limit checks before the call). */
  count(system: string, messages: readonly Message[], tools: readonly ToolDefinition[]): Promise<number> {
    return this.size.request(system, messages, tools);
  }

  /** After the provider's "too long": the strongest condensation there is (once per request). */
  async afterTooLong(
    system: string,
    messages: readonly Message[],
    tools: readonly ToolDefinition[],
    round: number,
  ): Promise<Condensed | undefined> {
    const tokens = await this.size.request(system, messages, tools);
    return this.condensed(system, messages, tools, round, tokens, 3, 'too-long');
  }

  private pastWindow(tokens: number): string {
    return `The request is ${tokens.toLocaleString('en-US')} tokens even condensed, past the model's context window of ${this.budget!.window.toLocaleString('en-US')} less ${this.budget!.reserve.toLocaleString('en-US')} for its answer: the provider may refuse it. A model with a larger window, or a smaller maxTokens, fits more.`;
  }

  /** The mildest level from `from` on that reaches the target (else the strongest), or nothing when no level changes anything. */
  private async condensed(
    system: string,
    messages: readonly Message[],
    tools: readonly ToolDefinition[],
    round: number,
    before: number,
    from: CondenseLevel,
    why: Condensed['why'],
  ): Promise<Condensed | undefined> {
    const target = this.budget ? condenseTarget(this.budget) : 0;
    let best: { level: CondenseLevel; replaced: ReturnType<typeof condense>; tokens: number } | undefined;
    for (let level = from; level <= 3; level++) {
      const replaced = condense(messages, level as CondenseLevel);
      if (!replaced.length) continue;
      const trial = [...messages];
      applyReplacements(trial, replaced);
      best = { level: level as CondenseLevel, replaced, tokens: await this.size.request(system, trial, tools) };
      if (best.tokens <= target) break;
    }
    if (!best) return undefined;
    return {
      round,
      why,
      level: best.level,
      replaced: best.replaced,
      kinds: condensedKinds(messages, best.replaced),
      tokensBefore: before,
      tokensAfter: best.tokens,
      ...(this.budget ? { window: this.budget.window } : {}),
    };
  }
}
