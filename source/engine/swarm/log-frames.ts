/**
 * How a task's container talks to the coordinator: JSON lines on its stdout, read back through the
 * service's logs (no shared disk). Each payload (an engine event, then the task's result) goes out
 * as one or more frames `{"tenet":ATTEMPT,"n":SEQ,"i":PART,"of":PARTS,"d":TEXT}`:
 * - split into parts well under 16 KB, the size past which Docker's log drivers cut a line in two;
 * - numbered, so logs read again from the start (after the engine restarted the task) add nothing twice;
 * - tagged with the attempt (a random id each container draws), so the coordinator can drop what a
 *   killed attempt had sent and keep only the attempt that ends the task.
 */
export interface Frame {
  tenet: string;
  n: number;
  i: number;
  of: number;
  d: string;
}

/** Characters of payload per frame: a line stays below Docker's 16 KiB even when every character is escaped (at most six: \udXXX). */
const FRAME_CHARS = 2500;

export function encodeFrames(attempt: string, seq: number, payload: unknown): string[] {
  const text = JSON.stringify(payload);
  const parts = Math.max(1, Math.ceil(text.length / FRAME_CHARS));
  return Array.from(
    { length: parts },
    (_, i) =>
      `${JSON.stringify({ tenet: attempt, n: seq, i, of: parts, d: text.slice(i * FRAME_CHARS, (i + 1) * FRAME_CHARS) } satisfies Frame)}\n`,
  );
}

function parseFrame(line: string): Frame | undefined {
  if (!line.startsWith('{"tenet":')) return undefined;
  try {
    const frame = JSON.parse(line) as Frame;
    return typeof frame.tenet === 'string' &&
      Number.isInteger(frame.n) &&
      Number.isInteger(frame.i) &&
      Number.isInteger(frame.of) &&
      typeof frame.d === 'string'
      ? frame
      : undefined;
  } catch {
    return undefined; // a line torn by a kill
  }
}

/**
 * Reads frames back into payloads, in order, once each. A frame from an attempt other than the
 * current one starts a new attempt (`onAttempt`), and the attempts before it are over: their frames,
 * seen again when logs are read from the start, are ignored. Lines that are not frames (a
 * warning a library printed) are passed to `onOther`.
 */
export class FrameReader {
  private current: string | undefined;
  private readonly over = new Set<string>();
  private lastSeq = -1;
  private parts: string[] = [];
  private partsSeq = -1;

  constructor(
    private readonly onPayload: (payload: unknown, attempt: string) => void,
    private readonly onAttempt: (attempt: string) => void = () => undefined,
    private readonly onOther: (line: string) => void = () => undefined,
  ) {}

  /** The attempt whose payloads are being read. */
  get attempt(): string | undefined {
    return this.current;
  }

  line(raw: string): void {
    const frame = parseFrame(raw.trim());
    if (!frame) {
      if (raw.trim()) this.onOther(raw);
      return;
    }
    if (this.over.has(frame.tenet)) return;
    if (frame.tenet !== this.current) {
      if (this.current !== undefined) this.over.add(this.current);
      this.current = frame.tenet;
      this.lastSeq = -1;
      this.parts = [];
      this.partsSeq = -1;
      this.onAttempt(frame.tenet);
    }
    if (frame.n <= this.lastSeq) return;
    if (frame.n !== this.partsSeq) {
      this.parts = [];
      this.partsSeq = frame.n;
    }
    // A part seen twice (logs read again mid-payload) or out of order starts nothing new.
    if (frame.i !== this.parts.length) return;
    this.parts.push(frame.d);
    if (this.parts.length < frame.of) return;
    const text = this.parts.join('');
    this.lastSeq = frame.n;
    this.parts = [];
    this.partsSeq = -1;
    this.onPayload(JSON.parse(text), frame.tenet);
  }
}

/** Splits a byte stream into lines for `line`, keeping a partial last line until its end comes. */
export function lineSplitter(onLine: (line: string) => void): { push(chunk: Buffer | string): void; end(): void } {
  let rest = '';
  return {
    push(chunk) {
      rest += chunk.toString();
      const lines = rest.split('\n');
      rest = lines.pop()!;
      for (const line of lines) onLine(line);
    },
    end() {
      if (rest) onLine(rest);
      rest = '';
    },
  };
}
