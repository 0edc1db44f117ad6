import { mapStrings } from './util/map-strings';
import { processRedactor as redactor } from './util/redact';

/**
 * Untrusted text on its way to the terminal. Model text, tool output, test output and whatever a
 * saved session holds may carry terminal control sequences: OSC 52 writes the clipboard, OSC 0
 * retitles the window, `ESC[2J` clears the screen, others move the cursor over what tenet printed.
 * Every place where such text leaves for the terminal (the headless printers, `show`, `replay`,
 * the TUI's view, error messages) passes it through here; tenet's own colours and cursor moves are
 * added after, by the printers and Ink, and so are kept.
 */

/**
 * CSI sequences (`ESC [ … final`), OSC strings up to BEL or ST (or the end of the text when
 * unterminated), DCS/SOS/PM/APC strings up to ST, other two-character escapes, a lone ESC, and
 * every C0 and C1 control character but newline and tab (carriage returns included: they would
 * let later text overwrite earlier text on the same line).
 */
const CONTROL =
  /\x1b\[[0-?]*[ -/]*[@-~]?|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)?|\x1b[PX^_][^\x1b]*(?:\x1b\\)?|\x1b[ -~]?|[\x00-\x08\x0b-\x1f\x7f-\x9f]/g;

/** Text without terminal control sequences (a CRLF line end becomes a newline). */
export function stripControls(text: string): string {
  return text.replace(/\r\n/g, '\n').replace(CONTROL, '');
}

/**
 * Text with every control character shown as an escape (`\x1b`) instead of removed: for what the
 * developer approves (a shell command), where hiding a part would hide what runs.
 */
export function showControls(text: string): string {
  return redactor()
    .text(text)
    .replace(/[\x00-\x08\x0b-\x1f\x7f-\x9f]/g, (c) => `\\x${c.charCodeAt(0).toString(16).padStart(2, '0')}`);
}

/** Untrusted text as it may be printed: no secret of this environment, no terminal control. */
export function printable(text: string): string {
  return stripControls(redactor().text(text));
}

/** An event (or any value) with every string in it made printable: what the TUI folds into its view. */
export function printableValue<T>(value: T): T {
  return mapStrings(redactor().value(value), stripControls);
}

/**
 * A value as one line of JSON for stdout: secrets redacted. JSON escapes the C0 controls (ESC as
 * `\u001b`) but not the C1 ones, which some terminals obey (U+009B is a CSI): those are escaped too.
 */
export function printableJson(value: unknown): string {
  return redactor()
    .json(value)
    .replace(/[\x80-\x9f\u2028\u2029]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
