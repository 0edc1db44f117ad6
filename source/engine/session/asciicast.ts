/**
 * `tenet export --format cast`: an asciinema cast (format v2,
 * https://docs.asciinema.org/manual/asciicast/v2/) — a header line of JSON, then one
 * `[seconds, "o", text]` line per frame — that `asciinema play` and asciinema-player in a web
 * page play. The frames are drawn by the UI (ui/cast-frames.tsx); this file only writes them down,
 * with the session's own timing and its long waits shortened.
 */

/** The terminal a cast is drawn in, and how long its longest pause is. */
export const CAST_LIMITS = {
  cols: 100,
  rows: 30,
  minCols: 40,
  minRows: 10,
  maxCols: 400,
  maxRows: 200,
  idleLimit: 2,
} as const;

export interface CastFrame {
  /** When the session showed it: milliseconds since its first event. */
  atMs: number;
  /** The screen's rows, with their colour escapes. */
  rows: readonly string[];
}

export interface CastOptions {
  cols: number;
  rows: number;
  /** The longest wait between two frames, in seconds: a two-minute test run plays in this. */
  idleLimit: number;
  title: string;
  /** When the session started (ms since the epoch): the header's `timestamp`. */
  startedMs: number;
}

const HIDE_CURSOR = '\u001B[?25l';
const SHOW_CURSOR = '\u001B[?25h';
const HOME = '\u001B[H';
const CLEAR_SCREEN = '\u001B[2J';
const CLEAR_LINE_END = '\u001B[K';
const CLEAR_BELOW = '\u001B[J';

/**
 * What turns the screen from `before` into `rows`: each row that changed, from its first column,
 * then the rest of its line cleared; rows the frame no longer has are cleared. The first frame
 * draws every row. No newline is written: on the terminal's last row it would scroll the screen.
 */
function frameText(rows: readonly string[], before: readonly string[] | undefined): string {
  let text = before ? '' : `${HOME}${CLEAR_SCREEN}`;
  rows.forEach((row, i) => {
    if (before?.[i] !== row) text += `\u001B[${i + 1};1H${row}${CLEAR_LINE_END}`;
  });
  if (before && before.length > rows.length) text += `\u001B[${rows.length + 1};1H${CLEAR_BELOW}`;
  return text;
}

/** Seconds as asciinema writes them: to the microsecond. */
const seconds = (ms: number) => Number((ms / 1000).toFixed(6));

/**
 * The cast's text. A frame the same as the one before is left out (the screen did not change);
 * each wait between two frames is the recorded one, but never longer than `idleLimit`.
 */
export function asciicast(frames: readonly CastFrame[], options: CastOptions): string {
  const header = {
    version: 2,
    width: options.cols,
    height: options.rows,
    timestamp: Math.floor(options.startedMs / 1000),
    idle_time_limit: options.idleLimit,
    title: options.title,
    env: { TERM: 'xterm-256color' },
  };
  const lines = [JSON.stringify(header)];
  const limitMs = options.idleLimit * 1000;
  let clock = 0;
  let previous: { atMs: number; rows: readonly string[] } | undefined;
  for (const frame of frames) {
    const rows = frame.rows.slice(0, options.rows);
    const text = frameText(rows, previous?.rows);
    if (!text) continue;
    if (previous) clock += Math.max(0, Math.min(limitMs, frame.atMs - previous.atMs));
    lines.push(JSON.stringify([seconds(clock), 'o', previous ? text : `${HIDE_CURSOR}${text}`]));
    previous = { atMs: frame.atMs, rows };
  }
  // The last frame stays a moment, then the cursor comes back (a player shows the end as it is).
  lines.push(JSON.stringify([seconds(clock + Math.min(limitMs, 1000)), 'o', SHOW_CURSOR]));
  return `${lines.join('\n')}\n`;
}
