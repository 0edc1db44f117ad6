import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { installRoot } from '../assets';
import { parseWithBaselineCodeOnly } from '../python-source/parser';
import { pythonSourceExceeds } from '../workspace/walk';
import { indexFile, parseFailure, type SkippedFile } from './parse-file';
import type { FileIndex } from './types';

export interface FileToParse {
  path: string;
  absolute: string;
  /** The content hash, when the caller has it already (it hashed the file to look it up in the cache). */
  hash?: string;
}

const BATCH = 8;

/**
 * Up to this much source, files are parsed on the calling thread: a worker costs about 0.15 s of a
 * core to start (its own isolate, the grammar compiled again), and one thread parses about 5 MB a
 * second. On an 11-file fixture two workers took 0.35 s of CPU where this thread took 0.01 s; at
 * 4 MB (networkx's algorithms) they saved a tenth of the wall time for half as much CPU again.
 */
export const PARSE_INLINE_BYTES = 1_000_000;

/**
 * Before a process's first parse, when what it will parse is one repository of at most
 * PARSE_INLINE_BYTES of Python (all of it parsed on this thread): the grammar's baseline code
 * alone (see parseWithBaselineCodeOnly). V8's optimizing recompile of the lexer cost a `tenet run`
 * on an 11-file repository about 0.25 CPU-s on another thread, more than its parses took; it pays
 * off only past about a megabyte. A larger repository keeps both (the flag would hold for the
 * workers too).
 */
export function parseWithBaselineCodeOnlyIfSmall(root: string): void {
  if (!pythonSourceExceeds(root, PARSE_INLINE_BYTES)) parseWithBaselineCodeOnly();
}

export function workerScript(): string | undefined {
  const script = join(installRoot(), 'dist', 'index-worker.js');
  return existsSync(script) ? script : undefined;
}

/**
 * A worker's answer: its batch's entries, serialized. A file it could not parse comes back as an
 * error; after a wasm abort (the parser's memory is then unusable) it stops, sends the files it did
 * not get to as `retry`, and says `aborted`: the pool replaces it.
 */
export type WorkerOutcome = FileIndex | { path: string; error: string } | { path: string; retry: true };
export interface WorkerReply {
  bytes: Uint8Array;
  aborted?: boolean;
}

/** What the pool parsed, the same entries as the serialized chunks the workers sent (the cache's format), and the files it left out. */
export interface Parsed {
  entries: FileIndex[];
  chunks: Uint8Array[];
  skipped: SkippedFile[];
}

/**
 * Parses files into index entries on worker threads (one per core): tree-sitter parsing is
 * CPU-bound, and a 1,500-file repository takes seconds on one thread. Workers start at once (they
 * load the grammar while the caller is still hashing files) and take batches as they are added.
 * Without the worker bundle (dist/index-worker.js), or with one worker, files are parsed here.
 *
 * A file the parser cannot take is left out (`skipped`, with why), and the rest goes on. A worker
 * that aborts or dies is replaced: the files of its batch are parsed again one at a time, and one
 * that kills a worker on its own is left out.
 */
export class ParsePool {
  private readonly workers = new Set<Worker>();
  private readonly idle: Worker[] = [];
  /** The batch each busy worker is parsing. */
  private readonly batches = new Map<Worker, FileToParse[]>();
  private readonly queue: FileToParse[] = [];
  /** Files of a lost worker's batch: each goes alone, so that a file that kills a worker is known. */
  private readonly alone: FileToParse[] = [];
  private readonly results: FileIndex[] = [];
  private readonly chunks: Uint8Array[] = [];
  private readonly skipped: SkippedFile[] = [];
  private wake: (() => void) | undefined;
  private closed = false;
  private ended = false;

  constructor(
    size = availableParallelism(),
    private readonly script = workerScript(),
  ) {
    if (!script || size < 2) return;
    for (let i = 0; i < size; i++) this.startWorker();
  }

  private startWorker(): void {
    const worker = new Worker(this.script!);
    let error: unknown;
    worker.on('message', (reply: WorkerReply) => this.received(worker, reply));
    worker.on('error', (thrown) => (error = thrown));
    worker.on('exit', () => this.lost(worker, error ?? 'the worker thread stopped'));
    this.workers.add(worker);
    this.idle.push(worker);
  }

  private received(worker: Worker, reply: WorkerReply): void {
    const batch = this.batches.get(worker) ?? [];
    this.batches.delete(worker);
    const outcomes = deserialize(reply.bytes) as WorkerOutcome[];
    const entries: FileIndex[] = [];
    for (const outcome of outcomes) {
      if ('retry' in outcome) this.alone.push(...batch.filter((file) => file.path === outcome.path));
      else if ('error' in outcome) this.skipped.push(parseFailure(outcome.path, outcome.error));
      else entries.push(outcome);
    }
    this.results.push(...entries);
    // The cache reads the chunks as entries: one with a failure in it is written again without.
    this.chunks.push(entries.length === outcomes.length ? reply.bytes : serialize(entries));
    if (reply.aborted) this.replace(worker);
    else this.idle.push(worker);
    this.pump();
  }

  /** A worker gone (an uncaught error, a crash; not one this pool ended): its batch again, a file at a time. */
  private lost(worker: Worker, error: unknown): void {
    if (this.ended || !this.workers.has(worker)) return;
    const batch = this.batches.get(worker) ?? [];
    this.batches.delete(worker);
    if (batch.length === 1) this.skipped.push(parseFailure(batch[0]!.path, error));
    else this.alone.push(...batch);
    this.replace(worker);
    this.pump();
  }

  private replace(worker: Worker): void {
    this.workers.delete(worker);
    const at = this.idle.indexOf(worker);
    if (at !== -1) this.idle.splice(at, 1);
    void worker.terminate();
    this.startWorker();
  }

  add(file: FileToParse): void {
    this.queue.push(file);
    if (this.queue.length >= BATCH) this.pump();
  }

  private pump(): void {
    while (
      this.idle.length &&
      (this.alone.length || (this.queue.length && (this.queue.length >= BATCH || this.closed)))
    ) {
      const worker = this.idle.pop()!;
      const files = this.alone.length ? this.alone.splice(0, 1) : this.queue.splice(0, BATCH);
      this.batches.set(worker, files);
      worker.postMessage({ id: 0, files });
    }
    if (this.closed && !this.batches.size && !this.queue.length && !this.alone.length) this.wake?.();
  }

  /** Every entry, once the queue is empty (chunks only from workers: entries parsed here are not serialized). */
  async finish(): Promise<Parsed> {
    this.closed = true;
    try {
      if (!this.workers.size) {
        for (const file of this.queue.splice(0)) {
          try {
            this.results.push(await indexFile(file.path, file.absolute, file.hash));
          } catch (error) {
            this.skipped.push(parseFailure(file.path, error));
          }
        }
        return { entries: this.results, chunks: [], skipped: this.skipped };
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.pump();
      });
      return { entries: this.results, chunks: this.chunks, skipped: this.skipped };
    } finally {
      this.ended = true;
      await Promise.all([...this.workers].map((w) => w.terminate()));
    }
  }
}
