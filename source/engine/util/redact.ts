import { isSecretName, secretShapes } from '../secrets';

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

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A secret, as it appears in text and in JSON text, also when line breaks were put inside it (a
 * program that prints it folded over two lines): between any two of its characters, line breaks
 * (`\n`, `\r`; in JSON text their escapes) are skipped.
 */
function secretPattern(value: string): { text: RegExp; json: RegExp } {
  const chars = [...value];
  const text = chars.map(escapeRegExp).join('[\\r\\n]*');
  const json = chars.map((c) => escapeRegExp(JSON.stringify(c).slice(1, -1))).join('(?:\\\\[rn])*');
  return { text: new RegExp(text, 'g'), json: new RegExp(json, 'g') };
}

/**
 * Where the secret starting at `p` ends in `input` (line breaks inside it skipped), `'prefix'` when
 * the input ends in its middle, or undefined when it does not start there.
 */
function secretAt(input: string, p: number, value: string): number | 'prefix' | undefined {
  if (input[p] !== value[0]) return undefined;
  let i = p;
  for (let j = 0; j < value.length; ) {
    if (i >= input.length) return 'prefix';
    const c = input[i]!;
    if (j > 0 && (c === '\n' || c === '\r')) {
      i++;
      continue;
    }
    if (c !== value[j]) return undefined;
    i++;
    j++;
  }
  return i;
}

/**
 * Secrets never reach disk, the terminal or the model: the values of environment variables that
 * look like secrets (API keys, `*_KEY`, `*_TOKEN`, `*_SECRET`, `*PASSWORD*`, and values shaped
 * like tokens whatever their name, see engine/secrets)
 * and any extra values given, wherever they appear in an event (a tool's output included), also
 * when printed with line breaks inside them.
 */
export function secretRedactor(env: NodeJS.ProcessEnv = process.env, extra: string[] = []): Redactor {
  const found: [string, string][] = [];
  for (const [name, value] of Object.entries(env)) {
    if (value && value.length >= MIN_SECRET_LENGTH && isSecretName(name)) found.push([value, name]);
    // A token-shaped value under any name: the whole value, and each token in it wherever it appears alone.
    const shapes = secretShapes(value);
    if (shapes.length && !isSecretName(name))
      found.push(
        [value!, name],
        ...shapes.filter((shape) => shape !== value).map((shape): [string, string] => [shape, name]),
      );
  }
  for (const value of extra) if (value.length >= MIN_SECRET_LENGTH) found.push([value, 'secret']);
  // Longest first, so a secret that contains another is replaced whole.
  found.sort((a, b) => b[0].length - a[0].length);
  const secrets = found.map(([value, name]) => ({ value, name, ...secretPattern(value) }));
  const text = (input: string) => {
    let out = input;
    for (const s of secrets) out = out.replace(s.text, `[redacted:${s.name}]`);
    return out;
  };
  // A secret occurrence that starts before `cut` and goes past it, or runs off the end of the text
  // as a prefix of the secret: the split moves to its start, until nothing straddles it. Line
  // breaks inside a secret count as part of it (each character may sit on a line of its own).
  const safeCut = (input: string, cut: number) => {
    let at = Math.min(cut, input.length);
    for (let moved = true; moved && at > 0; ) {
      moved = false;
      for (const { value } of secrets) {
        for (let p = Math.max(0, at - 2 * value.length); p < at; p++) {
          const end = secretAt(input, p, value);
          if (end === 'prefix' || (end !== undefined && end > at)) {
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
      for (const s of secrets) out = out.replace(s.json, `[redacted:${s.name}]`);
      return out;
    },
  };
}
