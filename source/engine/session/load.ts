import { closeSync, existsSync, openSync, readFileSync, readSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { installRoot } from '../assets';
import { TenetError } from '../errors';
import { Catalog } from './catalog';
import { checkEvent, loadEvents, SCHEMA_VERSION, streamEvents, type LoggedEvent } from './event-log';
import { eventsFile } from './paths';

export interface LoadedSession {
  id: string;
  events: LoggedEvent[];
  warnings: string[];
  /** Where it came from: a session folder, an events.jsonl or an exported JSON file. */
  source: string;
}

/** The document `tenet export --format json` writes: loadable by replay and rerun anywhere. */
export interface ExportedSession {
  format: 'tenet-session';
  version: number;
  id: string;
  events: LoggedEvent[];
}

/** Whether a file is an export (one JSON document) rather than a log: its name, or its first bytes. */
function isExport(file: string): boolean {
  if (file.endsWith('.json')) return true;
  const fd = openSync(file, 'r');
  try {
    const head = Buffer.alloc(64);
    const read = readSync(fd, head, 0, head.length, 0);
    return head.subarray(0, read).toString('utf8').trimStart().startsWith('{"format"');
  } finally {
    closeSync(fd);
  }
}

function fromFile(file: string): LoadedSession {
  if (isExport(file)) {
    let doc: ExportedSession;
    try {
      doc = JSON.parse(readFileSync(file, 'utf8')) as ExportedSession;
    } catch (error) {
      throw new TenetError(`${file} is not a tenet session export: ${(error as Error).message}`);
    }
    if (doc.format !== 'tenet-session' || !Array.isArray(doc.events))
      throw new TenetError(`${file} is not a tenet session export (no "format": "tenet-session").`);
    if (doc.version !== SCHEMA_VERSION)
      throw new TenetError(`${file} is a version ${doc.version} export; this tenet reads version ${SCHEMA_VERSION}.`);
    doc.events.forEach((event, i) => {
      checkEvent(event, `${file}: event ${i + 1}`);
    });
    return { id: doc.id, events: doc.events, warnings: [], source: file };
  }
  // A log is read as a stream (see loadEvents): it may be far larger than a string can be.
  const { events, warnings } = loadEvents(file);
  const start = events.find((e) => e.type === 'session.start');
  return { id: start && start.type === 'session.start' ? start.sessionId : file, events, warnings, source: file };
}

/** Where a session's events are: a log (`id` known, or read from its session.start), or an export. */
interface SessionFile {
  id?: string;
  file: string;
  isExport: boolean;
}

/**
 * A session by id, unique id prefix, `last`, `demo` (the recorded demo session shipped with
 * tenet), or a path to an events.jsonl or an exported JSON file.
 */
function findSession(root: string, ref: string): SessionFile {
  if (ref === 'demo') {
    const shipped = join(installRoot(), 'sessions', 'demo', 'events.jsonl');
    if (!existsSync(shipped))
      throw new TenetError(
        'The demo session is missing from this installation.',
        'run `npm run demo-session` to record it',
      );
    return { id: 'demo', file: shipped, isExport: false };
  }
  if (existsSync(ref) && statSync(ref).isFile()) return { file: ref, isExport: isExport(ref) };
  const sessions = new Catalog(root).list();
  let id = ref;
  if (ref === 'last') {
    const last = sessions.at(-1);
    if (!last) throw new TenetError(`There are no sessions in ${root}.`, 'run `tenet run` or `tenet demo` first');
    id = last.id;
  } else if (!existsSync(eventsFile(root, ref))) {
    const matches = sessions.filter((s) => s.id.startsWith(ref));
    if (matches.length !== 1) {
      throw new TenetError(
        matches.length
          ? `Session ${ref} is ambiguous: ${matches.map((m) => m.id).join(', ')}.`
          : `No session ${ref} in ${root}.`,
        'list them with `tenet sessions` (and --sessions-dir if they are elsewhere)',
      );
    }
    id = matches[0]!.id;
  }
  return { id, file: eventsFile(root, id), isExport: false };
}

/** A whole session in memory (replay's screens, resume and rerun need every event at hand). */
export function loadSession(root: string, ref: string): LoadedSession {
  const found = findSession(root, ref);
  if (found.isExport || !found.id) return fromFile(found.file);
  const { events, warnings } = loadEvents(found.file);
  return { id: found.id, events, warnings, source: found.file };
}

/**
 * A session's events one at a time, in order, as its log is read: for what reads them once
 * (show, replay's printed output, export), so memory holds a few events, whatever the log's size.
 * `id` is the session's as soon as it is known (its first event, for a log given by path).
 */
export function streamSession(
  root: string,
  ref: string,
  onEvent: (event: LoggedEvent, id: string) => void,
): Omit<LoadedSession, 'events'> {
  const found = findSession(root, ref);
  if (found.isExport) {
    const session = fromFile(found.file);
    for (const event of session.events) onEvent(event, session.id);
    return { id: session.id, warnings: session.warnings, source: session.source };
  }
  let id = found.id;
  const { warnings } = streamEvents(found.file, (event) => {
    if (!id) id = event.type === 'session.start' ? event.sessionId : found.file;
    onEvent(event, id);
  });
  return { id: id ?? found.file, warnings, source: found.file };
}
