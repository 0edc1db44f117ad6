import { push, pushBeforeOpenCall } from './items';
import type { ViewHandlers } from './types';

/**
 * A call the developer edited: its output as the tool gave it. The model reads it after a note
 * (prompts/developer-edit.md: a line, the arguments it ran with, a blank line, a line), which the
 * transcript says with its ✎ mark and the arguments; left in, the note was all a preview showed.
 */
export function withoutEditNote(text: string, args: string): string {
  const at = text.indexOf(`\n${args}\n\n`);
  if (at === -1 || text.slice(0, at).includes('\n')) return text;
  const end = text.indexOf('\n', at + args.length + 3);
  return end === -1 ? text : text.slice(end + 1);
}

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
        ? {
            ...item,
            result: {
              ok: event.ok,
              text: item.edited ? withoutEditNote(event.text, item.args) : event.text,
              durationMs: event.durationMs,
            },
          }
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
