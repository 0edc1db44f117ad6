const STOPWORDS = new Set([
  'self',
  'cls',
  'the',
  'and',
  'for',
  'with',
  'that',
  'this',
  'from',
  'into',
  'are',
  'was',
  'not',
  'none',
  'true',
  'false',
  'return',
  'returns',
  'def',
  'class',
  'args',
  'kwargs',
  'if',
  'of',
  'to',
  'in',
  'is',
  'it',
  'be',
  'or',
  'an',
  'as',
  'by',
  'on',
  'at',
  'a',
  'e',
  'g',
  'i',
  'default',
  'param',
  'type',
  'str',
  'int',
  'float',
  'bool',
]);

const isUpper = (c: number) => c >= 65 && c <= 90;
const isLower = (c: number) => c >= 97 && c <= 122;
const isDigit = (c: number) => c >= 48 && c <= 57;
const isLetter = (c: number) => isUpper(c) || isLower(c);

/**
 * Identifier-aware tokens: words of text (a letter, then letters and digits), identifiers split at
 * snake_case and CamelCase boundaries (`parseHTTPResponse_v2` → parse, http, response, v2),
 * lower-cased, without short words, numbers and stop words. A scanner over character codes, not
 * regular expressions: the similarity search tokenizes every function of the repository at once.
 */
export function tokens(text: string): string[] {
  const out: string[] = [];
  const push = (part: string) => {
    if (part.length < 2) return;
    const token = part.toLowerCase();
    if (!STOPWORDS.has(token)) out.push(token);
  };
  const n = text.length;
  for (let i = 0; i < n; ) {
    if (!isLetter(text.charCodeAt(i))) {
      i++;
      continue;
    }
    let end = i + 1;
    while (end < n && (isLetter(text.charCodeAt(end)) || isDigit(text.charCodeAt(end)))) end++;
    let part = i;
    for (let k = i + 1; k < end; k++) {
      const previous = text.charCodeAt(k - 1);
      const current = text.charCodeAt(k);
      // aB, 1B: a new word starts at B; ABc: at B (the last capital of a run starts the next word).
      if (
        isUpper(current) &&
        (isLower(previous) ||
          isDigit(previous) ||
          (isUpper(previous) && k + 1 < end && isLower(text.charCodeAt(k + 1))))
      ) {
        push(text.slice(part, k));
        part = k;
      }
    }
    push(text.slice(part, end));
    i = end;
  }
  return out;
}
