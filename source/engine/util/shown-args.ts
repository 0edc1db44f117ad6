/** Command-line arguments as one line to read (or paste back): an argument with a space in it is quoted. */
export function shownArgs(args: readonly string[]): string {
  return args.map((arg) => (/\s/.test(arg) ? JSON.stringify(arg) : arg)).join(' ');
}
