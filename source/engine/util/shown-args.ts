/** Characters no POSIX shell gives a meaning to: an argument made of them is shown as it is. */
const PLAIN = /^[A-Za-z0-9_@%+=:,./-]+$/;

/**
 * One argument as a POSIX shell reads it back: as it is when plain, else in single quotes, where
 * nothing expands (`$`, backticks, `!` and `\` stay what they are), a quote inside written `'\''`.
 * JSON's double quotes were not enough: a pasted `"$HOME"` or `"`id`"` still expanded.
 */
function shellQuoted(arg: string): string {
  return PLAIN.test(arg) ? arg : `'${arg.replace(/'/g, `'\\''`)}'`;
}

/** Command-line arguments as one line to read, or to paste back into a shell. */
export function shownArgs(args: readonly string[]): string {
  return args.map(shellQuoted).join(' ');
}
