const STOPWORDS = new Set([
  'self', 'cls', 'the', 'and', 'for', 'with', 'that', 'this', 'from', 'into', 'are', 'was', 'not', 'none', 'true',
  'false', 'return', 'returns', 'def', 'class', 'args', 'kwargs', 'if', 'of', 'to', 'in', 'is', 'it', 'be', 'or', 'an',
  'as', 'by', 'on', 'at', 'a', 'e', 'g', 'i', 'default', 'param', 'type', 'str', 'int', 'float', 'bool',
]);

/**
 * Identifier-aware tokens: words of text, identifiers split at snake_case and CamelCase
 * boundaries (`parseHTTPResponse_v2` → parse, http, response, v2), lower-cased, without short
 * words, numbers and stop words.
 */
export function tokens(text: string): string[] {
  const out: string[] = [];
  for (const word of text.match(/[A-Za-z][A-Za-z0-9]*/g) ?? []) {
    for (const part of word.split(/(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])/)) {
      const token = part.toLowerCase();
      if (token.length > 1 && !STOPWORDS.has(token)) out.push(token);
    }
  }
  return out;
}
