import { statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EngineEvent } from '../events';
import { onShutdown } from '../lifecycle';
import { Catalog, summarize } from './catalog';
import { ChunkBuffer } from './chunk-buffer';
import { EventLog, loadEvents } from './event-log';
import { lockSession } from './lock';
import { eventsFile } from './paths';
import { secretRedactor } from './redact';

/** Events after which the catalog row is brought up to date. */
const MILESTONES = new Set<EngineEvent['type']>(['session.start', 'thm.report', 'thm.approval', 'tests.run', 'result', 'error', 'session.interrupted', 'session.resumed']);

/**
 * Saves a session as it happens: every event appended to its log (redacted, capped), the catalog
 * updated at milestones. Streamed chunks (model text, debugger output) are stored whole lines at a
 * time, so that redaction sees each secret whole. On Ctrl-C or SIGTERM it records the
 * interruption before tenet exits.
 */
export class SessionRecorder {
  private readonly events: (EngineEvent & { ts?: string })[];
  private readonly log: EventLog;
  private readonly chunks: ChunkBuffer;
  private readonly catalog: Catalog;
  private readonly unregister: () => void;
  private readonly unlock: () => void;
  private closed = false;

  private constructor(
    readonly root: string,
    readonly id: string,
    env: NodeJS.ProcessEnv,
    secrets: string[],
    existing: (EngineEvent & { ts?: string })[],
    unlock: () => void,
  ) {
    this.events = existing;
    this.unlock = unlock;
    const redactor = secretRedactor(env, secrets);
    this.log = EventLog.open(eventsFile(root, id), redactor);
    this.chunks = new ChunkBuffer(redactor);
    this.catalog = new Catalog(root);
    this.unregister = onShutdown(() => {
      if (!this.closed) this.record({ type: 'session.interrupted', reason: 'tenet was stopped (signal or exit) before the session ended' });
      this.close();
    });
  }

  /** A new session, or the continuation of one (resume); throws if another live tenet writes it. */
  static open(root: string, id: string, env: NodeJS.ProcessEnv = process.env, secrets: string[] = []): SessionRecorder {
    const unlock = lockSession(dirname(eventsFile(root, id)), id);
    let existing: (EngineEvent & { ts?: string })[] = [];
    try {
      existing = loadEvents(eventsFile(root, id)).events;
    } catch {
      existing = [];
    }
    return new SessionRecorder(root, id, env, secrets, existing, unlock);
  }

  record(event: EngineEvent): void {
    if (this.closed) return;
    // Streaming tool arguments are for watching: the tool.call event records them whole.
    if (event.type === 'model.tool-delta') return;
    if (event.type === 'model.delta' || event.type === 'debugger.output') {
      const whole = this.chunks.push(event);
      if (whole) this.log.append(whole);
      // Deltas are only for watching; keeping them would grow memory on long sessions.
      return;
    }
    this.flushChunks();
    this.log.append(event);
    this.events.push({ ...event, ts: new Date().toISOString() });
    if (MILESTONES.has(event.type)) this.updateCatalog();
  }

  private flushChunks(): void {
    for (const rest of this.chunks.drain()) this.log.append(rest);
  }

  private updateCatalog(): void {
    const bytes = statSync(this.log.file).size;
    const done = this.events.some((e) => e.type === 'result' || e.type === 'error' || e.type === 'session.interrupted');
    this.catalog.upsert(summarize(this.id, this.events, bytes, done ? undefined : process.pid, this.log.lastSeq));
  }

  close(): void {
    if (this.closed) return;
    this.flushChunks();
    this.closed = true;
    this.log.close();
    this.unlock();
    this.unregister();
  }
}
