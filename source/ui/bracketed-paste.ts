/**
 * The terminal's bracketed paste mode (DEC private mode 2004), on while a TUI of tenet's runs: the
 * terminal then wraps every paste in ESC[200~ … ESC[201~, so a text field can keep a pasted
 * newline as text instead of taking it for Enter (see components/line-editor.ts). A terminal that
 * does not know the mode ignores the request, and pastes arrive as plain keys, as before.
 *
 * The mode belongs to the terminal, not to the process: it is turned off again when the TUI ends,
 * whichever way tenet exits, and around a program the terminal is handed to (the developer's
 * editor sets the mode as it likes, and may leave it off).
 */

const ON = '\u001B[?2004h';
const OFF = '\u001B[?2004l';

let terminal: NodeJS.WriteStream | undefined;

const turnOff = () => {
  if (terminal?.isTTY) terminal.write(OFF);
};

/** Turns the mode on for `stdout` (a terminal only); the returned function turns it off. */
export function startBracketedPaste(stdout: NodeJS.WriteStream): () => void {
  if (!stdout.isTTY) return () => undefined;
  terminal = stdout;
  stdout.write(ON);
  process.once('exit', turnOff);
  return () => {
    turnOff();
    process.removeListener('exit', turnOff);
    terminal = undefined;
  };
}

/** After another program had the terminal: the mode as the TUI needs it again, if it is running. */
export function restoreBracketedPaste(): void {
  if (terminal?.isTTY) terminal.write(ON);
}

/** Before handing the terminal to another program: the terminal as that program expects to find it. */
export function suspendBracketedPaste(): void {
  turnOff();
}
