import stringWidth from 'string-width';

/**
 * Pure helpers for fitting screens into the terminal. Ink clears the whole terminal (and its
 * scrollback, wiping the <Static> history) whenever the live frame is as tall as the window, so
 * every screen counts its lines exactly: text is wrapped here, by us, and drawn one line per
 * <Text wrap="truncate">, never left to Ink's own wrapping. Text is measured in terminal columns
 * (string-width: CJK and most emoji take two, a combining mark none), never in UTF-16 units, and
 * cut between graphemes, never inside one.
 */

/** Columns `text` takes on a terminal. */
export const columns = (text: string): number => stringWidth(text);

const segmenter = new Intl.Segmenter('en', { granularity: 'grapheme' });

/** The graphemes of `text` (a letter and its combining marks, an emoji with its modifiers: one each). */
const graphemes = (text: string): string[] => Array.from(segmenter.segment(text), (s) => s.segment);

/** The longest start of `text` at most `width` columns wide (a wide grapheme that does not fit stays out). */
export function headColumns(text: string, width: number): string {
  if (columns(text) <= width) return text;
  let taken = '';
  let used = 0;
  for (const g of graphemes(text)) {
    const w = columns(g);
    if (used + w > width) break;
    taken += g;
    used += w;
  }
  return taken;
}

/** The longest end of `text` at most `width` columns wide. */
export function tailColumns(text: string, width: number): string {
  if (columns(text) <= width) return text;
  const parts = graphemes(text);
  let taken = '';
  let used = 0;
  for (let i = parts.length - 1; i >= 0; i--) {
    const w = columns(parts[i]!);
    if (used + w > width) break;
    taken = parts[i]! + taken;
    used += w;
  }
  return taken;
}

/** `text` padded with spaces to `width` columns (as String.padEnd does for characters). */
export const padColumns = (text: string, width: number): string =>
  text + ' '.repeat(Math.max(0, width - columns(text)));

/** `text` padded at its start to `width` columns. */
export const padStartColumns = (text: string, width: number): string =>
  ' '.repeat(Math.max(0, width - columns(text))) + text;

/**
 * Cuts `text` into pieces of at most `width` columns (a piece may be a column short where a wide
 * grapheme did not fit). Every piece has at least one grapheme, so a grapheme wider than `width` is
 * a piece of its own.
 */
function cutColumns(text: string, width: number): string[] {
  const pieces: string[] = [];
  let rest = text;
  while (rest) {
    let piece = headColumns(rest, width);
    if (!piece) piece = graphemes(rest)[0]!;
    pieces.push(piece);
    rest = rest.slice(piece.length);
  }
  return pieces.length ? pieces : [''];
}

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
 * Word-wraps `text` to rows of at most `width` columns (words longer than a row are cut). Each
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
    const room = () => Math.max(1, w - indent.length - (first ? 0 : further.length));
    const put = (text: string) => {
      rows.push(text ? indent + (first ? '' : further) + text : '');
      first = false;
    };
    for (const word of paragraph.split(' ')) {
      const joined = row ? `${row} ${word}` : word;
      if (columns(joined) <= room()) {
        row = joined;
        continue;
      }
      if (row) put(row);
      row = word;
      while (columns(row) > room()) {
        const piece = cutColumns(row, room())[0]!;
        put(piece);
        row = row.slice(piece.length);
      }
    }
    put(row);
  }
  return rows;
}

/**
 * Cuts a line of code or output into rows of at most `width` columns: the rows it wraps into
 * start at its own indentation and two more (they read as the same statement going on), up to
 * half the width. `lead` columns are a mark before the code (a diff's `+`, `-`, ` `), not indentation.
 */
export function wrapCode(text: string, width: number, lead = 0): string[] {
  const { hang, cuts } = codeCuts(text, width, lead);
  return cuts.map(([from, to], i) => (i ? hang : '') + text.slice(from, to));
}

/** Where wrapCode cuts `text`: each row's [from, to) in it, the rows after the first led by `hang`. */
export function codeCuts(text: string, width: number, lead = 0): { hang: string; cuts: [number, number][] } {
  const w = Math.max(2, width);
  if (columns(text) <= w) return { hang: '', cuts: [[0, text.length]] };
  const indent = lead + /^\s*/.exec(text.slice(lead))![0].length;
  const hang = ' '.repeat(Math.min(indent + 2, Math.floor(w / 2)));
  const first = cutColumns(text, w)[0]!;
  const cuts: [number, number][] = [[0, first.length]];
  let at = first.length;
  for (const piece of cutColumns(text.slice(at), w - hang.length)) cuts.push([at, (at += piece.length)]);
  return { hang, cuts };
}

/** The part [from, to) of a row of segments, each piece keeping its style. */
export function sliceSegs(segs: readonly Seg[], from: number, to: number): Seg[] {
  const out: Seg[] = [];
  let at = 0;
  for (const seg of segs) {
    const end = at + seg.text.length;
    if (end > from && at < to) out.push({ ...seg, text: seg.text.slice(Math.max(0, from - at), to - at) });
    at = end;
  }
  return out.length ? out : [{ text: '' }];
}

/** Cuts `text` into rows of `width` columns (code and output, where words do not matter). */
export function hardWrap(text: string, width: number): string[] {
  const w = Math.max(1, width);
  if (columns(text) <= w) return [text];
  // Not wrap-ansi's hard wrap: it drops combining marks (`e\u0301` came out as `e`).
  return cutColumns(text, w);
}

/** `…tail` when `text` is wider than `width` columns: the end of a node id says the most. */
export const shortStart = (text: string, width: number) =>
  columns(text) > width ? `…${tailColumns(text, Math.max(1, width) - 1)}` : text;

/**
 * `head…tail` when `text` is wider than `width` columns: a test id keeps its file and its name,
 * the ends that say which test it is (the tail gets the larger part).
 */
export function shortMiddle(text: string, width: number): string {
  if (columns(text) <= width) return text;
  const room = Math.max(2, width) - 1;
  const head = Math.floor(room * 0.4);
  return `${headColumns(text, head)}…${tailColumns(text, room - head)}`;
}

/** `head…` when `text` is wider than `width` columns. */
export const shortEnd = (text: string, width: number) =>
  columns(text) > width ? `${headColumns(text, Math.max(1, width) - 1)}…` : text;

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

/** Packs `parts` into rows joined by ` · `, at most `width` columns wide (a part too wide for a row is cut). */
export function pack(parts: readonly string[], width: number): string[] {
  const rows: string[] = [];
  let row = '';
  for (const part of parts) {
    const joined = row ? `${row} · ${part}` : part;
    if (columns(joined) <= width) row = joined;
    else {
      if (row) rows.push(row);
      row = shortEnd(part, width);
    }
  }
  if (row) rows.push(row);
  return rows;
}
