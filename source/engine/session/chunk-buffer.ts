import type { EventOf } from '../events';
import type { Redactor } from '../util/redact';

/** The streamed events: many small pieces of one text, which the next event of another type ends. */
export type ChunkEvent = EventOf<'model.delta' | 'debugger.output'>;

/** Past this much text without a newline, a stream is stored anyway (at a point that splits no secret). */
const MAX_PENDING = 64 * 1024;

const textOf = (event: ChunkEvent) => (event.type === 'model.delta' ? event.text : event.chunk);
const make = (type: ChunkEvent['type'], text: string): ChunkEvent =>
  type === 'model.delta' ? { type, text } : { type, chunk: text };

/**
 * Joins streamed chunks into whole lines before they are stored. Redaction works on one event at
 * a time, so a secret printed in two writes ("planted-s", "ecret-98765") would reach disk in
 * pieces that no redaction recognizes; joined, it is replaced whole.
 */
export class ChunkBuffer {
  private readonly pending = new Map<ChunkEvent['type'], string>();

  constructor(private readonly redactor: Pick<Redactor, 'safeCut'>) {}

  /** Takes a chunk; returns what can be stored now: its stream's complete lines, if any. */
  push(event: ChunkEvent): ChunkEvent | undefined {
    const text = (this.pending.get(event.type) ?? '') + textOf(event);
    const lineEnd = text.lastIndexOf('\n') + 1;
    const cut = this.redactor.safeCut(text, text.length > MAX_PENDING ? text.length : lineEnd);
    this.pending.set(event.type, text.slice(cut));
    return cut > 0 ? make(event.type, text.slice(0, cut)) : undefined;
  }

  /** Everything still held, to store before an event of another type (or on close). */
  drain(): ChunkEvent[] {
    const out = [...this.pending].filter(([, text]) => text).map(([type, text]) => make(type, text));
    this.pending.clear();
    return out;
  }
}
