/** Names of environment variables whose values are secrets. */
const SECRET_NAME = /(_KEY|_TOKEN|_SECRET)$|PASSWORD|^(OPENAI|ANTHROPIC)_API_KEY$/i;
/** Shorter values are too likely to be ordinary words or numbers to redact everywhere. */
const MIN_SECRET_LENGTH = 6;

export interface Redactor {
  /** The JSON text of a value with every secret replaced by `[redacted:NAME]`. */
  json(value: unknown): string;
  text(value: string): string;
  /**
   * The largest position ≤ `cut` where a stream's text can be split without cutting a secret in
   * two, counting a secret's beginning at the end of `text` that the stream may go on to complete.
   */
  safeCut(text: string, cut: number): number;
}

/**
 * Secrets never reach disk: the values of environment variables that look like secrets (API keys,
 * `*_KEY`, `*_TOKEN`, `*_SECRET`, `*PASSWORD*`) and any extra values given, wherever they appear in
 * an event (a tool's output included).
 */
export function secretRedactor(env: NodeJS.ProcessEnv = process.env, extra: string[] = []): Redactor {
  const secrets: [string, string][] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= MIN_SECRET_LENGTH && SECRET_NAME.test(name)) secrets.push([value, name]);
  }
  for (const value of extra) if (value.length >= MIN_SECRET_LENGTH) secrets.push([value, 'secret']);
  // Longest first, so a secret that contains another is replaced whole.
  secrets.sort((a, b) => b[0].length - a[0].length);
  const text = (input: string) => {
    let out = input;
    for (const [value, name] of secrets) if (out.includes(value)) out = out.split(value).join(`[redacted:${name}]`);
    return out;
  };
  // A secret occurrence that starts before `cut` and goes past it, or runs off the end of the text
  // as a prefix of the secret: the split moves to its start, until nothing straddles it.
  const safeCut = (input: string, cut: number) => {
    let at = Math.min(cut, input.length);
    for (let moved = true; moved && at > 0; ) {
      moved = false;
      for (const [value] of secrets) {
        for (let p = Math.max(0, at - value.length + 1); p < at; p++) {
          const piece = input.slice(p, p + value.length);
          if (piece === value || (p + value.length > input.length && value.startsWith(piece))) {
            at = p;
            moved = true;
            break;
          }
        }
      }
    }
    return at;
  };
  return {
    text,
    safeCut,
    json(value) {
      let out = JSON.stringify(value);
      for (const [secret, name] of secrets) {
        // As it appears inside a JSON string (quotes and backslashes escaped).
        const encoded = JSON.stringify(secret).slice(1, -1);
        if (out.includes(encoded)) out = out.split(encoded).join(`[redacted:${name}]`);
      }
      return out;
    },
  };
}
