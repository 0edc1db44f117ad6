import { condensedWords } from '../../engine/agent/context-words';
import { addCall } from '../../engine/model/usage-sums';
import { MESSAGE_SOURCES } from '../../engine/phrase-book';
import { startingFunctionIn } from '../../engine/session/page-diffs';
import { currentTarget } from './plan-events';
import { push } from './items';
import type { ViewHandlers } from './types';

/**
 * The model calls: each request, what streams in (text and tool arguments), retries, the answer
 * and what it cost, the developer's messages that go with a request, and condensations of the
 * conversation.
 */
export const MODEL_EVENTS = {
  'model.request': (event, state, now) => {
    // A fork's history ends here: the live model answers from this call on.
    if (state.fork && event.round === state.fork.recorded + 1)
      push(state, {
        kind: 'note',
        text: `From here on ${state.fork.live} answers live (the answers before were the parent's)`,
        tone: 'info',
      });
    state.agent.starting ??= startingFunctionIn(currentTarget(state), event.newMessages ?? []);
    state.agent.round = event.round;
    if (event.context) state.agent.context = event.context;
    state.agent.live = '';
    state.agent.retry = undefined;
    state.agent.streaming = [];
    state.agent.call = { since: now, chars: 0 };
  },
  'model.delta': (event, state) => {
    state.agent.live += event.text;
    if (state.agent.call) state.agent.call = { ...state.agent.call, chars: state.agent.call.chars + event.text.length };
  },
  'model.tool-delta': (event, state) => {
    const others = state.agent.streaming.filter((c) => c.index !== event.index);
    const args = (state.agent.streaming.find((c) => c.index === event.index)?.args ?? '') + event.arguments;
    state.agent.streaming = [...others, { index: event.index, name: event.name, args }].sort(
      (a, b) => a.index - b.index,
    );
    if (state.agent.call)
      state.agent.call = { ...state.agent.call, chars: state.agent.call.chars + event.arguments.length };
  },
  'model.retry': (event, state, now) => {
    // The attempt starts over: what it streamed is gone.
    state.agent.live = '';
    state.agent.streaming = [];
    if (state.agent.call) state.agent.call = { ...state.agent.call, chars: 0 };
    state.agent.retry = {
      reason: event.reason,
      attempt: event.attempt,
      of: event.maxAttempts - 1,
      at: now + event.delayMs,
    };
  },
  'model.response': (event, state) => {
    state.agent.live = '';
    state.agent.retry = undefined;
    state.agent.streaming = [];
    state.agent.call = undefined;
    addCall(state.totals, event);
    state.totals.modelCalls++;
    if (event.content.trim())
      push(state, {
        kind: 'model',
        text: event.content,
        tokensIn: event.usage.inputTokens,
        tokensOut: event.usage.outputTokens,
        costUsd: event.costUsd,
      });
  },
  'model.unanswered': (event, state) => {
    // Billed though no answer came: in the footer's tokens and cost (the warning or the error says why).
    addCall(state.totals, event);
  },
  'developer.message': (event, state) => {
    push(state, {
      kind: 'note',
      text: `You told the agent${MESSAGE_SOURCES[event.via] ? ` (${MESSAGE_SOURCES[event.via]})` : ''}: ${event.text}`,
      tone: 'human',
    });
  },
  'context.condensed': (event, state) => {
    if (event.window) state.agent.context = { tokens: event.tokensAfter, window: event.window };
    push(state, { kind: 'note', text: condensedWords(event), tone: 'info' });
  },
} satisfies Partial<ViewHandlers>;
