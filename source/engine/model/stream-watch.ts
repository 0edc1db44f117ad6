import { RetryableError } from './retry';

const cancelled = () => Object.assign(new Error('cancelled'), { name: 'AbortError' });

/**
 * Guards one streamed model call. The SDK timeout only covers the wait for the response headers,
 * so a stream that stalls afterwards would hang for good: an idle timer, reset on every chunk,
 * aborts the request instead. And both SDKs end their iteration quietly when the connection
 * closes cleanly or the request is aborted, so the caller reports whether the stream's end marker
 * came; a stall or a missing end marker becomes a retryable error, never a half answer.
 */
export class StreamWatch {
  /** Give this to the SDK call. */
  readonly signal: AbortSignal;
  private readonly idle = new AbortController();
  private timer: ReturnType<typeof setTimeout> | undefined;
  private stalled = false;

  constructor(
    private readonly idleMs: number,
    private readonly outer?: AbortSignal,
  ) {
    this.signal = outer ? AbortSignal.any([outer, this.idle.signal]) : this.idle.signal;
    this.touch();
  }

  /** Data arrived: the stream is alive. */
  touch(): void {
    clearTimeout(this.timer);
    this.timer = setTimeout(() => {
      this.stalled = true;
      this.idle.abort();
    }, this.idleMs);
  }

  /** What to throw for an error of the call: a stall shows up as the abort it caused. */
  failure(error: unknown): unknown {
    clearTimeout(this.timer);
    if (this.outer?.aborted) return error;
    return this.stalled ? this.stallError() : error;
  }

  /** After the stream loop: throws unless it ended with its end marker (`ended`). */
  finish(ended: boolean, marker: string): void {
    clearTimeout(this.timer);
    if (this.outer?.aborted) throw cancelled();
    if (this.stalled) throw this.stallError();
    if (!ended) throw new RetryableError(`stream ended early (no ${marker})`);
  }

  private stallError(): RetryableError {
    return new RetryableError(`stream stalled (no data for ${Math.round(this.idleMs / 100) / 10} s)`);
  }
}
