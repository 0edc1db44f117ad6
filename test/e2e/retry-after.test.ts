import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_RETRY, withRetries } from '../../source/engine/model/retry';
import type { RetryNotice } from '../../source/engine/model/types';
import { runCli } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { copyFixture } from '../helpers/fixtures';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const rateLimited = (retryAfter: string) =>
  Object.assign(new Error('Rate limit reached'), { status: 429, headers: { 'retry-after': retryAfter } });

describe("a server's Retry-After is capped", () => {
  it('at 60 s by default, and the retry says it was cut', async () => {
    const controller = new AbortController();
    let notice: RetryNotice | undefined;
    const call = async () => {
      throw rateLimited('3600');
    };
    // The first retry is announced, then the wait is cancelled: only its length matters here.
    const onRetry = (n: RetryNotice) => {
      notice = n;
      controller.abort();
    };
    await expect(withRetries(call, DEFAULT_RETRY, { signal: controller.signal, onRetry })).rejects.toMatchObject({
      name: 'AbortError',
    });
    expect(notice).toEqual({
      attempt: 1,
      maxAttempts: 5,
      delayMs: 60_000,
      reason: 'rate limited (429): Rate limit reached; the server asked to wait 3600 s, cut to 60 s (maxRetryAfterSec)',
    });
  });

  it('a wait under the cap is kept as the server asked, and not called cut', async () => {
    const notices: RetryNotice[] = [];
    let calls = 0;
    const answer = await withRetries(
      async () => {
        if (++calls === 1) throw rateLimited('0.02');
        return 'ok';
      },
      DEFAULT_RETRY,
      { onRetry: (n) => notices.push(n) },
    );
    expect(answer).toBe('ok');
    expect(notices).toEqual([
      { attempt: 1, maxAttempts: 5, delayMs: 20, reason: 'rate limited (429): Rate limit reached' },
    ]);
  });

  it('a run whose provider says Retry-After: 3600 goes on after the configured cap, and its retry line says so', async () => {
    server = await startFakeModelServer([
      { status: 429, headers: { 'retry-after': '3600' } },
      {
        calls: [
          {
            name: 'submit_implementation',
            arguments: {
              code: 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n',
            },
          },
        ],
      },
    ]);
    const repo = copyFixture('shop');
    try {
      writeFileSync(join(repo.dir, '.tenet.json'), JSON.stringify({ maxRetryAfterSec: 1 }));
      const result = await runCli(
        [
          'run',
          '--repo',
          repo.dir,
          '--target',
          'shop/cart.py::Cart.total',
          '--blank',
          '-T',
          '2',
          '--provider',
          'openai',
          '--model',
          'gpt-4o-mini',
          '--tests',
          'tests/test_cart.py',
        ],
        {
          env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${server.url}/v1` },
        },
      );
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toContain(
        '  ! model call failed (rate limited (429): Rate limit reached; the server asked to wait 3600 s, cut to 1 s (maxRetryAfterSec)); retry 1/4 in 1.0 s\n',
      );
      expect(result.stdout).toMatch(/^PASS · selected/m);
    } finally {
      repo.cleanup();
    }
  }, 120_000);
});
