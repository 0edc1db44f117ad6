/**
 * Index worker thread: parses the files it is sent and posts their index entries back. Built to
 * dist/index-worker.js (see scripts/build.mjs) so the bundle and the tests use the same file.
 */
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
  parentPort!.postMessage({ id: job.id, results });
});
