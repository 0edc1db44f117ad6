/**
 * What keeping a session inside its context window costs the prompt cache: the 90-call session
 * of a model that keeps reading a large file (test/helpers/reading-model.ts), run by `tenet run`
 * (the built CLI) against the fake model server with each API's prompt cache, once with a window
 * nothing fills (no condensation: the "before"), then in a 64k and a 16k window the server enforces.
 * Prints, per provider, the calls, condensations, the largest request, the input tokens and the
 * share of them read from the cache. The fake counts 4 characters a token for its cache, so the
 * figures are the conversation's shape, not a real bill.
 *
 *   npm run perf:context
 */
import { spawn } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeModelServer } from '../test/helpers/fake-model-server';
import { BIG_MODULE, BIG_MODULE_PATH, readingSession } from '../test/helpers/reading-model';

// biome-ignore lint/suspicious/noExplicitAny: any event's fields, read loosely
type AnyEvent = Record<string, any>;

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'tenet.js');
const MODELS = { openai: 'gpt-4.1-mini', anthropic: 'claude-sonnet-4-6' } as const;

async function session(provider: keyof typeof MODELS, window: number | undefined) {
  const scratch = mkdtempSync(join(tmpdir(), 'tenet-perf-context-'));
  const repo = join(scratch, 'shop');
  cpSync(join(ROOT, 'test', 'fixtures', 'shop'), repo, { recursive: true });
  writeFileSync(join(repo, BIG_MODULE_PATH), BIG_MODULE);
  const server = await startFakeModelServer(readingSession(), window ? { window } : {});
  try {
    const env = {
      ...process.env,
      TENET_SESSIONS_DIR: join(scratch, 'sessions'),
      XDG_CONFIG_HOME: join(scratch, 'no-config'),
      ...(provider === 'openai'
        ? { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${server.url}/v1` }
        : { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: server.url }),
    };
    const args = [
      CLI,
      'run',
      '--repo',
      repo,
      '--target',
      'shop/cart.py::Cart.total',
      '--blank',
      '-T',
      '2',
      '--provider',
      provider,
      '--model',
      MODELS[provider],
      '--context-window',
      String(window ?? 1_000_000),
      '--json',
      '--tests',
      'tests/test_cart.py',
    ];
    // Not spawnSync: the fake server answers from this process's event loop.
    const child = spawn(process.execPath, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    await new Promise((resolve) => child.on('close', resolve));
    const events = stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AnyEvent);
    const result = events.at(-1)!;
    const served = server.requests.filter((r) => r.usage).map((r) => r.usage!.input);
    return {
      stop: result.stopReason as string,
      calls: result.usage?.modelCalls as number,
      condensed: events.filter((e) => e.type === 'context.condensed').length,
      largest: Math.max(...served),
      input: result.usage?.inputTokens as number,
      read: result.usage?.cacheReadTokens as number,
      costUsd: result.costUsd as number,
    };
  } finally {
    await server.close();
    rmSync(scratch, { recursive: true, force: true });
  }
}

const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;
console.log(
  '90 model calls of a model that keeps reading a 16,000-character file, tenet run against the fake servers\n',
);
for (const provider of ['openai', 'anthropic'] as const) {
  for (const window of [undefined, 65_536, 16_384]) {
    const s = await session(provider, window);
    console.log(
      `${provider} ${window ? `in a ${window.toLocaleString('en')}-token window` : 'with no window to fill'}: ${s.calls} calls, stop ${s.stop}, ${s.condensed} condensations, ` +
        `largest request ${s.largest.toLocaleString('en')} tokens; input ${s.input.toLocaleString('en')}, ${pct(s.read, s.input)} read from the cache; cost $${s.costUsd.toFixed(4)}`,
    );
  }
}
