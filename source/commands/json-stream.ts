import type { EngineEvent } from '../engine/events';
import { printableJson } from '../engine/terminal-text';

/** Many and small: the events after them carry the whole (the response's text, the debugger's entry). */
const NOT_PRINTED = new Set<EngineEvent['type']>(['model.delta', 'model.tool-delta', 'debugger.output']);

/**
 * One engine event as a line of the `--json` stream, or undefined for the events it leaves out.
 * A tool call's arguments are printed once, in its `tool.call` event: the `model.response` before
 * it names its calls by id and name only, and a `submission` (`tests.submission`) leaves out the
 * code, the `code` argument of the `tool.call` before it. A 30 MB argument was printed two or
 * three times. (The session keeps every event whole; `replay --json` prints them as recorded.)
 */
export function jsonStreamLine(event: EngineEvent): string | undefined {
  if (NOT_PRINTED.has(event.type)) return undefined;
  if (event.type === 'model.response')
    return printableJson({ ...event, toolCalls: event.toolCalls.map(({ id, name }) => ({ id, name })) });
  if (event.type === 'submission' || event.type === 'tests.submission') {
    const { code: _inToolCall, ...rest } = event;
    return printableJson(rest);
  }
  return printableJson(event);
}
