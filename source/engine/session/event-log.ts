import { appendFileSync, closeSync, existsSync, mkdirSync, openSync, readFileSync, statSync, truncateSync, writeSync } from 'node:fs';
import { dirname } from 'node:path';
import { TenetError } from '../errors';
import type { EngineEvent } from '../events';
import { eventShapeProblem } from './event-schema';
import type { Redactor } from './redact';

/** Bumped when the shape of logged events changes incompatibly. */
export const SCHEMA_VERSION = 1;

/** One line of events.jsonl: the event with its schema version, sequence number and time. */
export type LoggedEvent = EngineEvent & { v: number; seq: number; ts: string };

/** Strings longer than this are cut (head and tail kept) before they are stored. */
export const STORED_STRING_CAP = 100_000;

function capStrings(value: unknown, cap: number): unknown {
  if (typeof value === 'string') {
    return value.length > cap ? `${value.slice(0, cap / 2)}\n[... ${value.length - cap} characters cut before storing ...]\n${value.slice(-cap / 2)}` : value;
  }
  if (Array.isArray(value)) return value.map((v) => capStrings(v, cap));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, capStrings(v, cap)]));
  return value;
}

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
    if (!existsSync(file)) return new EventLog(file, 0, redactor, []);
    const text = readFileSync(file, 'utf8');
    const loaded = parseEvents(text, file);
    if (loaded.end < text.length) truncateSync(file, Buffer.byteLength(text.slice(0, loaded.end)));
    else if (text && !text.endsWith('\n')) appendFileSync(file, '\n');
    return new EventLog(file, loaded.events.at(-1)?.seq ?? 0, redactor, loaded.warnings);
  }

  get lastSeq(): number {
    return this.seq;
  }

  append(event: EngineEvent): void {
    if (this.fd === undefined) return;
    this.seq++;
    const line = this.redactor.json(capStrings({ v: SCHEMA_VERSION, seq: this.seq, ts: new Date().toISOString(), ...event }, STORED_STRING_CAP));
    writeSync(this.fd, `${line}\n`);
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
  /** Where the kept lines end in the text: before a dropped torn line, else the text's length. */
  end: number;
}

/** Parses a log; a corrupt or malformed line anywhere but a torn one at the end is an error that names it. */
export function parseEvents(text: string, file: string): LoadedLog {
  const warnings: string[] = [];
  const lines = text.split('\n');
  const torn = lines.at(-1) !== '';
  if (!torn) lines.pop();
  const events: LoggedEvent[] = [];
  let end = text.length;
  for (let i = 0, offset = 0; i < lines.length; offset += lines[i]!.length + 1, i++) {
    const line = lines[i]!;
    const last = i === lines.length - 1;
    if (!line.trim()) continue;
    let event: LoggedEvent;
    try {
      event = JSON.parse(line) as LoggedEvent;
    } catch {
      if (last) {
        warnings.push(`${file}: dropped the last line (${line.length} bytes), cut off by an interruption`);
        end = offset;
        break;
      }
      throw new TenetError(`${file}:${i + 1} is not a JSON event (the file was corrupted or edited by hand).`, `restore the file, or delete the line and the session may still load`);
    }
    checkEvent(event, `${file}:${i + 1}`);
    events.push(event);
  }
  return { events, warnings, end };
}

/** Throws an error naming `where` (file:line) unless `event` is a logged event of the right shape. */
export function checkEvent(event: unknown, where: string): asserts event is LoggedEvent {
  const e = event as LoggedEvent | null;
  if (typeof e !== 'object' || e === null || Array.isArray(e) || typeof e.type !== 'string' || typeof e.seq !== 'number') {
    throw new TenetError(`${where} is not a tenet event (no type or seq).`, 'restore the file or remove that line');
  }
  if (e.v !== SCHEMA_VERSION) throw new TenetError(`${where} has schema version ${e.v}; this tenet reads version ${SCHEMA_VERSION}.`, 'use the tenet version that wrote the session');
  const problem = eventShapeProblem(e);
  if (problem) throw new TenetError(`${where} is not a valid ${e.type} event (${problem}); the file was edited by hand or corrupted.`, 'restore the file, or fix or remove that line');
}

export function loadEvents(file: string): LoadedLog {
  if (!existsSync(file)) throw new TenetError(`No session log at ${file}.`, 'list the sessions with `tenet sessions`');
  if (statSync(file).isDirectory()) throw new TenetError(`The session log ${file} is a folder, not a file.`, 'remove that folder (the session cannot be read), or pass another session');
  return parseEvents(readFileSync(file, 'utf8'), file);
}
