import { estimateUsage } from './estimate-usage';
import type { CallOptions, ModelRequest } from './types';
import type { Usage } from '../protocol/messages';

/**
 * What one streamed attempt at a model call has used so far, kept for when the stream is cut (a
 * dropped connection, an error event such as `overloaded_error`, a stall) and the call retried:
 * the provider bills the tokens it read and those it streamed all the same, so the call counts
 * them. Its counts are the provider's where it sent them before the cut (Anthropic's
 * message_start has the input and cache counts; OpenAI sends usage only in its last chunk), the
 * rest estimated, and marked so.
 */
export class AttemptUsage {
  private began = false;
  private reported: Usage | undefined;
  private outputReported = false;
  private content = '';
  private readonly calls = new Map<number, { name: string; arguments: string }>();

  /** A chunk arrived: the server took the request and began answering, which it bills. */
  chunk(): void {
    this.began = true;
  }

  /** The provider's counts; `final`: with the whole answer's output count (OpenAI's last chunk, Anthropic's message_delta), not the 1 or so of Anthropic's message_start. */
  report(usage: Usage, final: boolean): void {
    this.reported = usage;
    this.outputReported = final;
  }

  /** The call's options, the streamed output kept on the way: both providers pass every piece of text and tool call through them (the UI shows them). */
  watching(options: CallOptions): CallOptions {
    return {
      ...options,
      onDelta: (text) => {
        this.content += text;
        options.onDelta?.(text);
      },
      onToolDelta: (delta) => {
        const call = this.calls.get(delta.index) ?? { name: '', arguments: '' };
        call.name = delta.name;
        call.arguments += delta.arguments;
        this.calls.set(delta.index, call);
        options.onToolDelta?.(delta);
      },
    };
  }

  /** What the cut attempt used; undefined when no chunk came (a 429, a refused connection, a timeout before the headers: nothing is billed). */
  async used(request: ModelRequest): Promise<Usage | undefined> {
    if (!this.began) return undefined;
    if (this.reported && this.outputReported) return this.reported;
    const estimate = await estimateUsage(
      request,
      this.content,
      [...this.calls.values()].map((c) => ({ id: '', ...c })),
    );
    if (!this.reported) return estimate;
    return {
      ...this.reported,
      outputTokens: Math.max(this.reported.outputTokens, estimate.outputTokens),
      estimated: true,
    };
  }
}

/** Two usages as one call's: each kind summed (the cache counts only when either has them), estimated when either was. */
export function plusUsage(a: Usage, b: Usage): Usage {
  const kind = (x: number | undefined, y: number | undefined) =>
    x === undefined && y === undefined ? undefined : (x ?? 0) + (y ?? 0);
  const read = kind(a.cacheReadTokens, b.cacheReadTokens);
  const written = kind(a.cacheWriteTokens, b.cacheWriteTokens);
  return {
    inputTokens: a.inputTokens + b.inputTokens,
    outputTokens: a.outputTokens + b.outputTokens,
    ...(read !== undefined ? { cacheReadTokens: read } : {}),
    ...(written !== undefined ? { cacheWriteTokens: written } : {}),
    ...(a.estimated || b.estimated ? { estimated: true } : {}),
  };
}
