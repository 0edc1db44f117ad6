/**
 * The string fields of a JSON object that is still arriving: a tool call's arguments while the
 * model writes them (`{"code": "def f(x):\n    retu`). The last field may be cut anywhere, even
 * inside an escape; what has come is decoded, so code reads as code (real newlines), not as JSON.
 * Fields that are not strings are skipped; anything that is not an object gives nothing.
 */
export function partialStringFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  let i = text.indexOf('{');
  if (i < 0) return fields;
  i++;
  for (;;) {
    i = skipSpace(text, i);
    if (text[i] !== '"') return fields;
    const key = readString(text, i);
    if (!key.closed) return fields;
    i = skipSpace(text, key.end);
    if (text[i] !== ':') return fields;
    i = skipSpace(text, i + 1);
    if (i >= text.length) return fields;
    if (text[i] === '"') {
      const value = readString(text, i);
      fields[key.value] = value.value;
      if (!value.closed) return fields;
      i = value.end;
    } else {
      i = skipValue(text, i);
      if (i >= text.length) return fields;
    }
    i = skipSpace(text, i);
    if (text[i] !== ',') return fields;
    i++;
  }
}

const skipSpace = (text: string, i: number) => {
  while (i < text.length && /\s/.test(text[i]!)) i++;
  return i;
};

const ESCAPES: Record<string, string> = { n: '\n', t: '\t', r: '\r', b: '\b', f: '\f', '"': '"', '\\': '\\', '/': '/' };

/** A string from its opening quote: its decoded text so far, whether it closed, and where it ends. */
function readString(text: string, start: number): { value: string; closed: boolean; end: number } {
  let value = '';
  let i = start + 1;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"') return { value, closed: true, end: i + 1 };
    if (char !== '\\') {
      value += char;
      i++;
      continue;
    }
    const next = text[i + 1];
    if (next === undefined) break; // cut inside an escape: wait for the rest
    if (next === 'u') {
      const hex = text.slice(i + 2, i + 6);
      if (hex.length < 4) break;
      value += String.fromCharCode(parseInt(hex, 16));
      i += 6;
    } else {
      value += ESCAPES[next] ?? next;
      i += 2;
    }
  }
  return { value, closed: false, end: text.length };
}

/** Past a value that is not a string (a number, true, an array or object), to the next `,` or `}` at its level. */
function skipValue(text: string, start: number): number {
  let depth = 0;
  let i = start;
  while (i < text.length) {
    const char = text[i]!;
    if (char === '"') {
      i = readString(text, i).end;
      continue;
    }
    if (char === '{' || char === '[') depth++;
    else if (char === '}' || char === ']') {
      if (depth === 0) return i;
      depth--;
    } else if (char === ',' && depth === 0) return i;
    i++;
  }
  return i;
}
