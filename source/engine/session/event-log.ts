import {
  appendFileSync,
  closeSync,
  existsSync,
  mkdirSync,
  openSync,
  readSync,
  statSync,
  truncateSync,
  writeSync,
} from 'node:fs';
import { dirname } from 'node:path';
import { TenetError } from '../errors';
import type { EngineEvent } from '../events';
import { eventShapeProblem, knownEventType } from './event-schema';
import { upgradeEvent } from './event-upgrade';
import { mapStrings } from '../util/map-strings';
import type { Redactor } from '../util/redact';

/** Bumped when the shape of logged events changes incompatibly. */
export const SCHEMA_VERSION = 1;

/** One line of events.jsonl: the event with its schema version, sequence number and time. */
export type LoggedEvent = EngineEvent & { v: number; seq: number; ts: string };

/** Strings longer than this are cut (head and tail kept) before they are stored. */
export const STORED_STRING_CAP = 100_000;

const capped = (text: string, cap: number) =>
  text.length > cap
    ? `${text.slice(0, cap / 2)}\n[... ${text.length - cap} characters cut before storing ...]\n${text.slice(-cap / 2)}`
    : text;

/**
 * A session's append-only event log. Each event is one line written with a single write(2) on a
 * file opened for appending: O(1) per event, and a kill at any moment leaves every earlier line
 * whole (at worst the last one is torn, and loading drops it).
 */
export class EventLog {
  private fd: number | undefined;

  private constructor(
    readonly file: string,
    private seq: number,
    private readonly redactor: Redactor,
    /** What opening found and repaired (a torn last line dropped). */
    readonly warnings: string[],
    private size: number,
  ) {
    mkdirSync(dirname(file), { recursive: true });
    this.fd = openSync(file, 'a');
  }

  /**
   * A new log, or (resume) the end of an existing one. A torn last line is cut off first (the
   * warning says so): appending after it would glue the next event onto it and make the whole
   * log unreadable. An unterminated last line that is a whole event gets its newline instead.
   */
  static open(file: string, redactor: Redactor): EventLog {
    if (!existsSync(file)) return new EventLog(file, 0, redactor, [], 0);
    let lastSeq = 0;
    const scanned = scanEvents(file, (event) => (lastSeq = event.seq));
    const size = statSync(file).size;
    if (scanned.end < size) truncateSync(file, scanned.end);
    else if (size && !endsWithNewline(file, size)) appendFileSync(file, '\n');
    return new EventLog(file, lastSeq, redactor, scanned.warnings, statSync(file).size);
  }

  get lastSeq(): number {
    return this.seq;
  }

  /** The log's size in bytes, as written so far. */
  get bytes(): number {
    return this.size;
  }

  append(event: EngineEvent): void {
    if (this.fd === undefined) return;
    this.seq++;
    // Redacted before it is cut: a cut through a secret would leave two halves no redaction knows.
    const stored = this.redactor.value({ v: SCHEMA_VERSION, seq: this.seq, ts: new Date().toISOString(), ...event });
    const line = `${JSON.stringify(mapStrings(stored, (text) => capped(text, STORED_STRING_CAP)))}\n`;
    this.size += writeSync(this.fd, line);
  }

  close(): void {
    if (this.fd !== undefined) closeSync(this.fd);
    this.fd = undefined;
  }
}

export interface LoadedLog {
  events: LoggedEvent[];
  /** E.g. a torn last line that was dropped. */
  warnings: string[];
  /** Where the kept lines end, in bytes: before a dropped torn line, else the log's size. */
  end: number;
}

/**
 * Checks a log's lines one at a time, given in order with their byte offsets, the last one marked:
 * a corrupt or malformed line anywhere but a torn one at the end is an error that names it.
 */
class LineChecker {
  private readonly dropped: string[] = [];
  /** Event types this tenet does not know, and how many of each: read, and said, not taken silently. */
  private readonly unknown = new Map<string, number>();
  end = 0;
  stopped = false;

  /** What the reader should hear about the log: a torn last line dropped, events of types this tenet does not know. */
  get warnings(): string[] {
    if (!this.unknown.size) return this.dropped;
    const kinds = [...this.unknown].map(([type, n]) => (n > 1 ? `${type} ×${n}` : type)).join(', ');
    const count = [...this.unknown.values()].reduce((a, b) => a + b, 0);
    return [
      ...this.dropped,
      `${this.file}: ${count} event${count === 1 ? '' : 's'} of a type this tenet does not know (${kinds}), written by a newer tenet or by hand: read, and left out of what is shown`,
    ];
  }

  constructor(
    private readonly file: string,
    private readonly keep: (event: LoggedEvent) => void,
  ) {}

  line(line: string, index: number, offset: number, bytes: number, last: boolean): void {
    if (this.stopped) return;
    this.end = offset + bytes;
    if (!line.trim()) return;
    let event: LoggedEvent;
    try {
      event = JSON.parse(line) as LoggedEvent;
    } catch {
      if (last) {
        this.dropped.push(`${this.file}: dropped the last line (${line.length} bytes), cut off by an interruption`);
        this.end = offset;
        this.stopped = true;
        return;
      }
      throw new TenetError(
        `${this.file}:${index + 1} is not a JSON event (the file was corrupted or edited by hand).`,
        `restore the file, or delete the line and the session may still load`,
      );
    }
    // Before the check: a field an older tenet named otherwise is checked under its name of today.
    if (typeof event === 'object' && event !== null && typeof event.type === 'string') upgradeEvent(event);
    checkEvent(event, `${this.file}:${index + 1}`);
    if (!knownEventType(event.type)) this.unknown.set(event.type, (this.unknown.get(event.type) ?? 0) + 1);
    this.keep(event);
  }
}

/** Parses a log held as text; a corrupt or malformed line anywhere but a torn one at the end is an error that names it. */
export function parseEvents(text: string, file: string): LoadedLog {
  const events: LoggedEvent[] = [];
  const checker = new LineChecker(file, (event) => events.push(event));
  const lines = text.split('\n');
  if (lines.at(-1) === '') lines.pop();
  let offset = 0;
  lines.forEach((line, i) => {
    const bytes = Buffer.byteLength(line) + (i < lines.length - 1 || text.endsWith('\n') ? 1 : 0);
    checker.line(line, i, offset, bytes, i === lines.length - 1);
    offset += bytes;
  });
  return { events, warnings: checker.warnings, end: checker.end };
}

const CHUNK = 1 << 20;
/** No event is near this long (tool outputs are capped far below it): a longer line is a corrupt file, not a session. */
export const MAX_LINE_BYTES = 64 << 20;

/**
 * Calls `onLine` for each line of a file, read a megabyte at a time: memory holds one line, never
 * the file (a log can be gigabytes; a string cannot). `bytes` counts the line's newline. Only a
 * regular file is read (a FIFO would block the reader, a device like /dev/zero never end), and a
 * line past `maxLine` bytes is an error, not a string that grows without bound.
 */
function eachLine(
  file: string,
  onLine: (line: string, index: number, offset: number, bytes: number, last: boolean) => void,
  maxLine = MAX_LINE_BYTES,
): void {
  const kind = statSync(file);
  if (!kind.isFile()) {
    const what = kind.isFIFO()
      ? 'a FIFO'
      : kind.isCharacterDevice() || kind.isBlockDevice()
        ? 'a device'
        : kind.isSocket()
          ? 'a socket'
          : kind.isDirectory()
            ? 'a folder'
            : 'not a file';
    throw new TenetError(
      `${file} is ${what}, not a session log (a regular file).`,
      'restore the session folder from a copy, or remove it',
    );
  }
  const fd = openSync(file, 'r');
  try {
    const chunk = Buffer.alloc(CHUNK);
    let pending: Buffer[] = [];
    let pendingBytes = 0;
    // One line is held back until the next is seen, to know which is the last.
    let held: [string, number, number] | undefined;
    let index = 0;
    let offset = 0;
    const emit = (line: string, bytes: number) => {
      if (held) onLine(held[0], index - 1, held[1], held[2], false);
      held = [line, offset, bytes];
      offset += bytes;
      index++;
    };
    for (let position = 0; ; ) {
      const read = readSync(fd, chunk, 0, CHUNK, position);
      if (!read) break;
      position += read;
      const view = chunk.subarray(0, read);
      let start = 0;
      for (let newline = view.indexOf(10, start); newline !== -1; newline = view.indexOf(10, start)) {
        const piece = view.subarray(start, newline);
        const line = pendingBytes ? Buffer.concat([...pending, piece]).toString('utf8') : piece.toString('utf8');
        emit(line, pendingBytes + piece.length + 1);
        pending = [];
        pendingBytes = 0;
        start = newline + 1;
      }
      if (start < read) {
        pending.push(Buffer.from(view.subarray(start)));
        pendingBytes += read - start;
        if (pendingBytes > maxLine) {
          throw new TenetError(
            `${file}:${index + 1} is a line of more than ${maxLine >= 1 << 20 ? `${Math.round(maxLine / (1 << 20))} MiB` : `${maxLine} bytes`} with no end: no tenet event is that long, the file is corrupted.`,
            'restore the file, or cut it before that line and the session may still load',
          );
        }
      }
    }
    if (pendingBytes) emit(Buffer.concat(pending).toString('utf8'), pendingBytes);
    if (held) onLine(held[0], index - 1, held[1], held[2], true);
  } finally {
    closeSync(fd);
  }
}

/** Reads a log file line by line, checking each; `keep` gets every event in order. */
export function scanEvents(
  file: string,
  keep: (event: LoggedEvent) => void = () => undefined,
  maxLine = MAX_LINE_BYTES,
): Omit<LoadedLog, 'events'> {
  const checker = new LineChecker(file, keep);
  eachLine(file, (line, index, offset, bytes, last) => checker.line(line, index, offset, bytes, last), maxLine);
  return { warnings: checker.warnings, end: checker.end };
}

/** Throws an error naming `where` (file:line) unless `event` is a logged event of the right shape. */
export function checkEvent(event: unknown, where: string): asserts event is LoggedEvent {
  const e = event as LoggedEvent | null;
  if (
    typeof e !== 'object' ||
    e === null ||
    Array.isArray(e) ||
    typeof e.type !== 'string' ||
    typeof e.seq !== 'number'
  ) {
    throw new TenetError(`${where} is not a tenet event (no type or seq).`, 'restore the file or remove that line');
  }
  if (e.v !== SCHEMA_VERSION)
    throw new TenetError(
      `${where} has schema version ${e.v}; this tenet reads version ${SCHEMA_VERSION}.`,
      'use the tenet version that wrote the session',
    );
  const problem = eventShapeProblem(e);
  if (problem)
    throw new TenetError(
      `${where} is not a valid ${e.type} event (${problem}); the file was edited by hand or corrupted.`,
      'restore the file, or fix or remove that line',
    );
}

/**
 * A session's events, read as a stream. Memory is bounded whatever the log's size: a log holds few
 * events besides the streamed chunks of output, and runs of those are kept to their head and tail
 * (see StreamCompactor): a session that recorded gigabytes of output still loads.
 */
export function loadEvents(file: string): LoadedLog {
  if (!existsSync(file)) throw new TenetError(`No session log at ${file}.`, 'list the sessions with `tenet sessions`');
  const events: LoggedEvent[] = [];
  const scanned = streamEvents(file, (event) => events.push(event));
  return { events, ...scanned };
}

/** A session's events handed over one at a time as the log is read, compacted as loadEvents does: nothing holds them all. */
export function streamEvents(file: string, onEvent: (event: LoggedEvent) => void): Omit<LoadedLog, 'events'> {
  if (!existsSync(file)) throw new TenetError(`No session log at ${file}.`, 'list the sessions with `tenet sessions`');
  if (statSync(file).isDirectory())
    throw new TenetError(
      `The session log ${file} is a folder, not a file.`,
      'remove that folder (the session cannot be read), or pass another session',
    );
  const compactor = new StreamCompactor(onEvent);
  const scanned = scanEvents(file, (event) => compactor.add(event));
  compactor.finish();
  return scanned;
}

function endsWithNewline(file: string, size: number): boolean {
  const fd = openSync(file, 'r');
  try {
    const last = Buffer.alloc(1);
    readSync(fd, last, 0, 1, size - 1);
    return last[0] === 10;
  } finally {
    closeSync(fd);
  }
}

/** Of a run of streamed chunks (model text, debugger output), what is loaded: its head, and its tail. */
const LOADED_HEAD_BYTES = 256 * 1024;
const LOADED_TAIL_BYTES = 64 * 1024;

const chunkText = (event: LoggedEvent) =>
  event.type === 'debugger.output' ? event.chunk : event.type === 'model.delta' ? event.text : undefined;

/**
 * Keeps a loaded session's size bounded by its meaning: a run of consecutive streamed chunks (a
 * command that printed gigabytes) keeps its first 256 KB and its last 64 KB, with one chunk in
 * between saying how much was dropped. Every other event is kept as it is.
 */
export class StreamCompactor {
  private run:
    | { type: string; bytes: number; dropped: number; first?: LoggedEvent; tail: LoggedEvent[]; tailBytes: number }
    | undefined;

  /** `emit` gets the kept events in order, as soon as they are known to be kept. */
  constructor(private readonly emit: (event: LoggedEvent) => void) {}

  add(event: LoggedEvent): void {
    const text = chunkText(event);
    if (text === undefined || this.run?.type !== event.type) this.endRun();
    if (text === undefined) {
      this.emit(event);
      return;
    }
    this.run ??= { type: event.type, bytes: 0, dropped: 0, tail: [], tailBytes: 0 };
    const run = this.run;
    const bytes = Buffer.byteLength(text);
    if (!run.first && run.bytes + bytes <= LOADED_HEAD_BYTES) {
      run.bytes += bytes;
      this.emit(event);
      return;
    }
    run.first ??= event;
    run.tail.push(event);
    run.tailBytes += bytes;
    while (run.tail.length > 1 && run.tailBytes - Buffer.byteLength(chunkText(run.tail[0]!)!) >= LOADED_TAIL_BYTES) {
      const gone = run.tail.shift()!;
      const goneBytes = Buffer.byteLength(chunkText(gone)!);
      run.tailBytes -= goneBytes;
      run.dropped += goneBytes;
    }
  }

  private endRun(): void {
    const run = this.run;
    this.run = undefined;
    if (!run?.first) return;
    if (run.dropped) {
      const note = `\n[... ${run.dropped} bytes of output dropped when loading the session ...]\n`;
      this.emit({
        ...run.first,
        ...(run.first.type === 'debugger.output' ? { chunk: note } : { text: note }),
      } as LoggedEvent);
    }
    for (const event of run.tail) this.emit(event);
  }

  /** Emits what is still held (the tail of a run that ends the log). */
  finish(): void {
    this.endRun();
  }
}
