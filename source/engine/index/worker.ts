/**
 * Index worker thread: parses the files it is sent and posts their index entries back, serialized
 * here (v8's format, the disk cache's) and transferred without a copy: the main thread decodes
 * them once for the index and writes the same bytes to the cache, where it would otherwise encode
 * every entry again. Built to dist/index-worker.js (see scripts/build.mjs).
 */
import { serialize } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { indexFile } from './parse-file';
import type { WorkerOutcome, WorkerReply } from './parse-pool';

interface Job {
  id: number;
  files: { path: string; absolute: string; hash?: string }[];
}

/** Emscripten's abort: the wasm instance is unusable after it, for every later file. */
const isAbort = (error: unknown) => error instanceof Error && /Aborted\(/.test(error.message);

parentPort?.on('message', async (job: Job) => {
  const results: WorkerOutcome[] = [];
  let aborted = false;
  for (const file of job.files) {
    if (aborted) {
      results.push({ path: file.path, retry: true });
      continue;
    }
    try {
      results.push(await indexFile(file.path, file.absolute, file.hash));
    } catch (error) {
      results.push({ path: file.path, error: String(error) });
      aborted = isAbort(error);
    }
  }
  const bytes = serialize(results);
  // A buffer of its own can be handed over; a slice of a shared one is copied first.
  const own =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? bytes
      : Uint8Array.prototype.slice.call(bytes);
  const reply: WorkerReply = { bytes: own, ...(aborted ? { aborted } : {}) };
  parentPort!.postMessage(reply, [own.buffer as ArrayBuffer]);
});
