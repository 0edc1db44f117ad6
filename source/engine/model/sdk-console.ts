/**
 * The Anthropic SDK writes some notices straight to `console.warn` (a deprecated model, on every
 * request): in the TUI that text lands on Ink's screen and tears it, in headless runs it is a stray
 * stderr line in no event. `heard` catches what the SDK warns while `call` runs (the SDK warns
 * before its first await) and hands each line on instead.
 */
export function catchingSdkWarnings<T>(call: () => T, heard: (message: string) => void): T {
  const warn = console.warn;
  // One line for the event log: a line break the SDK left unpunctuated ends a sentence.
  console.warn = (...parts: unknown[]) =>
    heard(
      parts
        .map(String)
        .join(' ')
        .trim()
        .replace(/([^.!?:])\s*\n\s*/g, '$1. ')
        .replace(/\s*\n\s*/g, ' '),
    );
  try {
    return call();
  } finally {
    console.warn = warn;
  }
}
