import { codeEdit, codeOf, diffText } from '../../engine/session/code-edit';
import { expandTabs } from './line-editor';
import { wrapCode, type Line, type Seg } from './lines';

// The engine's reading of a call's code (tenet show tells an edit the same way).
export { codeEdit, codeOf, diffText };

/**
 * A tool call whose arguments carry code (`submit_implementation`, `submit_tests`): the code is
 * what the developer reads and edits, so it is shown as code and edited as a `.py` file, never as
 * one JSON string with `\n` in it, hard-wrapped mid-word.
 */

/** The arguments with `code` in place of the model's (compact JSON, as a model sends them); the others as they were. */
export function withCode(args: string, code: string): string {
  return JSON.stringify({ ...(codeOf(args)?.rest ?? {}), code });
}

/** Whether two tool calls' arguments say the same (the same JSON, whatever its spacing and key order). */
export function sameArguments(a: string, b: string): boolean {
  if (a === b) return true;
  const canonical = (value: unknown): unknown =>
    Array.isArray(value)
      ? value.map(canonical)
      : value && typeof value === 'object'
        ? Object.fromEntries(
            Object.entries(value)
              .sort(([x], [y]) => (x < y ? -1 : 1))
              .map(([k, v]) => [k, canonical(v)]),
          )
        : value;
  try {
    return JSON.stringify(canonical(JSON.parse(a))) === JSON.stringify(canonical(JSON.parse(b)));
  } catch {
    return false;
  }
}

const KEYWORDS = new Set(
  'False None True and as assert async await break class continue def del elif else except finally for from global if import in is lambda nonlocal not or pass raise return try while with yield'.split(
    ' ',
  ),
);
const TOKEN = /(#.*$)|("""|'''|"(?:\\.|[^"\\])*"?|'(?:\\.|[^'\\])*'?)|([A-Za-z_]\w*)|([^#"'A-Za-z_]+)/g;

/** One row of Python in colours: keywords, strings, comments (a string over several rows is left plain after its first). */
export function highlighted(row: string): Seg[] {
  const segs: Seg[] = [];
  const put = (text: string, style: Omit<Seg, 'text'> = {}) => {
    const last = segs.at(-1);
    if (last && last.color === style.color && last.dim === style.dim) last.text += text;
    else segs.push({ text, ...style });
  };
  for (const [, comment, string, word, other] of row.matchAll(TOKEN)) {
    if (comment) put(comment, { dim: true });
    else if (string) put(string, { color: 'green' });
    else if (word) put(word, KEYWORDS.has(word) ? { color: 'magenta' } : {});
    else if (other) put(other);
  }
  return segs.length ? segs : [{ text: '' }];
}

/** Code as rows under `indent`: each of its lines on a row of its own (long ones wrapped under their own indentation, see wrapCode). */
export function codeLines(code: string, width: number, indent = '  '): Line[] {
  const inner = Math.max(10, width - indent.length);
  return expandTabs(code.replace(/\s+$/, ''))
    .split('\n')
    .flatMap((row) => wrapCode(row, inner).map((part): Line => [{ text: indent }, ...highlighted(part)]));
}

/** A diff's rows under `indent`, the added lines green, the removed red (long ones wrapped). */
export function editDiffLines(diff: string, width: number, indent = '  '): Line[] {
  if (!diff) return [{ text: `${indent}(no change)`, dim: true }];
  const style = (row: string) => ({
    color: row.startsWith('@@') ? 'cyan' : row.startsWith('+') ? 'green' : row.startsWith('-') ? 'red' : undefined,
    dim: row.startsWith('@@'),
  });
  return expandTabs(diff)
    .split('\n')
    .flatMap((row) =>
      wrapCode(row, Math.max(10, width - indent.length), row.startsWith('@@') ? 0 : 1).map(
        (part): Line => ({ ...style(row), text: `${indent}${part}` }),
      ),
    );
}

/**
 * The rows of a call's arguments at a step pause: `code:` and the code as code (or, once the
 * developer edited it, as a diff against the model's), then the other arguments as indented JSON.
 * Undefined when the call has no code argument (its arguments are shown as JSON).
 */
export function pauseCodeLines(args: string, edited: string | undefined, width: number): Line[] | undefined {
  const shown = codeOf(edited ?? args);
  if (!shown) return undefined;
  const edit = edited === undefined ? undefined : codeEdit(args, edited);
  const rest = Object.keys(shown.rest).length
    ? JSON.stringify(shown.rest, null, 2)
        .split('\n')
        .flatMap((row) => wrapCode(row, Math.max(10, width)))
        .map((text): Line => ({ text }))
    : [];
  const head: Line = edit
    ? { text: `code (your edit of the model's: +${edit.added} −${edit.removed}):`, color: 'green' }
    : { text: 'code:', dim: true };
  return [head, ...(edit ? editDiffLines(edit.diff, width) : codeLines(shown.code, width)), ...rest];
}
