import { describe, expect, it } from 'vitest';
import { Conversation } from '../../source/engine/agent/conversation';
import type { EngineEvent, EventOf } from '../../source/engine/events';
import { requestPastLimit, SpendLimitError } from '../../source/engine/model/spend-limits';
import { ReplayModel } from '../../source/engine/run/rerun';
import type { ToolContext } from '../../source/engine/tools/context';

// Issue 46.13: `--max-tokens 8000` ended at 8,368: the third call went out at 5,188 spent with about
// 3,150 input tokens, although its size was known before it was sent. The limit is checked against
// the next request's counted input, not only against what was spent.

const answer = (inputTokens: number): EventOf<'model.response'> => ({
  type: 'model.response',
  content: 'ok',
  toolCalls: [],
  usage: { inputTokens, outputTokens: 20 },
  costUsd: 0,
  durationMs: 10,
  model: 'gpt-4.1-mini',
  stopReason: 'stop',
});

describe('a token limit', () => {
  it('the issue’s numbers: a request of 3,150 at 5,188 spent of 8,000 passes the limit', () => {
    const past = requestPastLimit({ maxTokens: 8000 }, { inputTokens: 5000, outputTokens: 188 } as never, 3150);
    expect(past?.reached).toEqual({ limit: 'tokens', spent: 5188, max: 8000 });
    expect(past?.message).toContain('about 3,150 input tokens, more than the 2,812 left');
    expect(
      requestPastLimit({ maxTokens: 8000 }, { inputTokens: 5000, outputTokens: 188 } as never, 2800),
    ).toBeUndefined();
  });

  it('stops the session before the call whose request would pass it', async () => {
    const events: EngineEvent[] = [];
    const conversation = new Conversation({
      model: new ReplayModel([answer(1000), answer(3000)], 'gpt-4.1-mini'),
      system: 's',
      ctx: {} as ToolContext,
      price: undefined,
      temperature: 0,
      maxTokens: 64,
      emit: (e) => events.push(e),
      limits: { maxTokens: 3000 },
    });
    conversation.say('word '.repeat(2000)); // some 2,000 tokens: the first call fits the limit, not the second
    await conversation.round([]);
    // 1,020 spent, 1,980 left: the second request (the same 2,000 and more) would pass the limit.
    await expect(conversation.round([])).rejects.toBeInstanceOf(SpendLimitError);
    expect(events.filter((e) => e.type === 'model.response')).toHaveLength(1);
    expect(events.find((e) => e.type === 'limit.reached')).toMatchObject({ limit: 'tokens', spent: 1020, max: 3000 });
  });

  it('lets a request that fits go', async () => {
    const events: EngineEvent[] = [];
    const conversation = new Conversation({
      model: new ReplayModel([answer(1000)], 'gpt-4.1-mini'),
      system: 's',
      ctx: {} as ToolContext,
      price: undefined,
      temperature: 0,
      maxTokens: 64,
      emit: (e) => events.push(e),
      limits: { maxTokens: 3000 },
    });
    conversation.say('hello');
    expect((await conversation.round([])).response.content).toBe('ok');
  });
});
