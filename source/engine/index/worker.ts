/**
 * Index worker thread: parses the files it is sent and posts their index entries back, serialized
 * here (v8's format, the disk cache's) and transferred without a copy: the main thread decodes
 * them once for the index and writes the same bytes to the cache, where it would otherwise encode
 * every entry again. Built to dist/index-worker.js (see scripts/build.mjs).
 */
import { serialize } from 'node:v8';
import { parentPort } from 'node:worker_threads';
import { indexFile } from './parse-file';

interface Job {
  id: number;
  files: { path: string; absolute: string; hash?: string }[];
}

parentPort?.on('message', async (job: Job) => {
  const results = [];
  for (const file of job.files) {
    try {
      results.push(await indexFile(file.path, file.absolute, file.hash));
    } catch (error) {
      results.push({ path: file.path, error: String(error) });
    }
  }
  const bytes = serialize(results);
  // A buffer of its own can be handed over; a slice of a shared one is copied first.
  const own =
    bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
      ? bytes
      : Uint8Array.prototype.slice.call(bytes);
  parentPort!.postMessage({ id: job.id, bytes: own }, [own.buffer as ArrayBuffer]);
});
