import type { EventSink } from '../events';
import type { DeveloperMessage, RequestPreview } from '../protocol/decisions';
import type { Message } from '../protocol/messages';
import { renderPrompt } from './prompts';

/** What the developer may do between the agent's steps; the Pilot's calls of the same names (see run/pilot.ts). */
export interface SteeringHooks {
  beforeRequest?: (preview: RequestPreview) => Promise<DeveloperMessage[]>;
}

/** The messages since the model last answered: what the next request adds to the conversation. */
export function lastTurn(messages: readonly Message[]): Message[] {
  const at = messages.findLastIndex((m) => m.role === 'assistant');
  return messages.slice(at + 1);
}

/**
 * The developer's part in the conversation: before a request, the messages they wrote since the
 * last one. Each is recorded (so replay shows it, and rerun and fork send it again at the same
 * round) and goes to the model as a user message that says it is the developer's.
 */
export class Steering {
  constructor(
    private readonly hooks: SteeringHooks,
    private readonly emit: EventSink,
  ) {}

  /** The user messages to add before request `round` (already recorded). */
  async beforeRequest(round: number, messages: readonly Message[]): Promise<string[]> {
    const written = (await this.hooks.beforeRequest?.({ round, lastTurn: lastTurn(messages) })) ?? [];
    const said: string[] = [];
    for (const message of written) {
      const text = message.text.trim();
      if (!text) continue;
      this.emit({ type: 'developer.message', text, round, via: message.via });
      said.push(renderPrompt('developer-message', { text }));
    }
    return said;
  }
}
