import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { deserialize } from 'node:v8';
import { Worker } from 'node:worker_threads';
import { installRoot } from '../assets';
import { indexFile } from './parse-file';
import type { FileIndex } from './types';

export interface FileToParse {
  path: string;
  absolute: string;
  /** The content hash, when the caller has it already (it hashed the file to look it up in the cache). */
  hash?: string;
}

const BATCH = 8;

export function workerScript(): string | undefined {
  const script = join(installRoot(), 'dist', 'index-worker.js');
  return existsSync(script) ? script : undefined;
}

type Reply = { bytes: Uint8Array };

/** What the pool parsed, and the same entries as the serialized chunks the workers sent (the cache's format). */
export interface Parsed {
  entries: FileIndex[];
  chunks: Uint8Array[];
}

/**
 * Parses files into index entries on worker threads (one per core): tree-sitter parsing is
 * CPU-bound, and a 1,500-file repository takes seconds on one thread. Workers start at once (they
 * load the grammar while the caller is still hashing files) and take batches as they are added.
 * Without the worker bundle (dist/index-worker.js), or with one worker, files are parsed here.
 */
export class ParsePool {
  private readonly workers: Worker[] = [];
  private readonly idle: Worker[] = [];
  private readonly queue: FileToParse[] = [];
  private readonly results: FileIndex[] = [];
  private readonly chunks: Uint8Array[] = [];
  private pending = 0;
  private failure: Error | undefined;
  private wake: (() => void) | undefined;
  private closed = false;

  constructor(size = availableParallelism()) {
    const script = workerScript();
    if (!script || size < 2) return;
    for (let i = 0; i < size; i++) {
      const worker = new Worker(script);
      worker.on('message', (reply: Reply) => {
        this.pending--;
        const results = deserialize(reply.bytes) as (FileIndex | { path: string; error: string })[];
        for (const result of results) {
          if ('error' in result) this.failure ??= new Error(`indexing ${result.path}: ${result.error}`);
          else this.results.push(result);
        }
        this.chunks.push(reply.bytes);
        this.idle.push(worker);
        this.pump();
      });
      worker.on('error', (error) => {
        this.failure ??= error;
        this.wake?.();
      });
      this.workers.push(worker);
      this.idle.push(worker);
    }
  }

  add(file: FileToParse): void {
    this.queue.push(file);
    if (this.queue.length >= BATCH) this.pump();
  }

  private pump(): void {
    while (this.idle.length && this.queue.length && (this.queue.length >= BATCH || this.closed)) {
      const worker = this.idle.pop()!;
      this.pending++;
      worker.postMessage({ id: 0, files: this.queue.splice(0, BATCH) });
    }
    if (this.closed && !this.pending && !this.queue.length) this.wake?.();
    if (this.failure) this.wake?.();
  }

  /** Every entry, once the queue is empty (chunks only from workers: entries parsed here are not serialized). */
  async finish(): Promise<Parsed> {
    this.closed = true;
    try {
      if (!this.workers.length) {
        for (const file of this.queue.splice(0))
          this.results.push(await indexFile(file.path, file.absolute, file.hash));
        return { entries: this.results, chunks: [] };
      }
      await new Promise<void>((resolve) => {
        this.wake = resolve;
        this.pump();
      });
      if (this.failure) throw this.failure;
      return { entries: this.results, chunks: this.chunks };
    } finally {
      await Promise.all(this.workers.map((w) => w.terminate()));
    }
  }
}
