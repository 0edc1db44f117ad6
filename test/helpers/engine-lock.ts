import { mkdirSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

/**
 * `tenet gc` on the shared Docker engine removes every orphan it finds, including what a test in
 * another file left there on purpose to see gc remove it. Test files that leave orphans, or run a
 * global gc, hold this lock (one folder, made atomically) across that window, so that one file's
 * gc never takes another file's leftovers.
 */
const LOCK = join(tmpdir(), 'tenet-test-engine-gc.lock');
/** A lock older than this was left by a killed test run. */
const STALE_MS = 10 * 60_000;

export async function withEngineGcLock<T>(body: () => Promise<T>): Promise<T> {
  for (;;) {
    try {
      mkdirSync(LOCK);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      try {
        if (Date.now() - statSync(LOCK).mtimeMs > STALE_MS) rmSync(LOCK, { recursive: true, force: true });
      } catch {
        // Gone meanwhile: try again.
      }
      await new Promise((r) => setTimeout(r, 200));
    }
  }
  try {
    return await body();
  } finally {
    rmSync(LOCK, { recursive: true, force: true });
  }
}
