/**
 * What prompt caching does to a session's cost: the demo's conversation (the turns of
 * examples/invoicing.demo.json) played by the fake model server of the tests, through the real
 * OpenAI and Anthropic SDKs, by `tenet demo` (the built CLI), once against a server with each
 * API's prompt cache and once against one without. Prints, per provider, the share of input tokens
 * read from the cache, what was written to it, and the cost with and without caching. The fake
 * counts 4 characters a token, so the figures are the conversation's shape, not a real bill.
 *
 *   npm run perf:cache
 */
import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { startFakeModelServer, type FakeTurn } from '../test/helpers/fake-model-server';

const ROOT = join(import.meta.dirname, '..');
const CLI = join(ROOT, 'dist', 'tenet.js');
const turns = (JSON.parse(readFileSync(join(ROOT, 'examples', 'invoicing.demo.json'), 'utf8')) as { turns: FakeTurn[] })
  .turns;
const MODELS = { openai: 'gpt-4.1-mini', anthropic: 'claude-sonnet-4-6' } as const;

interface Figures {
  calls: number;
  input: number;
  read: number;
  written: number;
  output: number;
  costUsd: number;
  savedUsd: number;
  pass: boolean;
}

async function demo(provider: keyof typeof MODELS, cache: boolean): Promise<Figures> {
  const server = await startFakeModelServer(turns, { cache });
  const sessions = mkdtempSync(join(tmpdir(), 'tenet-perf-cache-'));
  try {
    const baseUrl = provider === 'openai' ? `${server.url}/v1` : server.url;
    // Not spawnSync: the fake server answers from this process's event loop.
    const child = spawn(
      process.execPath,
      [
        CLI,
        'demo',
        '--live',
        '--provider',
        provider,
        '--model',
        MODELS[provider],
        '--base-url',
        baseUrl,
        '--approve',
        'auto',
        '--json',
      ],
      {
        env: { ...process.env, OPENAI_API_KEY: 'k', ANTHROPIC_API_KEY: 'k', TENET_SESSIONS_DIR: sessions },
        stdio: ['ignore', 'pipe', 'pipe'],
      },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.setEncoding('utf8').on('data', (d: string) => (stdout += d));
    child.stderr.setEncoding('utf8').on('data', (d: string) => (stderr += d));
    const status = await new Promise<number | null>((resolve) => child.on('close', resolve));
    const run = { stdout, stderr, status };
    const result = JSON.parse(run.stdout.trim().split('\n').at(-1) ?? '{}');
    if (result.type !== 'result') throw new Error(`tenet demo gave no result (exit ${run.status}): ${run.stderr}`);
    return {
      calls: result.usage.modelCalls,
      input: result.usage.inputTokens,
      read: result.usage.cacheReadTokens,
      written: result.usage.cacheWriteTokens,
      output: result.usage.outputTokens,
      costUsd: result.costUsd,
      savedUsd: result.cacheSavedUsd,
      pass: result.pass,
    };
  } finally {
    await server.close();
    rmSync(sessions, { recursive: true, force: true });
  }
}

const usd = (value: number) => `$${value.toFixed(4)}`;
const pct = (part: number, whole: number) => `${((100 * part) / whole).toFixed(1)}%`;

console.log(`the demo's conversation (${turns.length} model turns), tenet demo against the fake servers\n`);
for (const provider of ['openai', 'anthropic'] as const) {
  const cached = await demo(provider, true);
  const plain = await demo(provider, false);
  console.log(
    `${provider} (${MODELS[provider]} prices), ${cached.calls} model calls, ${cached.pass ? 'passed' : 'FAILED'}:`,
  );
  console.log(
    `  input ${cached.input.toLocaleString('en')} tokens, ${cached.read.toLocaleString('en')} read from the cache (${pct(cached.read, cached.input)}), ${cached.written.toLocaleString('en')} written to it; output ${cached.output.toLocaleString('en')}`,
  );
  console.log(
    `  cost with caching ${usd(cached.costUsd)}, saved ${usd(cached.savedUsd)}; without caching ${usd(plain.costUsd)} (a server with no cache; input ${plain.input.toLocaleString('en')})`,
  );
  console.log(
    `  with / without: ${(cached.costUsd / plain.costUsd).toFixed(2)}x; cost + saving = ${usd(cached.costUsd + cached.savedUsd)}\n`,
  );
}
