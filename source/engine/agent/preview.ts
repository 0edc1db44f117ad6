import type { Message } from '../protocol/messages';

const clip = (text: string, lines: number): string[] => {
  const all = text.trimEnd().split('\n');
  return all.length > lines ? [...all.slice(0, lines), `… ${all.length - lines} more lines`] : all;
};

/**
 * What a step-mode pause before a model call shows: each message the request adds (the prompts
 * tenet wrote, the tool results), its first lines. Screens indent and cut them to their width.
 */
export function describeTurn(turn: readonly Message[], linesEach = 4): string[] {
  if (!turn.length) return ['(nothing new since the last answer: the model is asked again)'];
  return turn.flatMap((message) => {
    if (message.role === 'tool')
      return [`result of ${message.name}:`, ...clip(message.content, linesEach).map((l) => `  ${l}`)];
    if (message.role === 'user') return ['prompt:', ...clip(message.content, linesEach).map((l) => `  ${l}`)];
    return [`the model: ${clip(message.content, 1)[0] ?? ''}`];
  });
}

/** A tool call's arguments as the developer reads and edits them: pretty JSON, or the raw text when it is not JSON. */
export function prettyArguments(args: string): string {
  try {
    return JSON.stringify(JSON.parse(args), null, 2);
  } catch {
    return args;
  }
}
