import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadConfig } from '../../source/engine/config/config';
import type { TenetError } from '../../source/engine/errors';
import { createModel } from '../../source/engine/model/create-model';
import { cacheSavingOf, costOf, priceOf } from '../../source/engine/model/pricing';
import { retryable } from '../../source/engine/model/retry';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-config-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('configuration layers', () => {
  const home = join(scratch, 'xdg');
  const repo = join(scratch, 'repo');
  mkdirSync(join(home, 'tenet'), { recursive: true });
  mkdirSync(repo, { recursive: true });
  writeFileSync(
    join(home, 'tenet', 'config.json'),
    JSON.stringify({
      provider: 'openai',
      model: 'gpt-4o',
      temperature: 0.2,
      prices: { 'my-model': { input: 1, output: 2 } },
    }),
  );
  writeFileSync(
    join(repo, '.tenet.json'),
    JSON.stringify({
      model: 'deepseek-chat',
      baseUrl: 'https://api.deepseek.com/v1',
      prices: { 'deepseek-chat': { input: 0.5, output: 1 } },
    }),
  );
  const env = { XDG_CONFIG_HOME: home, OPENAI_API_KEY: 'sk-x' };

  it('project settings win over user settings; prices merge', async () => {
    expect(await loadConfig(repo, env)).toEqual({
      provider: 'openai',
      model: 'deepseek-chat',
      temperature: 0.2,
      baseUrl: 'https://api.deepseek.com/v1',
      prices: { 'my-model': { input: 1, output: 2 }, 'deepseek-chat': { input: 0.5, output: 1 } },
    });
  });

  it('environment wins over files, flags win over everything', async () => {
    const config = await loadConfig(repo, env);
    // The window comes from the model catalogue (deepseek-chat: 128k).
    expect(createModel(config, {}, env).settings).toEqual({
      provider: 'openai',
      model: 'deepseek-chat',
      baseUrl: 'https://api.deepseek.com/v1',
      temperature: 0.2,
      maxTokens: 4096,
      contextWindow: 128_000,
    });
    expect(createModel(config, {}, { ...env, OPENAI_BASE_URL: 'http://127.0.0.1:9/v1' }).settings.baseUrl).toBe(
      'http://127.0.0.1:9/v1',
    );
    const flagged = createModel(config, { model: 'gpt-4.1', baseUrl: 'http://localhost:11434/v1' }, env);
    expect(flagged.settings).toMatchObject({ model: 'gpt-4.1', baseUrl: 'http://localhost:11434/v1' });
    expect(flagged.price).toEqual({ input: 2, cachedInput: 0.5, output: 8 });
    expect(createModel(config, {}, env).price).toEqual({ input: 0.5, output: 1 });
  });

  it('the context window: the catalogue, else the config, --context-window over both; unknown is said', () => {
    const env = { OPENAI_API_KEY: 'k' };
    expect(createModel({ model: 'gpt-4o-mini-2024-07-18' }, {}, env)).toMatchObject({
      settings: { contextWindow: 128_000 },
    });
    expect(createModel({ model: 'gpt-4o-mini' }, { contextWindow: 16_384 }, env).settings.contextWindow).toBe(16_384);
    const local = createModel({ model: 'qwen2.5-coder:7b' }, {}, env);
    expect(local.settings.contextWindow).toBeUndefined();
    expect(local.windowUnknown).toBe(true);
    const configured = createModel({ model: 'qwen2.5-coder:7b', contextWindow: 32_768 }, {}, env);
    expect(configured.settings.contextWindow).toBe(32_768);
    expect(configured.windowUnknown).toBeUndefined();
    expect(
      createModel({ model: 'qwen2.5-coder:7b', contextWindow: 32_768 }, { contextWindow: 8192 }, env).settings
        .contextWindow,
    ).toBe(8192);
    // Half the window at least must be left to the request.
    expect(() => createModel({ model: 'qwen2.5-coder:7b' }, { contextWindow: 6000 }, env)).toThrow(
      'A context window of 6000 tokens leaves too little for the request: 4096 of it are kept for the answer (maxTokens).',
    );
    expect(
      createModel({ model: 'qwen2.5-coder:7b', maxTokens: 1024 }, { contextWindow: 6000 }, env).settings.contextWindow,
    ).toBe(6000);
    // The catalogue's longest answer: a maxTokens past it is refused before any call.
    expect(() =>
      createModel({ model: 'claude-3-5-haiku-20241022', maxTokens: 16_000 }, {}, { ANTHROPIC_API_KEY: 'k' }),
    ).toThrow('maxTokens 16000 is more than claude-3-5-haiku-20241022 answers (at most 8192 tokens)');
    expect(
      createModel({ model: 'claude-3-5-haiku-20241022', maxTokens: 8192 }, {}, { ANTHROPIC_API_KEY: 'k' }).settings
        .maxTokens,
    ).toBe(8192);
  });

  it('--script without --provider replays the script, over a configured provider and a key in the environment (it said "No model is configured")', () => {
    const script = join(scratch, 'turns.json');
    writeFileSync(script, JSON.stringify({ turns: [{ say: 'done' }] }));
    expect(createModel({}, { script }, {}).settings.provider).toBe('scripted');
    expect(createModel({ provider: 'openai' }, { script }, { OPENAI_API_KEY: 'k' }).settings.provider).toBe('scripted');
  });

  it('a configured price may give the cache kinds; a misspelt kind is an error, not a silent full price', async () => {
    const other = join(scratch, 'cache-prices');
    mkdirSync(other, { recursive: true });
    writeFileSync(
      join(other, '.tenet.json'),
      JSON.stringify({ prices: { 'my-llm': { input: 1, cachedInput: 0.1, cacheWrite: 1.25, output: 2 } } }),
    );
    const config = await loadConfig(other, env);
    expect(createModel(config, { model: 'my-llm' }, env).price).toEqual({
      input: 1,
      cachedInput: 0.1,
      cacheWrite: 1.25,
      output: 2,
    });
    writeFileSync(
      join(other, '.tenet.json'),
      JSON.stringify({ prices: { 'my-llm': { input: 1, cached_input: 0.1, output: 2 } } }),
    );
    await expect(loadConfig(other, env)).rejects.toThrow(
      /\.tenet\.json has invalid settings: .*prices\.my-llm.*cached_input/,
    );
  });

  it('a bad config file is a clear error naming the file and the setting', async () => {
    writeFileSync(join(repo, '.tenet.json'), JSON.stringify({ temperature: 'hot', colour: 'blue' }));
    await expect(loadConfig(repo, env)).rejects.toThrow(/\.tenet\.json has invalid settings: .*temperature/);
    writeFileSync(join(repo, '.tenet.json'), '{ not json');
    await expect(loadConfig(repo, env)).rejects.toThrow(/\.tenet\.json is not valid JSON/);
  });

  it('chooses the provider from the key in the environment, and says what to do without one', () => {
    expect(createModel({}, {}, { ANTHROPIC_API_KEY: 'a' }).settings).toMatchObject({
      provider: 'anthropic',
      model: 'claude-sonnet-4-6',
    });
    expect(() => createModel({}, {}, {})).toThrow('No model is configured.');
    expect(() => createModel({}, { provider: 'anthropic' }, {})).toThrow('ANTHROPIC_API_KEY is not set.');
    // --provider scripted with no --script: the fix is the flag and the script's format, not a key.
    const noScript = (() => {
      try {
        createModel({}, { provider: 'scripted' }, {});
      } catch (error) {
        return error as TenetError;
      }
    })();
    expect(noScript?.message).toBe('--provider scripted needs --script FILE.');
    expect(noScript?.fix).toMatch(/^pass --script FILE, a JSON file of \{"turns": /);
    expect(noScript?.fix).not.toContain('API_KEY');
    // A local OpenAI-compatible server needs no key.
    expect(
      createModel({}, { provider: 'openai', baseUrl: 'http://127.0.0.1:11434/v1', model: 'llama3' }, {}).model.label,
    ).toBe('llama3 (OpenAI-compatible, http://127.0.0.1:11434/v1)');
  });
});

describe('prices', () => {
  it('match the longest known prefix and cost per million tokens', () => {
    expect(priceOf('claude-sonnet-4-20250514')).toEqual({ input: 3, cacheWrite: 3.75, cachedInput: 0.3, output: 15 });
    expect(priceOf('gpt-4o-mini-2024-07-18')).toEqual({ input: 0.15, cachedInput: 0.075, output: 0.6 });
    expect(priceOf('deepseek/deepseek-chat')).toEqual({ input: 0.27, cachedInput: 0.07, output: 1.1 });
    // Opus 4.5 is not priced as Opus 4, whose name is its prefix.
    expect(priceOf('claude-opus-4-5-20251101')).toMatchObject({ input: 5, output: 25 });
    expect(priceOf('claude-opus-4-1-20250805')).toMatchObject({ input: 15, output: 75 });
    expect(priceOf('some-local-model')).toBeUndefined();
    expect(costOf({ input: 3, output: 15 }, { inputTokens: 2_000_000, outputTokens: 100_000 })).toBeCloseTo(7.5, 10);
    expect(costOf(undefined, { inputTokens: 5, outputTokens: 5 })).toBe(0);
  });

  it('price each kind of token: input, read from the cache, written to it, output', () => {
    const sonnet = priceOf('claude-sonnet-4-6')!;
    // 1M input of which 600k read (0.30) and 100k written (3.75), 300k fresh (3), 10k out (15).
    const usage = { inputTokens: 1_000_000, cacheReadTokens: 600_000, cacheWriteTokens: 100_000, outputTokens: 10_000 };
    expect(costOf(sonnet, usage)).toBeCloseTo(0.3 * 3 + 0.6 * 0.3 + 0.1 * 3.75 + 0.01 * 15, 10);
    // Without the cache the same call costs 3 + 0.15: the saving is the difference.
    expect(cacheSavingOf(sonnet, usage)).toBeCloseTo(3.15 - (0.9 + 0.18 + 0.375 + 0.15), 10);
    // A write that nothing read yet costs more than no cache at all.
    expect(cacheSavingOf(sonnet, { inputTokens: 1_000_000, cacheWriteTokens: 1_000_000, outputTokens: 0 })).toBeCloseTo(
      -0.75,
      10,
    );
    // OpenAI: a cached token at the cached price; a price without the cache kinds prices them as input.
    expect(
      costOf(priceOf('gpt-4.1-mini'), { inputTokens: 1_000_000, cacheReadTokens: 1_000_000, outputTokens: 0 }),
    ).toBeCloseTo(0.1, 10);
    expect(
      costOf(
        { input: 1, output: 2 },
        { inputTokens: 1_000_000, cacheReadTokens: 500_000, cacheWriteTokens: 100_000, outputTokens: 0 },
      ),
    ).toBeCloseTo(1, 10);
    expect(cacheSavingOf({ unpriced: true, model: 'x' }, usage)).toBe(0);
  });
});

describe('what is worth a retry', () => {
  it('rate limits, server errors, timeouts and cut connections; not bad requests', () => {
    expect(retryable({ status: 429, headers: { 'retry-after': '2' } })).toMatchObject({
      retry: true,
      retryAfterMs: 2000,
    });
    expect(retryable({ status: 503 })).toMatchObject({ retry: true });
    expect(retryable({ status: 400, message: 'bad' })).toMatchObject({ retry: false });
    expect(retryable({ status: 401, message: 'no key' })).toMatchObject({ retry: false });
    expect(retryable(new Error('terminated'))).toMatchObject({ retry: true });
    expect(retryable(Object.assign(new Error('x'), { name: 'APIConnectionTimeoutError' }))).toMatchObject({
      retry: true,
      reason: 'timed out',
    });
  });
});
