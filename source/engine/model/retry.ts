import { ProviderError, type RetryNotice } from './types';

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server's Retry-After longer than this is cut to it (`Retry-After: 3600` must not stall a run for an hour); default 60 s. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY = { maxAttempts: 5, baseDelayMs: 1000, maxDelayMs: 30_000, maxRetryAfterMs: 60_000 } satisfies RetryPolicy;

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * A failure the providers detect themselves (a stream that stalled, or ended without its end
 * marker): the SDKs see nothing wrong there, so the reason is given here.
 */
export class RetryableError extends Error {
  override name = 'RetryableError';
}

/** Worth another try: rate limits, server errors, timeouts, dropped connections and cut streams. */
export function retryable(error: unknown): { retry: boolean; reason: string; status?: number; retryAfterMs?: number } {
  if (error instanceof RetryableError) return { retry: true, reason: error.message };
  const e = error as { status?: number; name?: string; message?: string; code?: string; headers?: Record<string, string> | { get?(k: string): string | null } };
  const status = typeof e?.status === 'number' ? e.status : undefined;
  const message = e?.message ?? String(error);
  const header = (name: string): string | undefined => {
    const headers = e?.headers as { get?(k: string): string | null } & Record<string, string>;
    if (!headers) return undefined;
    return (typeof headers.get === 'function' ? headers.get(name) : headers[name]) ?? undefined;
  };
  const afterMs = Number(header('retry-after-ms'));
  const afterSeconds = Number(header('retry-after'));
  const retryAfterMs = Number.isFinite(afterMs) && afterMs > 0 ? afterMs : Number.isFinite(afterSeconds) && afterSeconds > 0 ? afterSeconds * 1000 : undefined;
  if (status === 429) return { retry: true, reason: 'rate limited (429)', status, ...(retryAfterMs ? { retryAfterMs } : {}) };
  if (status !== undefined && status >= 500) return { retry: true, reason: `server error (${status})`, status, ...(retryAfterMs ? { retryAfterMs } : {}) };
  if (status === 408 || status === 409) return { retry: true, reason: `request ${status === 408 ? 'timeout' : 'conflict'} (${status})`, status };
  if (status !== undefined) return { retry: false, reason: message, status };
  if (e?.name === 'AbortError' || e?.name === 'APIUserAbortError') return { retry: false, reason: 'cancelled' };
  if (/timed? ?out|timeout/i.test(message) || e?.name === 'APIConnectionTimeoutError') return { retry: true, reason: 'timed out' };
  if (/connect|socket|ECONNRESET|EPIPE|terminated|premature|stream|network|fetch failed/i.test(message) || e?.name === 'APIConnectionError') {
    return { retry: true, reason: `connection lost (${message.slice(0, 80)})` };
  }
  return { retry: false, reason: message };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    // Cancelled already (while the retry was being announced): no wait at all.
    if (signal?.aborted) return reject(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener('abort', () => {
      clearTimeout(timer);
      reject(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
    }, { once: true });
  });

/**
 * Runs one model call with bounded retries and exponential backoff (with jitter, honouring
 * Retry-After). Each retry is reported, so the user sees it; the SDKs' own silent retries are off.
 */
export async function withRetries<T>(call: () => Promise<T>, policy: RetryPolicy, options: { signal?: AbortSignal; onRetry?: (n: RetryNotice) => void } = {}): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const verdict = retryable(error);
      if (!verdict.retry || attempt >= policy.maxAttempts) {
        const why = verdict.retry ? `${verdict.reason}; gave up after ${attempt} attempts` : verdict.reason;
        throw new ProviderError(why, verdict.status);
      }
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      const asked = verdict.retryAfterMs;
      const cap = policy.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs;
      const capped = asked !== undefined && asked > cap;
      const delayMs = Math.round(asked !== undefined ? Math.min(asked, cap) : backoff * (0.75 + Math.random() * 0.5));
      // The retry line says when the server's own wait was cut, and to what.
      const reason = capped ? `${verdict.reason}; the server asked to wait ${seconds(asked)}, cut to ${seconds(cap)} (maxRetryAfterSec)` : verdict.reason;
      options.onRetry?.({ attempt, maxAttempts: policy.maxAttempts, reason, delayMs });
      await sleep(delayMs, options.signal);
    }
  }
}
