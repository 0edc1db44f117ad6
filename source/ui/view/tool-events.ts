import { push, pushBeforeOpenCall } from './items';
import type { ViewHandlers } from './types';

/** The agent's tool calls: each call, the developer's edit of its arguments, its result, and their answer to a command. */
export const TOOL_EVENTS = {
  'tool.call': (event, state) => {
    state.totals.toolCalls++;
    push(state, { kind: 'tool', callId: event.id, name: event.name, args: event.arguments });
  },
  'tool.edit': (event, state) => {
    state.agent.items = state.agent.items.map((item) =>
      item.kind === 'tool' && item.callId === event.id && !item.result
        ? { ...item, args: event.arguments, edited: { original: event.original } }
        : item,
    );
  },
  'tool.result': (event, state) => {
    state.agent.items = state.agent.items.map((item) =>
      item.kind === 'tool' && item.callId === event.id && !item.result
        ? { ...item, result: { ok: event.ok, text: event.text, durationMs: event.durationMs } }
        : item,
    );
  },
  'command.approval': (event, state) => {
    if (event.by === 'human') {
      const what =
        event.decision === 'denied'
          ? `You refused the command: ${event.command}${event.reason ? ` (${event.reason})` : ''}`
          : event.decision === 'stopped'
            ? `You stopped the agent at the command: ${event.command}`
            : `You allowed the command${event.decision === 'approved-session' ? ' (and every later one)' : ''}: ${event.command}`;
      pushBeforeOpenCall(state, { kind: 'note', text: what, tone: 'human' });
    }
  },
} satisfies Partial<ViewHandlers>;
