import type { FakeModelServer } from '../helpers/fake-model-server';
import { describe, expect, it } from 'vitest';
import type { EngineEvent, EventOf } from '../../source/engine/events';
import { runCli } from '../helpers/cli';
import { MAX_TOKENS, WINDOW, read, submit, envFor, repo, start } from '../helpers/context-window';

/** The fake server of the test that runs. */
let server: FakeModelServer | undefined;

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
