import { tenetInChild } from './tenet-in-child';
import { importTui } from './import-tui';
import { realpathSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { TenetError } from '../engine/errors';
import { Catalog, sessionTree, type CatalogEntry } from '../engine/session/catalog';
import { SCHEMA_VERSION, type LoggedEvent } from '../engine/session/event-log';
import { CAST_LIMITS } from '../engine/session/asciicast';
import { sessionPage } from '../engine/session/export-html';
import { loadSession, streamSession, type ExportedSession } from '../engine/session/load';
import { markdownTranscript } from '../engine/session/transcript';
import { printable, printableJson } from '../engine/terminal-text';
import { processRedactor } from '../engine/util/redact';
import { textPrinter } from './run-printer';
import { fileToWrite } from '../engine/util/checked-paths';
import { EXIT } from '../engine/exit-codes';

// Where sessions are, and how their warnings are said: shared with resume, rerun and fork.
export { root, warn } from './sessions-root';
import { root, warn } from './sessions-root';

/** A folder as one spelling: resolved, and through its links when it exists (sessions record the resolved path). */
function samePlace(path: string): string {
  const resolved = resolve(path);
  try {
    return realpathSync(resolved);
  } catch {
    return resolved;
  }
}

// Reading sessions only: resume and rerun, which run the engine, are in ./resume so that browsing
// and replaying never load the provider SDKs.

/** `tenet sessions`: the catalog, filtered; in a terminal, a browser that replays them. */
export async function sessionsCommand(options: {
  dir?: string;
  status?: string;
  target?: string;
  repo?: string;
  json?: boolean;
  tui?: boolean;
}): Promise<number> {
  const dir = await root(options.dir);
  if (options.tui && !options.status && !options.target && !options.repo) {
    const { sessionsTui, reopenAfter } = await importTui(() => import('../ui/launch'));
    let reopen: { id: string; at: number } | undefined;
    for (;;) {
      const asked = await sessionsTui(dir, reopen);
      const { fork, resume } = asked;
      if (!fork && !resume) return EXIT.pass;
      // When the resumed session's run ends, the list comes back (with its new status), and so it
      // does after a fork made from the list (the fork is in it now); after a fork made in a
      // replay, that replay comes back where the fork left it.
      const failed = await tenetInChild(
        resume ? ['resume', resume] : ['fork', fork!.id, '--at', String(fork!.at)],
        options.dir,
      );
      if (failed !== undefined) return failed;
      reopen = reopenAfter(asked);
    }
  }
  const repo = options.repo === undefined ? undefined : samePlace(options.repo);
  const rows = new Catalog(dir)
    .list()
    .filter(
      (s) =>
        (!options.status || s.status === options.status) &&
        (!options.target || s.target.includes(options.target)) &&
        (!repo || samePlace(s.repo) === repo),
    );
  if (options.json) {
    process.stdout.write(`${JSON.stringify(rows, null, 2)}\n`);
    return EXIT.pass;
  }
  if (!rows.length) {
    process.stdout.write(`No sessions in ${dir}.\n`);
    return EXIT.pass;
  }
  // Forks under the session they came from. A damaged session's reason (file:line) takes the
  // target's place: that is what to act on.
  const tree = sessionTree(rows);
  const idOf = ({ row, depth }: { row: CatalogEntry; depth: number }) =>
    depth ? `${'  '.repeat(depth - 1)}└ ${row.id}` : row.id;
  const width = Math.max(24, ...tree.map((t) => idOf(t).length));
  const line = (t: { row: CatalogEntry; depth: number }) => {
    const s = t.row;
    const what = s.damage ?? `${s.target}${s.parent ? ` (fork of ${s.parent.id} at event ${s.parent.at})` : ''}`;
    return [
      idOf(t).padEnd(width),
      s.status.padEnd(11),
      `${s.tokens.input + s.tokens.output}`.padStart(9),
      `$${s.costUsd.toFixed(4)}`.padStart(9),
      `${s.provider}/${s.model}`.padEnd(28),
      what,
    ].join('  ');
  };
  process.stdout.write(
    `${['id'.padEnd(width), 'status'.padEnd(11), 'tokens'.padStart(9), 'cost'.padStart(9), 'model'.padEnd(28), 'target'].join('  ')}\n${tree.map(line).join('\n')}\n`,
  );
  return EXIT.pass;
}

/** Events rendered together into the transcript: what `show` holds at a time. */
const SHOW_BATCH = 500;

/** `tenet show ID`: a readable transcript, written as the log is read (a log may be larger than memory). */
export async function showCommand(options: { dir?: string; ref: string }): Promise<number> {
  let batch: LoggedEvent[] = [];
  let first = true;
  const flush = (id: string) => {
    const text = markdownTranscript(id, batch);
    batch = [];
    // Each batch's transcript starts with the session's title: the first one keeps it.
    const at = text.indexOf('\n\n');
    const body = first ? text : at === -1 ? '' : text.slice(at + 2);
    if (!body.trim()) return;
    process.stdout.write(printable(first ? body : `\n${body}`));
    first = false;
  };
  let lastId = options.ref;
  const session = streamSession(await root(options.dir), options.ref, (event, id) => {
    lastId = id;
    batch.push(event);
    if (batch.length >= SHOW_BATCH) flush(id);
  });
  if (batch.length || first) flush(session.id ?? lastId);
  warn(session.warnings);
  return EXIT.pass;
}

/** `tenet replay ID|FILE`: in a terminal, the live screens played back; else the events, as JSON lines or as the run printed them. */
export async function replayCommand(options: {
  dir?: string;
  ref: string;
  json?: boolean;
  tui?: boolean;
  speed?: number;
  at?: number;
}): Promise<number> {
  if (options.tui) {
    const session = loadSession(await root(options.dir), options.ref);
    warn(session.warnings);
    if (options.at !== undefined) eventNumbered(session.id, session.events, options.at);
    const { replayTui } = await importTui(() => import('../ui/launch'));
    let at = options.at;
    for (;;) {
      const { fork } = await replayTui(session.id, session.events, options.speed ?? 1, at);
      if (!fork) return EXIT.pass;
      // The session as it was named (an id, or a file): the fork loads it the same way. When its
      // run ends, the replay comes back where the fork left it.
      const failed = await tenetInChild(['fork', options.ref, '--at', String(fork.at)], options.dir);
      if (failed !== undefined) return failed;
      at = fork.at;
    }
  }
  // Printed as the log is read: nothing holds the whole session. With --at, from that event on.
  const print = textPrinter((text) => process.stdout.write(printable(text)));
  let last = 0;
  let printed = false;
  const session = streamSession(await root(options.dir), options.ref, (event) => {
    last = event.seq ?? last + 1;
    if (options.at !== undefined && last < options.at) return;
    printed = true;
    if (options.json) process.stdout.write(`${printableJson(event)}\n`);
    else print(event);
  });
  warn(session.warnings);
  if (options.at !== undefined && !printed) throw noSuchEvent(session.id ?? options.ref, options.at, last);
  return EXIT.pass;
}

/** A session's events are numbered 1 to N (their sequence numbers): `--at` must name one. */
function eventNumbered(id: string, events: readonly LoggedEvent[], at: number): void {
  if (!events.some((event, i) => (event.seq ?? i + 1) === at))
    throw noSuchEvent(id, at, events.length ? (events.at(-1)!.seq ?? events.length) : 0);
}

const noSuchEvent = (id: string, at: number, last: number) =>
  new TenetError(
    `Session ${id} has no event ${at}: its events are numbered 1 to ${last}.`,
    last
      ? `give --at a number from 1 to ${last} (tenet replay shows each event's number)`
      : 'this session has no events to go to',
  );

/** `tenet export ID --format json|md|html|cast`: one self-contained document (html: a page that replays it; cast: an asciinema recording of the replay). */
export async function exportCommand(options: {
  dir?: string;
  ref: string;
  format: string;
  out?: string;
  cast?: { cols: number; rows: number; idleLimit: number };
}): Promise<number> {
  // Checked before the work: a cast of a long session takes a while to draw.
  const out = options.out === undefined ? undefined : fileToWrite(options.out, '--out');
  const loaded = loadSession(await root(options.dir), options.ref);
  warn(loaded.warnings);
  // Stored sessions are redacted as they are written; one written before a shape was known, or
  // given as a file, is redacted here: no export carries a secret.
  const session = { ...loaded, events: processRedactor().value(loaded.events) };
  let text: string;
  if (options.format === 'cast') {
    // Drawn by the TUI's own screens, in colour (unless NO_COLOR): a cast is for a terminal, wherever it is written.
    const { sessionCast } = await importTui(() => import('../ui/cast-frames'), { colour: true });
    text = await sessionCast(
      session.id,
      session.events,
      options.cast ?? { cols: CAST_LIMITS.cols, rows: CAST_LIMITS.rows, idleLimit: CAST_LIMITS.idleLimit },
    );
  } else if (options.format === 'json') {
    const doc: ExportedSession = {
      format: 'tenet-session',
      version: SCHEMA_VERSION,
      id: session.id,
      events: session.events,
    };
    text = `${JSON.stringify(doc)}\n`;
  } else if (options.format === 'md') {
    text = printable(markdownTranscript(session.id, session.events));
  } else if (options.format === 'html') {
    text = sessionPage(session.id, session.events);
  } else {
    throw new TenetError(`Unknown export format ${options.format}.`, 'use --format json, md, html or cast');
  }
  if (out) {
    writeFileSync(out, text);
    process.stderr.write(`wrote ${options.out}\n`);
  } else {
    process.stdout.write(text);
  }
  return EXIT.pass;
}
