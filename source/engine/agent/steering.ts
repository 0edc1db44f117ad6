import type { EventSink } from '../events';
import type { DeveloperMessage, RequestPreview } from '../protocol/decisions';
import type { Message, ToolCall } from '../protocol/messages';
import { harnessReach, reachWords } from '../python-source/harness-reach';
import { renderPrompt } from './prompts';

/** What the developer may do between the agent's steps; the Pilot's calls of the same names (see run/pilot.ts). */
export interface SteeringHooks {
  stepping?: (at: { before: 'model'; round: number } | { before: 'tool'; call: ToolCall }) => boolean;
  beforeRequest?: (preview: RequestPreview) => Promise<DeveloperMessage[]>;
  beforeToolCall?: (call: ToolCall) => Promise<string | undefined>;
}

/** The messages since the model last answered: what the next request adds to the conversation. */
export function lastTurn(messages: readonly Message[]): Message[] {
  const at = messages.findLastIndex((m) => m.role === 'assistant');
  return messages.slice(at + 1);
}

/**
 * The developer's part in the conversation. Before a request: in step mode a pause, then the
 * messages they wrote since the last one. Before a tool call: in step mode a pause, in which they
 * may change its arguments. Each is recorded (replay shows it; rerun and fork do it again at the
 * same place), and what the model gets says it was the developer's.
 */
export class Steering {
  constructor(
    private readonly hooks: SteeringHooks,
    private readonly emit: EventSink,
  ) {}

  /** The user messages to add before request `round` (already recorded), and whether step mode held the agent for it. */
  async beforeRequest(round: number, messages: readonly Message[]): Promise<{ said: string[]; paused: boolean }> {
    const paused = !!this.hooks.stepping?.({ before: 'model', round });
    if (paused) this.emit({ type: 'step.pause', before: 'model', round });
    const written = (await this.hooks.beforeRequest?.({ round, lastTurn: lastTurn(messages) })) ?? [];
    const said: string[] = [];
    for (const message of written) {
      const text = message.text.trim();
      if (!text) continue;
      this.emit({ type: 'developer.message', text, round, via: message.via });
      said.push(renderPrompt('developer-message', { text }));
    }
    return { said, paused };
  }

  /** The call as it runs (the developer's arguments if they changed them), and what goes before its output for the model. */
  async beforeTool(call: ToolCall): Promise<{ call: ToolCall; note?: string }> {
    // Said before the pause: the developer decides with it in sight.
    const reach = await submittedReach(call);
    if (reach) this.emit({ type: 'warning', message: reach });
    if (this.hooks.stepping?.({ before: 'tool', call }))
      this.emit({ type: 'step.pause', before: 'tool', callId: call.id, name: call.name });
    const edited = await this.hooks.beforeToolCall?.(call);
    if (edited === undefined || edited === call.arguments) return { call };
    this.emit({ type: 'tool.edit', id: call.id, name: call.name, original: call.arguments, arguments: edited });
    return { call: { ...call, arguments: edited }, note: renderPrompt('developer-edit', { arguments: edited }) };
  }
}

/** What a submitted implementation reaches toward in the test harness (see harnessReach), in words; undefined for any other call, or none. */
async function submittedReach(call: ToolCall): Promise<string | undefined> {
  if (call.name !== 'submit_implementation') return undefined;
  let code: unknown;
  try {
    code = (JSON.parse(call.arguments) as { code?: unknown }).code;
  } catch {
    return undefined;
  }
  if (typeof code !== 'string') return undefined;
  const found = await harnessReach(code).catch(() => []);
  return found.length ? reachWarning(reachWords(found)) : undefined;
}

/** The warning a flagged submission gets: in the transcript, at the step pause, and to the model. */
export const reachWarning = (words: string) =>
  `The submitted code reaches toward the test harness: ${words}. tenet's judge runs it with a tripwire: code that reaches into the harness makes the verdict UNVERIFIED, and the result says the submission was flagged.`;
