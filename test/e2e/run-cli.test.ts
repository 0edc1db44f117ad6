import { appendFileSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { recordedDemo } from '../helpers/demo-session';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { copyFixture, FIXTURES, treeHash } from '../helpers/fixtures';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';
const args = (repo: string) => [
  'run',
  '--repo',
  repo,
  '--target',
  'shop/cart.py::Cart.total',
  '--blank',
  '-T',
  '2',
  '--provider',
  'openai',
  '--model',
  'gpt-4o-mini',
];

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

  it('bad input exits 2; a provider that keeps failing exits 3', async () => {
    const noModel = await runCli(
      ['run', '--repo', join(FIXTURES, 'shop'), '--target', 'shop/cart.py::Cart.total', '--blank'],
      { env: { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' } },
    );
    expect(noModel.code).toBe(2);
    expect(noModel.stderr).toContain('No model is configured.');
    server = await startFakeModelServer([
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { status: 500 },
      { status: 500 },
    ]);
    const broken = await runCli([...args(join(FIXTURES, 'shop')), '--json', '--tests', 'tests/test_cart.py'], {
      env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${server.url}/v1` },
    });
    expect(broken.code).toBe(3);
    expect(broken.stderr).toContain(
      'the model provider failed: server error (500): Server error 500; gave up after 5 attempts\n  fix: the provider is unavailable or overloaded',
    );
    // --json still ends with the result line, and it names the session.
    const lines = broken.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    const sessionId = lines[0].sessionId;
    expect(typeof sessionId).toBe('string');
    expect(lines.at(-2)).toMatchObject({
      type: 'error',
      message: 'server error (500): Server error 500; gave up after 5 attempts',
      fix: expect.stringMatching(/^the provider is unavailable/),
    });
    expect(lines.at(-1)).toMatchObject({
      type: 'result',
      sessionId,
      pass: false,
      stopReason: 'error',
      message: 'server error (500): Server error 500; gave up after 5 attempts',
      applied: false,
      usage: { modelCalls: 0 },
    });
  }, 120_000);

  it('--apply refused because the file changed meanwhile: recorded, applied false, exit 4', async () => {
    // The answer waits, so the developer's edit lands while the run is under way.
    server = await startFakeModelServer([
      { calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }], delayMs: 1500 },
    ]);
    const repo = copyFixture('shop');
    const file = join(repo.dir, 'shop', 'cart.py');
    try {
      const child = startCli([...args(repo.dir), '--apply', '--json', '--tests', 'tests/test_cart.py'], {
        env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${server.url}/v1` },
      });
      await waitFor(() => server!.requests.length > 0, 60_000, 'the first model request');
      appendFileSync(file, '# edited meanwhile\n');
      const run = await finished(child);
      expect(run.code).toBe(4);
      const lines = run.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      expect(lines.find((e) => e.type === 'patch.decision')).toEqual({
        type: 'patch.decision',
        decision: 'accept',
        applied: false,
        reason: expect.stringContaining('changed in the checkout since the run started'),
      });
      expect(lines.at(-1)).toMatchObject({ type: 'result', pass: true, applied: false });
      expect(readFileSync(file, 'utf8')).toContain('# edited meanwhile');
      expect(readFileSync(file, 'utf8')).not.toContain('amount = self.subtotal()');
    } finally {
      repo.cleanup();
    }
  }, 120_000);
});

describe('tenet demo (what npm start runs)', () => {
  it('runs a whole session on the example with the labelled scripted model, and passes', () => {
    // The demo the global setup recorded (test/setup/demo-session.ts), run as this test ran it.
    const result = recordedDemo();
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('model: scripted demo model: replays examples/invoicing.demo.json, not an LLM');
    expect(result.stdout).toContain('refinement attempt 1/5 · failure identification');
    expect(result.stdout).toContain("    ✓ ('uk', ['DE', 'FR', 'UK'])");
    expect(result.stdout).toContain('PASS · selected 3/3 · hidden 9/9');
    expect(result.exampleAfter).toBe(result.exampleBefore);
  });

  it("words a TDD session as one, live and in `tenet show`: no THM approval, the TDD phases, the agent's own runs", async () => {
    const sessions = mkdtempSync(join(tmpdir(), 'tenet-show-tdd-'));
    try {
      const env = { OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };
      const live = await runCli(['demo', '--strategy', 'tdd', '--headless', '--sessions-dir', sessions], { env });
      expect(live.code).toBe(0);
      expect(live.stdout).toContain("tests the agent sees: none of the repository's (TDD: the agent writes its own)");
      expect(live.stdout).toMatch(/^tests first · .*up to 15 rounds$/m);
      expect(live.stdout).toContain('co-refinement · test run 1/10');
      expect(live.stdout).toContain('  run_tests: 5/6 passed');

      const show = await runCli(['show', 'last', '--sessions-dir', sessions], { env });
      expect(show.code).toBe(0);
      expect(show.stdout).toContain(
        "Tests given to the agent: none of the repository's (TDD: the agent writes its own).",
      );
      expect(show.stdout).not.toContain('approved automatically');
      expect(show.stdout).toMatch(/^## Tests first: .*up to 15 rounds$/m);
      expect(show.stdout).toContain('## Co-refinement: test run 1/10');
      expect(show.stdout).toContain('**run_tests**: 5/6 passed');
      // The evaluation is the one run of every failing test; the agent's own runs are not labelled so.
      expect(show.stdout.match(/\*\*every failing test\*\*/g)).toHaveLength(1);
      expect(show.stdout).toContain("## Measuring the agent's tests");
    } finally {
      rmSync(sessions, { recursive: true, force: true });
    }
  });
});
