/**
 * Pure helpers for fitting screens into the terminal. Ink clears the whole terminal (and its
 * scrollback, wiping the <Static> history) whenever the live frame is as tall as the window, so
 * every screen counts its lines exactly: text is wrapped here, by us, and drawn one line per
 * <Text wrap="truncate">, never left to Ink's own wrapping.
 */

/** A run of text in one style. */
export interface Seg {
  text: string;
  color?: string;
  dim?: boolean;
  bold?: boolean;
  inverse?: boolean;
}

/** One terminal row: a run of text, or several runs side by side. */
export type Line = Seg | Seg[];

/** A row's text without its styles. */
export const lineText = (line: Line): string => (Array.isArray(line) ? line.map((s) => s.text).join('') : line.text);

/**
 * Word-wraps `text` to rows of at most `width` characters (words longer than a row are cut). Each
 * line keeps its leading spaces, and the rows it wraps into start at the same indentation (a
 * pasted traceback keeps its structure), up to half the width so that text is left on every row.
 * `hang` indents those rows further: `$ command`, `! warning` go on under their text, not their mark.
 */
export function wrapText(text: string, width: number, hang = 0): string[] {
  const w = Math.max(1, width);
  const rows: string[] = [];
  for (const line of text.split('\n')) {
    const own = /^ */.exec(line)![0].length;
    const indent = ' '.repeat(Math.min(own, Math.floor(w / 2)));
    const further = ' '.repeat(Math.max(0, Math.min(own + hang, Math.floor(w / 2)) - indent.length));
    const paragraph = line.replace(/^ +/, '');
    let row = '';
    let first = true;
    const room = () => w - indent.length - (first ? 0 : further.length);
    const put = (text: string) => {
      rows.push(text ? indent + (first ? '' : further) + text : '');
      first = false;
    };
    for (const word of paragraph.split(' ')) {
      const joined = row ? `${row} ${word}` : word;
      if (joined.length <= room()) {
        row = joined;
        continue;
      }
      if (row) put(row);
      row = word;
      while (row.length > room()) {
        const cut = room();
        put(row.slice(0, cut));
        row = row.slice(cut);
      }
    }
    put(row);
  }
  return rows;
}

/**
 * Cuts a line of code or output into rows of at most `width` characters: the rows it wraps into
 * start at its own indentation and two more (they read as the same statement going on), up to
 * half the width. `lead` columns are a mark before the code (a diff's `+`, `-`, ` `), not indentation.
 */
export function wrapCode(text: string, width: number, lead = 0): string[] {
  const w = Math.max(2, width);
  if (text.length <= w) return [text];
  const indent = lead + /^\s*/.exec(text.slice(lead))![0].length;
  const hang = ' '.repeat(Math.min(indent + 2, Math.floor(w / 2)));
  const rows = [text.slice(0, w)];
  for (let at = w; at < text.length; at += w - hang.length) rows.push(hang + text.slice(at, at + w - hang.length));
  return rows;
}

/** Cuts `text` into rows of exactly `width` characters (code and output, where words do not matter). */
export function hardWrap(text: string, width: number): string[] {
  const w = Math.max(1, width);
  if (text.length <= w) return [text];
  const rows: string[] = [];
  for (let at = 0; at < text.length; at += w) rows.push(text.slice(at, at + w));
  return rows;
}

/** `…tail` when `text` is wider than `width`: the end of a node id says the most. */
export const shortStart = (text: string, width: number) =>
  text.length > width ? `…${text.slice(text.length - Math.max(1, width) + 1)}` : text;

/**
 * `head…tail` when `text` is wider than `width`: a test id keeps its file and its name, the ends
 * that say which test it is (the tail gets the larger part).
 */
export function shortMiddle(text: string, width: number): string {
  if (text.length <= width) return text;
  const room = Math.max(2, width) - 1;
  const head = Math.floor(room * 0.4);
  return `${text.slice(0, head)}…${text.slice(text.length - (room - head))}`;
}

/** `head…` when `text` is wider than `width`. */
export const shortEnd = (text: string, width: number) =>
  text.length > width ? `${text.slice(0, Math.max(1, width) - 1)}…` : text;

/**
 * At most `room` rows of `items`: when they do not all fit, the last row says how many are left
 * out (`more(n)`), so a list never pushes the rest of the screen away.
 */
export function cap<T>(items: readonly T[], room: number, more: (hidden: number) => T): T[] {
  if (items.length <= room) return [...items];
  if (room <= 0) return [];
  const shown = items.slice(0, room - 1);
  return [...shown, more(items.length - shown.length)];
}

/** The first visible index of a window of `room` rows kept around `cursor`. */
export function windowStart(cursor: number, total: number, room: number): number {
  return Math.max(0, Math.min(cursor - Math.floor(room / 2), total - room));
}

/** A part of a screen that competes for rows: what it cannot do without, and what it would use. */
export interface Claim {
  min: number;
  want: number;
}

/**
 * Shares `room` rows among parts listed by priority: each part in turn gets its minimum if that
 * still fits (else nothing: better absent than cut to uselessness), then what is left goes, again
 * in order, towards what each wants.
 */
export function allocate(room: number, claims: readonly Claim[]): number[] {
  let left = Math.max(0, room);
  const given = claims.map((claim) => {
    const min = Math.min(claim.min, claim.want);
    if (min <= 0 || min > left) return 0;
    left -= min;
    return min;
  });
  claims.forEach((claim, i) => {
    const has = given[i]!;
    if (!has) return;
    const extra = Math.min(left, claim.want - has);
    given[i] = has + extra;
    left -= extra;
  });
  return given;
}

/** Packs `parts` into rows joined by ` · `, at most `width` wide (a part too wide for a row is cut). */
export function pack(parts: readonly string[], width: number): string[] {
  const rows: string[] = [];
  let row = '';
  for (const part of parts) {
    const joined = row ? `${row} · ${part}` : part;
    if (joined.length <= width) row = joined;
    else {
      if (row) rows.push(row);
      row = shortEnd(part, width);
    }
  }
  if (row) rows.push(row);
  return rows;
}
