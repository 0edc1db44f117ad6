/**
 * One line of text being typed, as a pure function of the keys: what the TUI's text fields (the
 * start screen's search, a denied command's reason, the pdb line of a takeover) share. Ink hands
 * over a whole chunk when keys come faster than it reads them (key repeat, a paste): "ab\x7f\x7f"
 * or "p x\rp y\r" arrive as one input, so the chunk is replayed here character by character —
 * backspaces erase, newlines end lines, tabs become spaces, control keys edit — instead of going
 * into the line as invisible characters.
 */
export interface LineState {
  value: string;
  /** Where the next character goes: 0 … value.length. */
  cursor: number;
  /** While ↑ ↓ walk the history: the entry shown (0 the oldest), and the line that was being typed. */
  recall?: { at: number; draft: string };
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
   * newline inside a chunk becomes a space and only one at its end submits (a search, a reason).
   */
  newlines: 'lines' | 'single';
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
  return { value: state.value.slice(0, state.cursor) + text + state.value.slice(state.cursor), cursor: state.cursor + text.length };
}

function backspace(state: LineState): LineState {
  if (!state.cursor) return state;
  return { value: state.value.slice(0, state.cursor - 1) + state.value.slice(state.cursor), cursor: state.cursor - 1 };
}

/** Ctrl+W: the word before the cursor, and the spaces after it. */
function deleteWord(state: LineState): LineState {
  const before = state.value.slice(0, state.cursor);
  const kept = before.replace(/\S*\s*$/, '');
  return { value: kept + state.value.slice(state.cursor), cursor: kept.length };
}

/** The editing a control character asks for (Ctrl+A … as Ink or the raw chunk gives it), or undefined. */
function control(state: LineState, letter: string): LineState | undefined {
  switch (letter) {
    case 'a':
      return { ...state, cursor: 0 };
    case 'e':
      return { ...state, cursor: state.value.length };
    case 'u':
      return { value: state.value.slice(state.cursor), cursor: 0 };
    case 'k':
      return { value: state.value.slice(0, state.cursor), cursor: state.cursor };
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
  const done = (next: LineState, submitted: string[] = []): EditResult => ({ state: next, submitted, unhandled: false });
  const plain = ({ value, cursor }: LineState): LineState => ({ value, cursor });
  if (key.return) return done(options.keep ? plain(state) : emptyLine(), [state.value]);
  if (key.leftArrow) return done({ ...plain(state), cursor: Math.max(0, state.cursor - 1) });
  if (key.rightArrow) return done({ ...plain(state), cursor: Math.min(state.value.length, state.cursor + 1) });
  if (key.home) return done({ ...plain(state), cursor: 0 });
  if (key.end) return done({ ...plain(state), cursor: state.value.length });
  if (key.upArrow || key.downArrow) {
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
  // Bracketed-paste markers, should a terminal send them: not text.
  if (key.meta && /^\[20[01]~$/.test(input)) return done(state);
  if (key.meta) return { state, submitted: [], unhandled: true };
  return replay(plain(state), input, options);
}

/** A chunk of typed or pasted characters, one at a time. */
function replay(start: LineState, chunk: string, options: EditOptions): EditResult {
  let state = start;
  const submitted: string[] = [];
  const text = chunk.replace(/\r\n/g, '\n');
  for (let i = 0; i < text.length; i++) {
    const char = text[i]!;
    const code = char.charCodeAt(0);
    if (char === '\n' || char === '\r') {
      if (options.newlines === 'lines' || i === text.length - 1) {
        submitted.push(state.value);
        if (!options.keep) state = emptyLine();
      } else state = insert(state, ' ');
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
