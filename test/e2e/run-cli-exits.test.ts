import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { copyFixture, FIXTURES } from '../helpers/fixtures';
import { args, RIGHT } from '../helpers/run-cli';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// tenet run's exit codes for bad input, a failing provider and a refused --apply.
describe('tenet run (the built CLI)', () => {
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
