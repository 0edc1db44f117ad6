import { Text } from 'ink';
import { useEffect, useRef, useState } from 'react';
import { editLine, emptyLine, type EditKey, type EditOptions, type LineState } from './line-editor';
import { columns, headColumns, tailColumns } from './lines';
import { useKeys } from './use-keys';

export interface LineEditorOptions extends EditOptions {
  /** Whether the keys go to this field now. */
  active: boolean;
  /** The keys typed after the key that opened the field and before it listened (see FieldOpening). */
  opening?: FieldOpening;
  /** Each line ended by Enter, or by a newline of a paste (in `lines` mode, one call per line). */
  onSubmit(line: string): void;
  /**
   * Sees each key first, with whether the line is empty; returns true when it took it (Tab that
   * switches a mode, Esc, ↑ ↓ in a list): the field then leaves the key alone.
   */
  intercept?(input: string, key: EditKey, empty: boolean): boolean;
  /** Every change of the text. */
  onChange?(value: string): void;
  initial?: string;
}

/**
 * Keys typed right after the key that opens a field are the field's. Ink starts a field listening
 * only in an effect after the frame that draws it (a box: a frame later still), so until then they
 * come to the screen's handler, which would lose them or take them for its own keys (`y` in a
 * reason runs the command, `s` in a message steps). The screen calls `open` with the opening key
 * and asks `took` first in its handler; the field, once it listens, types what was kept.
 */
export class FieldOpening {
  private kept: [string, EditKey][] | undefined;

  open(): void {
    this.kept = [];
  }

  /** For the handler of the keys that open the field, first thing: true when the key is the field's. */
  took(input: string, key: EditKey): boolean {
    if (!this.kept) return false;
    this.kept.push([input, key]);
    return true;
  }

  /** Whether keys are kept for the field now: another handler that sees the same keys leaves them alone. */
  get keeping(): boolean {
    return this.kept !== undefined;
  }

  /** The field listens: the keys kept for it, in order. */
  listening(type: (input: string, key: EditKey) => void): void {
    const kept = this.kept ?? [];
    this.kept = undefined;
    for (const [input, key] of kept) type(input, key);
  }
}

/**
 * The state and keys of one text field (see line-editor.ts for what the keys do). @inkjs/ui's
 * TextInput inserts a chunk of several keys as it comes (key repeat and pastes go in as invisible
 * characters) and has no Ctrl+A/E/U/W or history, so tenet's three fields share this instead.
 */
export function useLineEditor({
  active,
  opening,
  onSubmit,
  intercept,
  onChange,
  initial = '',
  ...options
}: LineEditorOptions): {
  state: LineState;
  clear(): void;
  type(text: string): void;
} {
  const [state, setState] = useState<LineState>(() => emptyLine(initial));
  // Several chunks can arrive before React renders again: each must edit the latest line.
  const latest = useRef(state);
  latest.current = state;
  const apply = (next: LineState) => {
    const changed = next.value !== latest.current.value;
    latest.current = next;
    setState(next);
    if (changed) onChange?.(next.value);
  };
  const handle = (input: string, key: EditKey) => {
    if (intercept?.(input, key, latest.current.value === '')) return;
    const result = editLine(latest.current, input, key, options);
    if (result.unhandled) return;
    apply(result.state);
    for (const line of result.submitted) onSubmit(line);
  };
  useKeys(handle, { isActive: active });
  // After useKeys' own effect: the field listens from here, and the keys kept for it come first.
  useEffect(() => {
    if (active) opening?.listening(handle);
  }, [active, opening]);
  // Text that came in the chunk of the key that opened the field (see leadKey): typed in it.
  const type = (text: string) => {
    const result = editLine(latest.current, text, {}, options);
    if (!result.unhandled) apply(result.state);
  };
  return { state, clear: () => apply(emptyLine()), type };
}

/**
 * The field's text with its cursor (an inverse cell), in at most `width` columns: a line longer
 * than that shows the part around the cursor, `…` where it is cut.
 */
export function FieldText({
  state,
  width = Infinity,
  cursor = true,
}: {
  state: LineState;
  width?: number;
  cursor?: boolean;
}) {
  const { value } = state;
  const room = Math.max(4, width - 1);
  // In columns, not characters: a CJK character takes two, a combining mark none.
  const fits = columns(value) + 1 <= room;
  const whole = value.slice(0, state.cursor);
  const at = Array.from(value.slice(state.cursor))[0] ?? ' ';
  const rest = value.slice(state.cursor + at.length);
  // The cursor a little right of the middle of what shows: the text typed before it matters most.
  const left = fits ? whole : tailColumns(whole, Math.floor(room * 0.7));
  const right = fits ? rest : headColumns(rest, Math.max(0, room - 1 - columns(left) - columns(at)));
  const before = `${left.length < whole.length ? '…' : ''}${left}`;
  const after = `${right}${right.length < rest.length ? '…' : ''}`;
  if (!cursor) return <Text>{fits ? value : headColumns(value, room)}</Text>;
  return (
    <Text>
      {before}
      <Text inverse>{at}</Text>
      {after}
    </Text>
  );
}
