import type { EventOf } from '../events';
import { plural } from '../util/plural';

const WHY = {
  threshold: 'past 80% of the room for the request',
  stage: 'at a stage boundary',
  'too-long': 'the provider answered "too long"',
} as const;
const whole = (n: number) => n.toLocaleString('en-US');

/** One line for a condensation, the same in the TUI, replay, `tenet show`, the page and the headless printer. */
export function condensedWords(event: EventOf<'context.condensed'>): string {
  const k = event.kinds;
  const what = [
    k.toolOutputs
      ? `${plural(k.toolOutputs, 'tool output')} ${event.level === 3 ? 'cut to head and tail or to a one-line reference' : 'cut to head and tail'}`
      : '',
    k.submissions ? `${plural(k.submissions, 'superseded submission')} left as a reference` : '',
    k.prompts ? `${plural(k.prompts, 'earlier prompt')} shortened` : '',
    k.answers ? `${plural(k.answers, 'earlier answer')} shortened` : '',
  ].filter(Boolean);
  const window = event.window ? ` of a ${whole(event.window)}-token window` : '';
  return `Context condensed before model call ${event.round} (${WHY[event.why]}): ${what.join(', ') || 'nothing left to condense'} · ${whole(event.tokensBefore)} → ${whole(event.tokensAfter)} tokens${window}`;
}

/** The footer's share of the window the latest request used: `ctx 61%`. */
export const contextShare = (context: { tokens: number; window: number }) =>
  `ctx ${Math.round((100 * context.tokens) / context.window)}%`;

/** Said once per run, before its first request, when no one knows the model's context window. */
export function unknownWindowWarning(model: string): string {
  return (
    `The context window of model ${model} is unknown: tenet cannot keep the conversation inside it, and condenses only when the server answers that a request is too long. ` +
    `Pass --context-window N (tokens), or set "contextWindow" in .tenet.json or ~/.config/tenet/config.json.`
  );
}
