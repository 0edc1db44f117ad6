import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { copyFixture, FIXTURES, treeHash } from '../helpers/fixtures';
import { args, RIGHT } from '../helpers/run-cli';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('tenet run (the built CLI)', () => {
  it('--json prints events, the last one the result; exit 0 on pass; the checkout is untouched without --apply', async () => {
    server = await startFakeModelServer([
      {
        calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }],
        usage: { input: 1_000_000, output: 100_000 },
      },
    ]);
    const repo = copyFixture('shop');
    try {
      const before = treeHash(repo.dir);
      const result = await runCli([...args(repo.dir), '--json', '--tests', 'tests/test_cart.py'], {
        env: { OPENAI_API_KEY: 'sk-live-secret', OPENAI_BASE_URL: `${server.url}/v1` },
      });
      expect(result.code).toBe(0);
      const lines = result.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines[0]).toMatchObject({
        type: 'session.start',
        target: 'shop/cart.py::Cart.total',
        provider: 'openai',
        model: 'gpt-4o-mini',
      });
      const last = lines.at(-1);
      expect(last).toMatchObject({
        type: 'result',
        target: 'shop/cart.py::Cart.total',
        pass: true,
        selectedTests: { passed: 2, total: 2 },
        hiddenTests: { passed: 1, total: 1 },
        usage: { inputTokens: 1_000_000, outputTokens: 100_000, modelCalls: 1, toolCalls: 1 },
      });
      // gpt-4o-mini: $0.15 per million input tokens, $0.60 per million output tokens.
      expect(last.costUsd).toBeCloseTo(0.15 + 0.06, 10);
      expect(last.costOfPass).toBeCloseTo(0.21, 10);
      expect(typeof last.sessionId).toBe('string');
      expect(last.patch).toContain('+        amount = self.subtotal()');
      expect(result.stdout).not.toContain('sk-live-secret');
      expect(treeHash(repo.dir)).toBe(before);
    } finally {
      repo.cleanup();
    }
  });

  it('--apply writes the result into the checkout; a failing run exits 1', async () => {
    server = await startFakeModelServer([{ calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] }]);
    const repo = copyFixture('shop');
    try {
      const ok = await runCli([...args(repo.dir), '--apply', '--tests', 'tests/test_cart.py'], {
        env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${server.url}/v1` },
      });
      expect(ok.code).toBe(0);
      expect(ok.stdout).toContain('PASS · selected 2/2 · hidden 1/1');
      expect(ok.stdout).toContain('  patch applied to the checkout\n');
      expect(readFileSync(join(repo.dir, 'shop', 'cart.py'), 'utf8')).toContain(
        '        amount = self.subtotal()\n        return discount(amount, self.percent)\n',
      );
      await server.close();
      server = await startFakeModelServer([{ say: 'I give up.' }]);
      const failed = await runCli([...args(repo.dir), '--pregen-rounds', '1', '--tests', 'tests/test_cart.py'], {
        env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${server.url}/v1` },
      });
      expect(failed.code).toBe(1);
      expect(failed.stdout).toContain('FAIL (no-implementation)');
    } finally {
      repo.cleanup();
    }
  });

  it('benchmark mode where every test that fails blank fails on the original code too: says so, instead of asking for a wider scope', async () => {
    const result = await runCli(
      [
        'run',
        '--repo',
        join(FIXTURES, 'shop'),
        '--target',
        'shop/pricing.py::apply_discount',
        '--blank',
        '--headless',
        '--tests',
        'tests/test_pricing.py',
        '-k',
        'already_broken',
      ],
      {
        env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' },
      },
    );
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'No test fails against shop/pricing.py::apply_discount alone: the test that fails with it blanked fails on the original code too (tests/test_pricing.py::test_discount_already_broken)',
    );
    expect(result.stderr).toContain('fix: fix what makes them fail on the original code');
  }, 120_000);
});
