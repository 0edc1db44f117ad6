import { codeEdit, codeOf, diffText } from '../../engine/session/code-edit';
import { expandTabs } from './line-editor';
import { codeCuts, sliceSegs, wrapCode, type Line } from './lines';
import { highlightRows } from './python-highlight';

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

/** Code as rows under `indent`, in colours (python-highlight): each of its lines on a row of its own (long ones wrapped under their own indentation, see wrapCode). */
export function codeLines(code: string, width: number, indent = '  '): Line[] {
  const inner = Math.max(10, width - indent.length);
  const text = expandTabs(code.replace(/\s+$/, ''));
  // Highlighted whole (a string or a statement runs over rows), then cut where wrapCode cuts.
  const styled = highlightRows(text);
  return text.split('\n').flatMap((row, r) => {
    const { hang, cuts } = codeCuts(row, inner);
    return cuts.map(([from, to], i): Line => [{ text: indent + (i ? hang : '') }, ...sliceSegs(styled[r]!, from, to)]);
  });
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
