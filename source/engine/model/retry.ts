import { isContextTooLong } from './too-long';
import { ProviderError, type RetryNotice } from './types';

export interface RetryPolicy {
  maxAttempts: number;
  baseDelayMs: number;
  maxDelayMs: number;
  /** A server's Retry-After longer than this is cut to it (`Retry-After: 3600` must not stall a run for an hour); default 60 s. */
  maxRetryAfterMs?: number;
}

export const DEFAULT_RETRY = {
  maxAttempts: 5,
  baseDelayMs: 1000,
  maxDelayMs: 30_000,
  maxRetryAfterMs: 60_000,
} satisfies RetryPolicy;

const seconds = (ms: number) => `${Number((ms / 1000).toFixed(1))} s`;

/**
 * A failure the providers detect themselves (a stream that stalled, or ended without its end
 * marker): the SDKs see nothing wrong there, so the reason is given here.
 */
export class RetryableError extends Error {
  override name = 'RetryableError';
}

/**
 * Error types both APIs give to failures that pass (Anthropic: `overloaded_error`, `api_error`,
 * `rate_limit_error`, `timeout_error`; OpenAI: `server_error`). A stream that already answered 200
 * carries them in an error event, so the SDKs' errors have no status then: the type decides.
 */
const PASSING_TYPES = new Set(['overloaded_error', 'api_error', 'rate_limit_error', 'timeout_error', 'server_error']);
/** Failures of the account, not of the moment: retrying cannot clear them (OpenAI answers quota with a 429). */
const ACCOUNT_TYPES = new Set(['insufficient_quota', 'billing_error', 'billing_not_active']);

const FIX = {
  key: 'check the API key (OPENAI_API_KEY or ANTHROPIC_API_KEY, or apiKey in the config) and that it may use this model',
  model: 'check --model (the server does not know it) and --base-url',
  request: 'the server refused the request as tenet sent it: try another --model, and report it if it persists',
  account: "check the account's plan, quota and billing with the provider",
  later:
    'the provider is unavailable or overloaded: try again later (`tenet resume` goes on from where the run stopped), or raise maxRetries in the config',
  address: 'check --base-url (or OPENAI_BASE_URL / ANTHROPIC_BASE_URL) and that the server there is running',
} as const;

/** The system error code under an SDK's connection error (fetch failed ← ECONNREFUSED). */
function causeCode(error: unknown): string | undefined {
  let at = error as { code?: unknown; cause?: unknown } | undefined;
  for (let depth = 0; at && depth < 5; depth++) {
    if (typeof at.code === 'string' && at.code.startsWith('E')) return at.code;
    at = at.cause as typeof at;
  }
  return undefined;
}

interface Verdict {
  retry: boolean;
  reason: string;
  status?: number;
  retryAfterMs?: number;
  /** What to do when this ends the run. */
  fix?: string;
}

/** The server's own words, where the SDK's message would be the whole error body as JSON (Anthropic's). */
function serverMessage(
  e: { message?: string; apiMessage?: string | null; error?: { message?: unknown; error?: { message?: unknown } } },
  status: number | undefined,
): string {
  const said = e?.apiMessage ?? e?.error?.error?.message ?? e?.error?.message;
  if (typeof said === 'string' && said) return status !== undefined ? `${status} ${said}` : said;
  return e?.message ?? String(e);
}

/** Worth another try: rate limits, server errors, timeouts, dropped connections and cut streams. */
export function retryable(error: unknown): Verdict {
  if (error instanceof RetryableError) return { retry: true, reason: error.message };
  const e = error as {
    status?: number;
    name?: string;
    message?: string;
    code?: string | null;
    type?: string | null;
    apiMessage?: string | null;
    headers?: Record<string, string> | { get?(k: string): string | null };
  };
  const status = typeof e?.status === 'number' ? e.status : undefined;
  const message = serverMessage(e as Parameters<typeof serverMessage>[0], status);
  const type = e?.type ?? undefined;
  const header = (name: string): string | undefined => {
    const headers = e?.headers as { get?(k: string): string | null } & Record<string, string>;
    if (!headers) return undefined;
    return (typeof headers.get === 'function' ? headers.get(name) : headers[name]) ?? undefined;
  };
  const afterMs = Number(header('retry-after-ms'));
  const afterSeconds = Number(header('retry-after'));
  const retryAfterMs =
    Number.isFinite(afterMs) && afterMs > 0
      ? afterMs
      : Number.isFinite(afterSeconds) && afterSeconds > 0
        ? afterSeconds * 1000
        : undefined;
  const after = retryAfterMs ? { retryAfterMs } : {};
  const said = (what: string) =>
    message && message !== `${status}` ? `${what}: ${message.replace(/^\d{3} /, '')}` : what;
  if (ACCOUNT_TYPES.has(type ?? '') || ACCOUNT_TYPES.has(e?.code ?? ''))
    return { retry: false, reason: message, ...(status ? { status } : {}), fix: FIX.account };
  if (status === 429) return { retry: true, reason: said('rate limited (429)'), status, ...after, fix: FIX.later };
  if (status !== undefined && status >= 500)
    return { retry: true, reason: said(`server error (${status})`), status, ...after, fix: FIX.later };
  if (status === 408 || status === 409)
    return {
      retry: true,
      reason: `request ${status === 408 ? 'timeout' : 'conflict'} (${status})`,
      status,
      fix: FIX.later,
    };
  if (status === 401 || status === 403) return { retry: false, reason: message, status, fix: FIX.key };
  if (status === 404) return { retry: false, reason: message, status, fix: FIX.model };
  if (status === 402) return { retry: false, reason: message, status, fix: FIX.account };
  if (status !== undefined)
    return { retry: false, reason: message, status, ...(status === 400 || status === 422 ? { fix: FIX.request } : {}) };
  if (type && PASSING_TYPES.has(type))
    return { retry: true, reason: `the stream ended in an error (${type}): ${message}`, fix: FIX.later };
  if (e?.name === 'AbortError' || e?.name === 'APIUserAbortError') return { retry: false, reason: 'cancelled' };
  const refused = causeCode(error) === 'ECONNREFUSED';
  if (refused)
    return { retry: true, reason: 'connection refused (nothing answers at the server address)', fix: FIX.address };
  if (/timed? ?out|timeout/i.test(message) || e?.name === 'APIConnectionTimeoutError')
    return { retry: true, reason: 'timed out', fix: FIX.later };
  if (
    /connect|socket|ECONNRESET|EPIPE|terminated|premature|stream|network|fetch failed/i.test(message) ||
    e?.name === 'APIConnectionError'
  ) {
    return { retry: true, reason: `connection lost (${message.slice(0, 80)})`, fix: FIX.later };
  }
  return { retry: false, reason: message };
}

const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve, reject) => {
    // Cancelled already (while the retry was being announced): no wait at all.
    if (signal?.aborted) return reject(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        reject(Object.assign(new Error('cancelled'), { name: 'AbortError' }));
      },
      { once: true },
    );
  });

/**
 * Runs one model call with bounded retries and exponential backoff (with jitter, honouring
 * Retry-After). Each retry is reported, so the user sees it; the SDKs' own silent retries are off.
 */
export async function withRetries<T>(
  call: () => Promise<T>,
  policy: RetryPolicy,
  options: { signal?: AbortSignal; onRetry?: (n: RetryNotice) => void } = {},
): Promise<T> {
  for (let attempt = 1; ; attempt++) {
    try {
      return await call();
    } catch (error) {
      if (options.signal?.aborted) throw error;
      const verdict = retryable(error);
      if (!verdict.retry || attempt >= policy.maxAttempts) {
        const why = verdict.retry ? `${verdict.reason}; gave up after ${attempt} attempts` : verdict.reason;
        throw new ProviderError(why, verdict.status, verdict.fix, isContextTooLong(error));
      }
      const backoff = Math.min(policy.maxDelayMs, policy.baseDelayMs * 2 ** (attempt - 1));
      const asked = verdict.retryAfterMs;
      const cap = policy.maxRetryAfterMs ?? DEFAULT_RETRY.maxRetryAfterMs;
      const capped = asked !== undefined && asked > cap;
      const delayMs = Math.round(asked !== undefined ? Math.min(asked, cap) : backoff * (0.75 + Math.random() * 0.5));
      // The retry line says when the server's own wait was cut, and to what.
      const reason = capped
        ? `${verdict.reason}; the server asked to wait ${seconds(asked)}, cut to ${seconds(cap)} (maxRetryAfterSec)`
        : verdict.reason;
      options.onRetry?.({ attempt, maxAttempts: policy.maxAttempts, reason, delayMs });
      await sleep(delayMs, options.signal);
    }
  }
}
