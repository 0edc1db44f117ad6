/** `1 test`, `2 tests`: a count with its noun, `many` for nouns whose plural is not `word + s`. */
export function plural(count: number, word: string, many = `${word}s`): string {
  return `${count} ${count === 1 ? word : many}`;
}
