import { existsSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { installRoot } from '../assets';
import { TenetError } from '../errors';
import { Catalog } from './catalog';
import { checkEvent, loadEvents, parseEvents, SCHEMA_VERSION, type LoggedEvent } from './event-log';
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

function fromFile(file: string): LoadedSession {
  const text = readFileSync(file, 'utf8');
  if (text.trimStart().startsWith('{"format"') || file.endsWith('.json')) {
    let doc: ExportedSession;
    try {
      doc = JSON.parse(text) as ExportedSession;
    } catch (error) {
      throw new TenetError(`${file} is not a tenet session export: ${(error as Error).message}`);
    }
    if (doc.format !== 'tenet-session' || !Array.isArray(doc.events)) throw new TenetError(`${file} is not a tenet session export (no "format": "tenet-session").`);
    if (doc.version !== SCHEMA_VERSION) throw new TenetError(`${file} is a version ${doc.version} export; this tenet reads version ${SCHEMA_VERSION}.`);
    doc.events.forEach((event, i) => checkEvent(event, `${file}: event ${i + 1}`));
    return { id: doc.id, events: doc.events, warnings: [], source: file };
  }
  const { events, warnings } = parseEvents(text, file);
  const start = events.find((e) => e.type === 'session.start');
  return { id: start && start.type === 'session.start' ? start.sessionId : file, events, warnings, source: file };
}

/**
 * A session by id, unique id prefix, `last`, `demo` (the recorded demo session shipped with
 * tenet), or a path to an events.jsonl or an exported JSON file.
 */
export function loadSession(root: string, ref: string): LoadedSession {
  if (ref === 'demo') {
    const shipped = join(installRoot(), 'sessions', 'demo', 'events.jsonl');
    if (!existsSync(shipped)) throw new TenetError('The demo session is missing from this installation.', 'run `npm run demo-session` to record it');
    const { events, warnings } = loadEvents(shipped);
    return { id: 'demo', events, warnings, source: shipped };
  }
  if (existsSync(ref) && statSync(ref).isFile()) return fromFile(ref);
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
        matches.length ? `Session ${ref} is ambiguous: ${matches.map((m) => m.id).join(', ')}.` : `No session ${ref} in ${root}.`,
        'list them with `tenet sessions` (and --sessions-dir if they are elsewhere)',
      );
    }
    id = matches[0]!.id;
  }
  const file = eventsFile(root, id);
  const { events, warnings } = loadEvents(file);
  return { id, events, warnings, source: file };
}
