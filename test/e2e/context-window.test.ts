import { describe, expect, it } from 'vitest';
import { condenseAbove, condenseAtBoundaryAbove } from '../../source/engine/agent/context-size';
import type { EventOf } from '../../source/engine/events';
import type { Message } from '../../source/engine/protocol/messages';
import { foldEvents } from '../../source/engine/session/fold';
import { MAX_TOKENS, WINDOW, session } from '../helpers/context-window';

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
