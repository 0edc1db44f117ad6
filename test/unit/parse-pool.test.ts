import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { ParsePool } from '../../source/engine/index/parse-pool';

/**
 * Issue 43 item 4: a file the parser cannot take is left out of the index, and the run goes on.
 * The workers here stand in for the real one (a real abort takes ~25 s of parsing an 18 MB
 * module): they speak its protocol, abort on `abort*.py` as the wasm does (the file failed, the
 * rest of the batch is sent back to retry, the worker is done), and die outright on `crash.py`.
 */
const scratch = mkdtempSync(join(tmpdir(), 'tenet-pool-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const WORKER = `
import { parentPort } from 'node:worker_threads';
import { serialize } from 'node:v8';
let dead = false;
parentPort.on('message', (job) => {
  const out = [];
  let aborted = false;
  // As the wasm: after an abort, every later parse in this worker fails.
  const used = dead;
  for (const file of job.files) {
    if (used) { out.push({ path: file.path, error: 'a worker used after its abort' }); continue; }
    if (aborted) { out.push({ path: file.path, retry: true }); continue; }
    if (file.path.startsWith('abort')) {
      out.push({ path: file.path, error: 'RuntimeError: Aborted(). Build with -sASSERTIONS for more info.' });
      aborted = dead = true;
      continue;
    }
    if (file.path === 'crash.py') throw new Error('the thread died');
    out.push({ path: file.path, hash: 'h', lines: 1 });
  }
  parentPort.postMessage({ bytes: serialize(out), ...(aborted ? { aborted } : {}) });
});
`;

describe('the parse pool', () => {
  it('leaves out a file that aborts the parser or kills its worker, replaces the worker, and parses the rest', async () => {
    const script = join(scratch, 'worker.mjs');
    writeFileSync(script, WORKER);
    const pool = new ParsePool(2, script);
    const names = Array.from({ length: 30 }, (_, i) => `m${i}.py`);
    names.splice(3, 0, 'abort1.py');
    names.splice(12, 0, 'crash.py');
    names.splice(20, 0, 'abort2.py');
    for (const path of names) pool.add({ path, absolute: join(scratch, path) });
    const parsed = await pool.finish();
    expect(parsed.entries.map((e) => e.path).sort()).toEqual(names.filter((n) => n.startsWith('m')).sort());
    expect(parsed.skipped.map((s) => s.path).sort()).toEqual(['abort1.py', 'abort2.py', 'crash.py']);
    expect(parsed.skipped.find((s) => s.path === 'crash.py')!.reason).toContain('the thread died');
    expect(parsed.skipped.find((s) => s.path === 'abort1.py')!.reason).toContain('Aborted()');
  });
});
