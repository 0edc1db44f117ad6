import { lineDiff } from './page-diffs';

/**
 * A tool call whose arguments carry code (`submit_implementation`, `submit_tests`) and the
 * developer's edit of it: the code is what they read and change, so an edit is told as a diff of
 * the code against the model's, never as two JSON strings with `\n` in them.
 */

/** The call's `code` argument and the others, when its arguments are an object with a string `code`. */
export function codeOf(args: string): { code: string; rest: Record<string, unknown> } | undefined {
  try {
    const value = JSON.parse(args) as unknown;
    if (!value || typeof value !== 'object' || Array.isArray(value)) return undefined;
    const { code, ...rest } = value as Record<string, unknown>;
    return typeof code === 'string' ? { code, rest } : undefined;
  } catch {
    return undefined;
  }
}

/** Every line of a diff with its mark; between hunks (long code), their `@@` line. */
export function diffText(before: string, after: string): { diff: string; added: number; removed: number } {
  const { hunks, added, removed } = lineDiff(before, after);
  const lines = hunks.flatMap((h) => [
    ...(hunks.length > 1 ? [`@@ -${h.oldStart},${h.oldLines} +${h.newStart},${h.newLines} @@`] : []),
    ...h.lines,
  ]);
  return { diff: lines.join('\n'), added, removed };
}

/** The model's code and the developer's, when an edit of a call's arguments changed its code. */
function editedCode(original: string, edited: string): { before: string; after: string } | undefined {
  const before = codeOf(original);
  const after = codeOf(edited);
  if (!before || !after || before.code === after.code) return undefined;
  return { before: before.code, after: after.code };
}

/** The developer's edit of a call's code, as a diff against the model's (undefined: the code is not what changed). */
export function codeEdit(
  original: string,
  edited: string,
): { diff: string; added: number; removed: number } | undefined {
  const codes = editedCode(original, edited);
  return codes && diffText(codes.before, codes.after);
}

/** The same edit as the hunks the session page draws (with line numbers), counted the same way. */
export function codeEditHunks(original: string, edited: string): ReturnType<typeof lineDiff> | undefined {
  const codes = editedCode(original, edited);
  return codes && lineDiff(codes.before, codes.after);
}
