import { describe, expect, it } from 'vitest';
import { Conversation } from '../../source/engine/agent/conversation';
import type { EngineEvent, EventOf } from '../../source/engine/events';
import { SpendLimitError, type SpendLimits } from '../../source/engine/model/spend-limits';
import { ProviderError } from '../../source/engine/model/types';
import { ReplayModel } from '../../source/engine/run/rerun';
import type { ToolContext } from '../../source/engine/tools/context';

// A rerun answers from the record, at the recorded cost. The calls that got no answer (cancelled
// with Esc, or given up on after retries) were paid for too: a rerun counts them where the run
// met them, so its totals and its spend limits agree with the run's.
const usage = (inputTokens: number, outputTokens: number) => ({ inputTokens, outputTokens });
const cancelled: EventOf<'model.unanswered'> = {
  type: 'model.unanswered',
  reason: 'cancelled',
  usage: usage(900, 40),
  costUsd: 0.5,
  durationMs: 2000,
};
const failed: EventOf<'model.unanswered'> = {
  type: 'model.unanswered',
  reason: 'failed',
  usage: usage(950, 0),
  costUsd: 0.25,
  durationMs: 9000,
};
const answer = (content: string, costUsd: number): EventOf<'model.response'> => ({
  type: 'model.response',
  content,
  toolCalls: [],
  usage: usage(1000, 20),
  costUsd,
  durationMs: 800,
  model: 'gpt-4.1-mini',
  stopReason: 'stop',
});

function replaying(recorded: EngineEvent[], limits?: SpendLimits) {
  const events: EngineEvent[] = [];
  const conversation = new Conversation({
    model: new ReplayModel(recorded, 'gpt-4.1-mini'),
    system: 's',
    ctx: {} as ToolContext,
    price: undefined,
    temperature: 0,
    maxTokens: 64,
    emit: (e) => events.push(e),
    ...(limits ? { limits } : {}),
  });
  conversation.say('hi');
  return { conversation, events };
}

describe('a rerun of a session with calls that got no answer', () => {
  it('counts the cancelled call at its recorded cost, before the answer of the call made again, as one model call', async () => {
    const { conversation, events } = replaying([cancelled, answer('done', 0.2)]);
    expect((await conversation.round([])).response.content).toBe('done');
    expect(
      events.filter((e) => e.type === 'model.unanswered' || e.type === 'model.response').map((e) => e.type),
    ).toEqual(['model.unanswered', 'model.response']);
    expect(events.find((e) => e.type === 'model.unanswered')).toMatchObject({
      reason: 'cancelled',
      costUsd: 0.5,
      usage: cancelled.usage,
    });
    expect(conversation.totals).toMatchObject({ modelCalls: 1, inputTokens: 1900, outputTokens: 60 });
    expect(conversation.totals.costUsd).toBeCloseTo(0.7, 12);
    // Counted once: the next round has none before it.
    const again = replaying([cancelled, answer('one', 0.2), answer('two', 0.2)]);
    await again.conversation.round([]);
    await again.conversation.round([]);
    expect(again.conversation.totals.costUsd).toBeCloseTo(0.9, 12);
  });

  it('stops where the run stopped: the cancelled call had used the cost limit up before the call was made again', async () => {
    const { conversation, events } = replaying([cancelled, answer('done', 0.2)], { maxCostUsd: 0.4 });
    await expect(conversation.round([])).rejects.toBeInstanceOf(SpendLimitError);
    expect(events.some((e) => e.type === 'limit.reached')).toBe(true);
    expect(events.some((e) => e.type === 'model.response')).toBe(false);
  });

  it('ends as the run ended on a last call that got no answer: given up on (a provider error), or cancelled and not made again', async () => {
    const gaveUp = replaying([answer('first', 0.2), failed]);
    await gaveUp.conversation.round([]);
    await expect(gaveUp.conversation.round([])).rejects.toBeInstanceOf(ProviderError);
    expect(gaveUp.conversation.totals.costUsd).toBeCloseTo(0.45, 12);
    const stopped = replaying([answer('first', 0.2), cancelled]);
    await stopped.conversation.round([]);
    await expect(stopped.conversation.round([])).rejects.toMatchObject({ name: 'AbortError' });
    expect(stopped.conversation.totals.costUsd).toBeCloseTo(0.7, 12);
  });
});

describe('a rerun of a session the developer stopped with x between two model calls (issue 37.2)', () => {
  it('stops where the run stopped (cancelled), not with "the session recorded only N answers"', async () => {
    const stop: EngineEvent = { type: 'agent.phase', phase: 'evaluate', stopReason: 'cancelled' };
    const { conversation } = replaying([answer('one', 0.2), stop]);
    await conversation.round([]);
    await expect(conversation.round([])).rejects.toMatchObject({ name: 'AbortError' });
    // A run that did not stop so still says its record ran out.
    const short = replaying([answer('one', 0.2)]);
    await short.conversation.round([]);
    await expect(short.conversation.round([])).rejects.toThrow(/recorded only 1/);
  });
});
