import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { condenseAbove, condenseAtBoundaryAbove } from '../../source/engine/agent/context-size';
import type { EngineEvent, EventOf } from '../../source/engine/events';
import type { Message } from '../../source/engine/protocol/messages';
import { foldEvents } from '../../source/engine/session/fold';
import { runCli } from '../helpers/cli';
import type { FakeModelServer } from '../helpers/fake-model-server';
import { shopScratch } from '../helpers/shop-scratch';
import { BIG_MODULE, BIG_MODULE_PATH, readingSession, readTurn, wrongSubmission } from '../helpers/reading-model';

// A whole TENET session of 90 model calls (15 pre-generation rounds, 5 refinement attempts of 15)
// by a model that keeps reading a large file, against a fake server with a 16k-token window that
// refuses a longer request as each API does: tenet must keep every request inside the window.

const WINDOW = 16_384;
const MAX_TOKENS = 4096;
const read = readTurn;
const submit = wrongSubmission;
const TURNS = readingSession();

const { repo, start, envFor } = shopScratch('tenet-context-window-');
writeFileSync(join(repo.dir, BIG_MODULE_PATH), BIG_MODULE);
let server: FakeModelServer | undefined;

const MODELS = { openai: 'gpt-4.1-mini', anthropic: 'claude-sonnet-4-6' } as const;

async function session(provider: keyof typeof MODELS) {
  server = await start(TURNS, { window: WINDOW });
  const env = envFor(server, provider, { sessions: provider });
  const out = await runCli(
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
      provider,
      '--model',
      MODELS[provider],
      '--context-window',
      String(WINDOW),
      '--json',
      '--tests',
      'tests/test_cart.py',
    ],
    { env },
  );
  const events = out.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EngineEvent);
  return { out, events, fake: server };
}

describe.each(['openai', 'anthropic'] as const)('a 90-call session in a 16k window, %s wire format', (provider) => {
  it('no request past the window; it ends by its budget, never by a provider error; the condensations add up', async () => {
    const { out, events, fake } = await session(provider);
    const result = events.at(-1) as EventOf<'result'>;
    expect(result.type, out.stderr).toBe('result');
    expect(result.stopReason, result.message).toBe('budget');
    expect(result.usage.modelCalls).toBe(90);
    expect(events.filter((e) => e.type === 'error')).toEqual([]);
    // Every request reached the model: none was refused as too long.
    expect(fake.windowed).toHaveLength(90);
    expect(fake.windowed.filter((w) => w.refused)).toEqual([]);
    expect(Math.max(...fake.windowed.map((w) => w.tokens)) + MAX_TOKENS).toBeLessThanOrEqual(WINDOW);

    const requests = events.filter((e): e is EventOf<'model.request'> => e.type === 'model.request');
    const condensed = events.filter((e): e is EventOf<'context.condensed'> => e.type === 'context.condensed');
    expect(condensed.length).toBeGreaterThan(5);
    const budget = { window: WINDOW, reserve: MAX_TOKENS };
    for (const c of condensed) {
      // Past its threshold before, smaller after, and the request says the size it went out with.
      expect(c.tokensBefore).toBeGreaterThan(
        c.why === 'stage' ? condenseAtBoundaryAbove(budget) : condenseAbove(budget),
      );
      expect(c.tokensAfter).toBeLessThan(c.tokensBefore);
      expect(c.why).not.toBe('too-long');
      const request = requests.find((r) => r.round === c.round)!;
      expect(request.context).toEqual({ tokens: c.tokensAfter, window: WINDOW });
      expect(c.kinds.toolOutputs + c.kinds.submissions + c.kinds.prompts + c.kinds.answers).toBeGreaterThanOrEqual(
        c.replaced.length,
      );
    }
    // Every request that was not condensed fits under the threshold as it is.
    for (const r of requests) expect(r.context!.tokens).toBeLessThanOrEqual(condenseAbove(budget));

    // The log rebuilds the conversation the last request sent (as resume folds it): the new
    // messages of each request, the answers, and each condensation's replacements in place.
    const folded = foldEvents(
      events.slice(
        0,
        events.findLastIndex((e) => e.type === 'model.response'),
      ),
    ).messages;
    const sent = (fake.requests.at(-1)!.body as { messages: { role: string; content: unknown }[] }).messages;
    const sentTools = sent
      .filter((m) => m.role === (provider === 'openai' ? 'tool' : 'user'))
      .flatMap((m) =>
        provider === 'openai'
          ? [String(m.content)]
          : (m.content as { type: string; content?: string }[])
              .filter((b) => b.type === 'tool_result')
              .map((b) => String(b.content)),
      );
    expect(folded.filter((m) => m.role === 'tool').map((m) => m.content)).toEqual(sentTools);
    // What it carried: the older reads a line each, the latest one elided, the latest prompt whole.
    expect(sentTools.filter((t) => t.startsWith('[tenet removed this read_file output')).length).toBeGreaterThan(60);
    expect(sentTools.at(-1)).toContain('tenet elided');
    const lastPrompt = folded.findLast((m): m is Message & { role: 'user' } => m.role === 'user')!;
    expect(JSON.stringify(sent)).toContain(JSON.stringify(lastPrompt.content).slice(1, -1));
    console.log(
      `${provider}: ${condensed.length} condensations (levels ${condensed.map((c) => c.level).join('')}); largest request ${Math.max(...fake.windowed.map((w) => w.tokens))} tokens by the fake's count, ${Math.max(...requests.map((r) => r.context!.tokens))} by tenet's; input ${result.usage.inputTokens}, cached ${result.usage.cacheReadTokens}`,
    );
  }, 300_000);
});

describe.each(['openai', 'anthropic'] as const)(
  'a model whose window tenet does not know, %s wire format',
  (provider) => {
    it('is said at the start; each "too long" is met once by condensing harder, and the run goes on to its end', async () => {
      const turns = [...Array.from({ length: 11 }, (_, i) => read(i)), submit];
      server = await start(turns, { window: WINDOW });
      const env = envFor(server, provider, { sessions: `unknown-${provider}` });
      const out = await runCli(
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
          provider,
          '--model',
          'local-coder',
          '--pregen-rounds',
          '12',
          '--rrw-attempts',
          '0',
          '--json',
          '--tests',
          'tests/test_cart.py',
        ],
        { env },
      );
      const events = out.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as EngineEvent);
      const result = events.at(-1) as EventOf<'result'>;
      expect(result.type, out.stderr).toBe('result');
      expect(result.stopReason, result.message).toBe('budget');
      expect(result.usage.modelCalls).toBe(12);
      expect(events.filter((e) => e.type === 'error')).toEqual([]);
      const warnings = events.filter((e): e is EventOf<'warning'> => e.type === 'warning').map((e) => e.message);
      expect(
        warnings.some(
          (w) => w.includes('The context window of model local-coder is unknown') && w.includes('--context-window'),
        ),
      ).toBe(true);
      // No size is known, so none is claimed; only the provider's answers make tenet condense.
      expect(events.filter((e) => e.type === 'model.request' && e.context)).toEqual([]);
      const condensed = events.filter((e): e is EventOf<'context.condensed'> => e.type === 'context.condensed');
      const refused = server.windowed.filter((w) => w.refused).length;
      expect(refused).toBeGreaterThan(0);
      expect(condensed.map((c) => c.why)).toEqual(Array(refused).fill('too-long'));
      expect(condensed.every((c) => c.level === 3 && c.tokensAfter < c.tokensBefore)).toBe(true);
      // Every request refused was made again, condensed, and answered.
      expect(server.windowed).toHaveLength(12 + refused);
    }, 120_000);
  },
);

describe('a condensed session resumed', () => {
  it('goes on with the conversation as condensed, not as first recorded: its first request fits', async () => {
    const first = await start(
      [
        ...Array.from({ length: 8 }, (_, i) => read(i)),
        {
          status: 400,
          errorType: 'invalid_request_error',
          message: 'a request the server refuses for its own reasons',
        },
      ],
      { window: WINDOW },
    );
    server = first;
    const env = envFor(first, 'openai', { sessions: 'resume' });
    const out = await runCli(
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
        'gpt-4.1-mini',
        '--context-window',
        String(WINDOW),
        '--pregen-rounds',
        '12',
        '--rrw-attempts',
        '0',
        '--json',
        '--tests',
        'tests/test_cart.py',
      ],
      { env },
    );
    const events = out.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as EngineEvent);
    expect((events.at(-1) as EventOf<'result'>).stopReason).toBe('error');
    expect(events.filter((e) => e.type === 'context.condensed').length).toBeGreaterThan(2);
    const id = (events[0] as EventOf<'session.start'>).sessionId;
    await first.close();

    server = await start([read(8), read(9), submit], { window: WINDOW });
    const resumed = await runCli(['resume', id, '--base-url', `${server.url}/v1`, '--json'], { env });
    const after = resumed.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as EngineEvent);
    expect((after.at(-1) as EventOf<'result'>).stopReason, resumed.stderr).toBe('budget');
    // The recorded originals (8 reads of 16,000 characters) would be far past the window.
    expect(server.windowed.filter((w) => w.refused)).toEqual([]);
    expect(server.windowed[0]!.tokens + MAX_TOKENS).toBeLessThanOrEqual(WINDOW);
    expect(JSON.stringify(server.requests[0]!.body)).toContain('[tenet removed this read_file output');
    // The log's replacements rebuilt the condensed conversation: nothing needed condensing again before the first answer.
    const firstAnswer = after.findIndex((e) => e.type === 'model.response');
    expect(after.slice(0, firstAnswer).filter((e) => e.type === 'context.condensed')).toEqual([]);
  }, 180_000);
});
