import { findSecretShapes, isSecretName, redactShapes, secretShapes } from '../secrets';
import { mapStrings, stringsIn } from './map-strings';

/** Shorter values are too likely to be ordinary words or numbers to redact everywhere. */
const MIN_SECRET_LENGTH = 6;

/** How far back from a stream's cut a secret's start is looked for: a private-key block is a few KB. */
const MAX_SHAPE_SPAN = 64 * 1024;

export interface Redactor {
  /** The JSON text of a value with every secret replaced by `[redacted:NAME]` (see `value`). */
  json(value: unknown): string;
  /** A value with every secret in its strings (and keys) replaced; the value itself when it holds none. */
  value<T>(value: T): T;
  /** Text with every secret replaced: `[redacted:NAME]` for an environment variable's value, `[redacted:KIND]` for a shape (see engine/secrets). */
  text(value: string): string;
  /**
   * The largest position ≤ `cut` where a stream's text can be split without cutting a secret in
   * two, counting a secret's beginning at the end of `text` that the stream may go on to complete.
   */
  safeCut(text: string, cut: number): number;
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/**
 * A secret as it appears in text, also when line breaks were put inside it (a program that prints
 * it folded over two lines): between any two of its characters, `\n` and `\r` are skipped.
 */
function secretPattern(value: string): RegExp {
  return new RegExp([...value].map(escapeRegExp).join('[\\r\\n]*'), 'g');
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
 * like tokens whatever their name, see engine/secrets) and any extra values given, wherever they
 * appear in an event (a tool's output included), also when printed with line breaks inside them;
 * and any text shaped like a secret (a token in a repository file that a shell printed), whatever
 * the environment holds (see engine/secrets). Every place tenet stores, prints, exports or
 * sends text goes through one of these.
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
  const secrets = found.map(([value, name]) => ({ value, name, text: secretPattern(value) }));
  const text = (input: string) => {
    let out = input;
    for (const s of secrets) out = out.replace(s.text, `[redacted:${s.name}]`);
    return redactShapes(out);
  };
  // One look at all the strings of a value at once (most values hold no secret), then, only if
  // something was seen, each string on its own.
  const holdsSecret = (value: unknown) => {
    const joined = stringsIn(value)
      .filter((s) => s.length >= MIN_SECRET_LENGTH)
      .join('\n\0\n');
    return secrets.some((s) => joined.search(s.text) !== -1) || findSecretShapes(joined).length > 0;
  };
  const value = <T>(input: T): T => (holdsSecret(input) ? mapStrings(input, text, true) : input);
  // A secret shape that starts before the cut and goes past it (or reaches the end of the text,
  // where the stream may go on: a private-key block whose END line has not come yet).
  const shapeAcross = (input: string, at: number) => {
    const from = Math.max(0, at - MAX_SHAPE_SPAN);
    // A key block whose END line has not come: its header alone is no secret yet, its body is.
    const open = input.lastIndexOf('-----BEGIN ', at - 1);
    if (open >= from && /^-----BEGIN [A-Z0-9 ]*PRIVATE KEY/.test(input.slice(open, open + 80)))
      if (!input.includes('-----END ', open)) return open;
    // Every other shape is one line: a cut at a line's end splits none (the usual cut, a stream's whole lines).
    if (input[at - 1] === '\n') return undefined;
    for (const shape of findSecretShapes(input.slice(from))) {
      const [start, end] = [from + shape.start, from + shape.end];
      if (start < at && (end > at || end === input.length)) return start;
    }
    return undefined;
  };
  // A secret occurrence that starts before `cut` and goes past it, or runs off the end of the text
  // as a prefix of the secret: the split moves to its start, until nothing straddles it. Line
  // breaks inside a secret count as part of it (each character may sit on a line of its own).
  const safeCut = (input: string, cut: number) => {
    let at = Math.min(cut, input.length);
    for (let moved = true; moved && at > 0; ) {
      moved = false;
      const shapeStart = shapeAcross(input, at);
      if (shapeStart !== undefined) {
        at = shapeStart;
        moved = true;
        continue;
      }
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
  return { text, value, safeCut, json: (input) => JSON.stringify(value(input)) };
}

let forProcess: Redactor | undefined;
/** The redactor of this process's environment, and of every secret shape (built once: the environment does not change). */
export function processRedactor(): Redactor {
  forProcess ??= secretRedactor(process.env);
  return forProcess;
}
