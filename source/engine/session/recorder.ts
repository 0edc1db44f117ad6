import { rmSync, statSync } from 'node:fs';
import { dirname } from 'node:path';
import type { EngineEvent, RunResult } from '../events';
import { onShutdown } from '../lifecycle';
import { Catalog, summarize } from './catalog';
import { ChunkBuffer } from './chunk-buffer';
import { EventLog, loadEvents } from './event-log';
import { lockSession } from './lock';
import { eventsFile } from './paths';
import { secretRedactor } from '../util/redact';

/** A session's log may grow to this size by default (`maxSessionMb`); then the run is stopped. */
export const DEFAULT_MAX_SESSION_BYTES = 100 * 1024 * 1024;

/** Once a log is full, only these are still recorded: what ends the session and says how. */
const RECORDED_WHEN_FULL = new Set<EngineEvent['type']>([
  'agent.phase',
  'tests.run',
  'result',
  'error',
  'warning',
  'patch.decision',
  'session.interrupted',
]);

/** Events after which the catalog row is brought up to date. */
const MILESTONES = new Set<EngineEvent['type']>([
  'session.start',
  'thm.report',
  'thm.approval',
  'tests.run',
  'result',
  'error',
  'session.interrupted',
  'session.resumed',
]);

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
  /** This run's result, once recorded: the session is over (see `over`). */
  private ended: RunResult | undefined;
  /** Why the log takes no more than the events that end the session, once it reached its size limit. */
  private fullReason: string | undefined;
  private readonly onFull = new Set<(reason: string) => void>();

  private constructor(
    readonly root: string,
    readonly id: string,
    env: NodeJS.ProcessEnv,
    secrets: string[],
    existing: (EngineEvent & { ts?: string })[],
    unlock: () => void,
    private readonly maxBytes: number,
  ) {
    this.events = existing;
    this.unlock = unlock;
    const redactor = secretRedactor(env, secrets);
    this.log = EventLog.open(eventsFile(root, id), redactor);
    this.chunks = new ChunkBuffer(redactor);
    this.catalog = new Catalog(root);
    this.unregister = onShutdown(() => {
      // A run whose result is recorded is over: stopping tenet after it (the result screen) interrupts nothing.
      if (!this.closed && !this.ended)
        this.record({
          type: 'session.interrupted',
          reason: 'tenet was stopped (signal or exit) before the session ended',
        });
      this.close();
    });
  }

  /** This run's result, once recorded: what stops tenet afterwards (Ctrl+C on the result screen) ends nothing. */
  get over(): RunResult | undefined {
    return this.ended;
  }

  /** A new session, or the continuation of one (resume); throws if another live tenet writes it; `maxBytes` bounds the log (see `full`). */
  static open(
    root: string,
    id: string,
    env: NodeJS.ProcessEnv = process.env,
    secrets: string[] = [],
    options: { maxBytes?: number } = {},
  ): SessionRecorder {
    const unlock = lockSession(dirname(eventsFile(root, id)), id);
    let existing: (EngineEvent & { ts?: string })[] = [];
    try {
      existing = loadEvents(eventsFile(root, id)).events;
    } catch {
      existing = [];
    }
    return new SessionRecorder(root, id, env, secrets, existing, unlock, options.maxBytes ?? DEFAULT_MAX_SESSION_BYTES);
  }

  /** Set once the log reached its size limit: why (the run is being stopped). */
  get full(): string | undefined {
    return this.fullReason;
  }

  /** Called once, when the log reaches its size limit: the run must stop. */
  whenFull(listener: (reason: string) => void): () => void {
    this.onFull.add(listener);
    return () => this.onFull.delete(listener);
  }

  record(event: EngineEvent): void {
    if (this.closed) return;
    // Streaming tool arguments are for watching: the tool.call event records them whole.
    if (event.type === 'model.tool-delta') return;
    if (this.fullReason && !RECORDED_WHEN_FULL.has(event.type)) return;
    if (event.type === 'model.delta' || event.type === 'debugger.output') {
      const whole = this.chunks.push(event);
      if (whole) this.append(whole);
      // Deltas are only for watching; keeping them would grow memory on long sessions.
      return;
    }
    this.flushChunks();
    this.append(event);
    if (event.type === 'result') this.ended = event;
    this.events.push({ ...event, ts: new Date().toISOString() });
    if (MILESTONES.has(event.type)) this.updateCatalog();
  }

  /**
   * Appends, and notices when the log outgrows its limit: a runaway (output no cap caught, a model
   * that never stops) must not fill the disk. The log then says so, and takes only the events
   * that end the session.
   */
  private append(event: EngineEvent): void {
    this.log.append(event);
    if (this.fullReason || this.log.bytes <= this.maxBytes) return;
    this.fullReason = `The session log reached its size limit (${Number((this.maxBytes / 1024 / 1024).toFixed(1))} MB, maxSessionMb): the run was stopped.`;
    this.log.append({ type: 'warning', message: this.fullReason });
    for (const listener of this.onFull) listener(this.fullReason);
  }

  private flushChunks(): void {
    for (const rest of this.chunks.drain()) this.append(rest);
  }

  private updateCatalog(): void {
    const bytes = statSync(this.log.file).size;
    const done = this.events.some((e) => e.type === 'result' || e.type === 'error' || e.type === 'session.interrupted');
    this.catalog.upsert(summarize(this.id, this.events, bytes, done ? undefined : process.pid, this.log.lastSeq));
  }

  /**
   * Closes, and removes the session if it never started (no session.start in its log): a run
   * that failed before it began (a bad target, no interpreter) leaves nothing to list, resume or
   * take for `last`. Returns whether it was removed.
   */
  discardIfNeverStarted(): boolean {
    this.close();
    if (this.events.some((e) => e.type === 'session.start')) return false;
    rmSync(dirname(this.log.file), { recursive: true, force: true });
    return true;
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
