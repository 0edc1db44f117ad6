/**
 * One line of text being typed, as a pure function of the keys: what the TUI's text fields (the
 * start screen's search, a denied command's reason, the pdb line of a takeover) share. Ink hands
 * over a whole chunk when keys come faster than it reads them (key repeat, a paste): "ab\x7f\x7f"
 * or "p x\rp y\r" arrive as one input, so the chunk is replayed here character by character —
 * backspaces erase, newlines end lines, tabs become spaces, control keys edit — instead of going
 * into the line as invisible characters.
 *
 * The TUI turns on the terminal's bracketed paste (see bracketed-paste.ts): a paste then arrives
 * between two markers, so its newlines are known to be pasted, not Enter, however the terminal cut
 * it into chunks. A terminal without it sends a paste as plain keys, and only a newline inside a
 * chunk can be told from Enter.
 */
export interface LineState {
  value: string;
  /** Where the next character goes: 0 … value.length. */
  cursor: number;
  /** While ↑ ↓ walk the history: the entry shown (0 the oldest), and the line that was being typed. */
  recall?: { at: number; draft: string };
  /** Between a bracketed paste's markers: every newline is pasted text. */
  pasting?: true;
}

/** The subset of Ink's key flags the editor reads. */
export interface EditKey {
  return?: boolean;
  backspace?: boolean;
  delete?: boolean;
  leftArrow?: boolean;
  rightArrow?: boolean;
  upArrow?: boolean;
  downArrow?: boolean;
  home?: boolean;
  end?: boolean;
  tab?: boolean;
  ctrl?: boolean;
  meta?: boolean;
  escape?: boolean;
}

export interface EditOptions {
  /**
   * `lines`: every newline ends a line (pdb: a pasted block is sent line by line); `single`: a
   * pasted newline becomes a space (a search, a reason); `text`: a pasted newline stays, and so
   * does one typed with Alt+Enter or Ctrl+J (a message to the agent: a traceback, some code).
   * In every mode Enter itself submits.
   */
  newlines: 'lines' | 'single' | 'text';
  /** Earlier lines, oldest first, for ↑ ↓. */
  history?: readonly string[];
  /** Enter leaves the text in place (a filter that stays on) instead of starting a new line. */
  keep?: boolean;
}

export interface EditResult {
  state: LineState;
  /** Lines ended by Enter (or by newlines in a pasted chunk), in order. */
  submitted: string[];
  /** The key was not the editor's (Esc, PgUp, …): the field's owner may act on it. */
  unhandled: boolean;
}

export const emptyLine = (value = ''): LineState => ({ value, cursor: value.length });

const TAB = '    ';

function insert(state: LineState, text: string): LineState {
  return {
    ...state,
    value: state.value.slice(0, state.cursor) + text + state.value.slice(state.cursor),
    cursor: state.cursor + text.length,
  };
}

function backspace(state: LineState): LineState {
  if (!state.cursor) return state;
  return {
    ...state,
    value: state.value.slice(0, state.cursor - 1) + state.value.slice(state.cursor),
    cursor: state.cursor - 1,
  };
}

/** Ctrl+W: the word before the cursor, and the spaces after it. */
function deleteWord(state: LineState): LineState {
  const before = state.value.slice(0, state.cursor);
  const kept = before.replace(/\S*\s*$/, '');
  return { ...state, value: kept + state.value.slice(state.cursor), cursor: kept.length };
}

/** The editing a control character asks for (Ctrl+A … as Ink or the raw chunk gives it), or undefined. */
function control(state: LineState, letter: string): LineState | undefined {
  switch (letter) {
    case 'a':
      return { ...state, cursor: 0 };
    case 'e':
      return { ...state, cursor: state.value.length };
    case 'u':
      return { ...state, value: state.value.slice(state.cursor), cursor: 0 };
    case 'k':
      return { ...state, value: state.value.slice(0, state.cursor), cursor: state.cursor };
    case 'w':
      return deleteWord(state);
    case 'b':
      return { ...state, cursor: Math.max(0, state.cursor - 1) };
    case 'f':
      return { ...state, cursor: Math.min(state.value.length, state.cursor + 1) };
    case 'h':
      return backspace(state);
    default:
      return undefined;
  }
}

function recall(state: LineState, history: readonly string[], direction: -1 | 1): LineState {
  if (!history.length) return state;
  const at = state.recall ? state.recall.at + direction : direction < 0 ? history.length - 1 : history.length;
  const draft = state.recall?.draft ?? state.value;
  if (at < 0) return state;
  if (at >= history.length) return emptyLine(draft);
  return { ...emptyLine(history[at]!), recall: { at, draft } };
}

/** Applies one input (a key, or a chunk of several) to the line. */
export function editLine(state: LineState, input: string, key: EditKey, options: EditOptions): EditResult {
  const done = (next: LineState, submitted: string[] = []): EditResult => ({
    state: next,
    submitted,
    unhandled: false,
  });
  // What a key leaves of the state: no history walk, but a paste still open stays open.
  const plain = ({ value, cursor, pasting }: LineState): LineState => ({
    value,
    cursor,
    ...(pasting ? { pasting } : {}),
  });
  // Bracketed-paste markers: Ink hands each over on its own, as "[200~" and "[201~".
  if (input === PASTE_START || input === PASTE_END)
    return done(
      input === PASTE_START ? { ...plain(state), pasting: true } : { value: state.value, cursor: state.cursor },
    );
  if (key.return) {
    // Alt+Enter types a newline where text may hold one; inside a paste, a lone newline chunk is pasted.
    if (state.pasting || (key.meta && options.newlines === 'text'))
      return replay(plain(state), '\n', options, { pasted: true });
    return submit(plain(state), options);
  }
  if (key.leftArrow) return done({ ...plain(state), cursor: Math.max(0, state.cursor - 1) });
  if (key.rightArrow) return done({ ...plain(state), cursor: Math.min(state.value.length, state.cursor + 1) });
  if (key.home) return done({ ...plain(state), cursor: 0 });
  if (key.end) return done({ ...plain(state), cursor: state.value.length });
  if (key.upArrow || key.downArrow) {
    if (options.newlines === 'text' && state.value.includes('\n'))
      return done(verticalMove(plain(state), key.upArrow ? -1 : 1));
    if (!options.history) return { state, submitted: [], unhandled: true };
    return done(recall(state, options.history, key.upArrow ? -1 : 1));
  }
  // Ink reads \x7f (what the Backspace key sends) as `delete`: both erase backwards here.
  if (key.backspace || key.delete) return done(backspace(plain(state)));
  if (key.tab) return done(insert(plain(state), TAB));
  if (key.ctrl) {
    const edited = control(plain(state), input);
    return edited ? done(edited) : { state, submitted: [], unhandled: true };
  }
  if (key.escape || !input) return { state, submitted: [], unhandled: true };
  if (key.meta) return { state, submitted: [], unhandled: true };
  // Ctrl+J alone (a linefeed; Enter sends a carriage return) types a newline in text.
  if (input === '\n' && options.newlines === 'text') return replay(plain(state), input, options, { pasted: true });
  return replay(plain(state), input, options, { pasted: !!state.pasting });
}

const PASTE_START = '[200~';
const PASTE_END = '[201~';

/** Enter: the text goes (and the field empties, unless it keeps its text). */
function submit(state: LineState, options: EditOptions): EditResult {
  return { state: options.keep ? state : emptyLine(), submitted: [state.value], unhandled: false };
}

/** ↑ ↓ in text of several lines: the same column of the line above or below, as far as it reaches. */
function verticalMove(state: LineState, direction: -1 | 1): LineState {
  const lineStart = state.value.lastIndexOf('\n', state.cursor - 1) + 1;
  const column = state.cursor - lineStart;
  if (direction < 0) {
    if (lineStart === 0) return { ...state, cursor: 0 };
    const previousStart = state.value.lastIndexOf('\n', lineStart - 2) + 1;
    return { ...state, cursor: Math.min(previousStart + column, lineStart - 1) };
  }
  const lineEnd = state.value.indexOf('\n', state.cursor);
  if (lineEnd === -1) return { ...state, cursor: state.value.length };
  const nextEnd = state.value.indexOf('\n', lineEnd + 1);
  return { ...state, cursor: Math.min(lineEnd + 1 + column, nextEnd === -1 ? state.value.length : nextEnd) };
}

/**
 * A chunk of typed or pasted characters, one at a time. A newline is pasted text when the chunk
 * is known to be pasted (`pasted`) or it is not the chunk's last character; the last one of a
 * chunk that may have been typed is Enter.
 */
function replay(start: LineState, chunk: string, options: EditOptions, { pasted }: { pasted: boolean }): EditResult {
  let state = start;
  const submitted: string[] = [];
  const text = chunk.replace(/\r\n/g, '\n');
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const code = char.charCodeAt(0);
    if (char === '\n' || char === '\r') {
      const enter = options.newlines === 'lines' || (!pasted && i === text.length - 1);
      if (enter) {
        submitted.push(state.value);
        if (!options.keep) state = { ...emptyLine(), ...(state.pasting ? { pasting: state.pasting } : {}) };
      } else state = insert(state, options.newlines === 'text' ? '\n' : ' ');
    } else if (char === '\x7f' || char === '\b') state = backspace(state);
    else if (char === '\t') state = insert(state, TAB);
    else if (code < 0x20) state = control(state, String.fromCharCode(code + 96)) ?? state;
    else state = insert(state, char);
  }
  return { state, submitted, unhandled: false };
}

/** Tabs as spaces to the next multiple of 8 columns (pdb's `l` output, tool output): a tab's width is the terminal's guess. */
export function expandTabs(text: string, stop = 8): string {
  if (!text.includes('\t')) return text;
  let column = 0;
  let out = '';
  for (const char of text) {
    if (char === '\t') {
      const pad = stop - (column % stop);
      out += ' '.repeat(pad);
      column += pad;
    } else if (char === '\n') {
      out += char;
      column = 0;
    } else {
      out += char;
      column++;
    }
  }
  return out;
}
