import type { CallEntry, FunctionEntry, PackedCalls, ReceiverKind } from './types';

/**
 * Call sites packed per file: structured clone (worker → main thread) and v8's serializer (the
 * disk cache) copy a string and an Int32Array in one go, where 360,000 objects would cost a
 * third of a second each way. Each call is CALL_FIELDS integers: name (index into the strings),
 * receiver kind, receiver text (index, -1 for none), line, column, enclosing function (index into
 * the file's functions, -1 at module or class level).
 */
export const CALL_FIELDS = 6;

const KINDS: readonly ReceiverKind[] = ['none', 'self', 'cls', 'super', 'other'];

export class CallPacker {
  private readonly ids = new Map<string, number>();
  private readonly strings: string[] = [];
  private readonly data: number[] = [];

  private id(text: string): number {
    let id = this.ids.get(text);
    if (id === undefined) {
      id = this.strings.length;
      this.ids.set(text, id);
      // Newlines frame the strings: none may hold one.
      this.strings.push(text.includes('\n') || text.includes('\r') ? text.replace(/[\r\n]/g, ' ') : text);
    }
    return id;
  }

  add(
    name: string,
    receiver: ReceiverKind,
    receiverText: string,
    line: number,
    column: number,
    enclosing: number,
  ): void {
    this.data.push(
      this.id(name),
      KINDS.indexOf(receiver),
      receiverText ? this.id(receiverText) : -1,
      line,
      column,
      enclosing,
    );
  }

  pack(): PackedCalls {
    return { strings: `\n${this.strings.join('\n')}\n`, data: Int32Array.from(this.data) };
  }
}

/** Whether a call named `name` may be in the file (its name is among the file's strings). Cheap: no decoding. */
export function mayCall(calls: PackedCalls, name: string): boolean {
  return calls.strings.includes(`\n${name}\n`);
}

/** The calls of a file as objects; only those named one of `names` when given. */
export function unpackCalls(
  calls: PackedCalls,
  functions: readonly FunctionEntry[],
  names?: Iterable<string>,
): CallEntry[] {
  const strings = calls.strings.slice(1, -1).split('\n');
  let wanted: Set<number> | undefined;
  if (names) {
    const ids = new Map(strings.map((s, i) => [s, i]));
    wanted = new Set([...names].map((n) => ids.get(n)).filter((i): i is number => i !== undefined));
    if (!wanted.size) return [];
  }
  const out: CallEntry[] = [];
  const { data } = calls;
  for (let at = 0; at < data.length; at += CALL_FIELDS) {
    const name = data[at]!;
    if (wanted && !wanted.has(name)) continue;
    const text = data[at + 2]!;
    const fn = data[at + 5]!;
    out.push({
      name: strings[name]!,
      receiver: KINDS[data[at + 1]!]!,
      receiverText: text < 0 ? '' : strings[text]!,
      line: data[at + 3]!,
      column: data[at + 4]!,
      enclosing: fn < 0 ? null : (functions[fn]?.qualname ?? null),
    });
  }
  return out;
}
