import { vi } from 'vitest';

/**
 * Runs before each end-to-end file. The e2e project's files share their worker processes
 * (vitest.config.ts: a fresh process per file cost about 0.4 CPU-s a file, 24 CPU-s over 60 files), so
 * what one file changed must not reach the next:
 * - the helpers and the engine's modules are evaluated again for each file, so that module-level
 *   state (a scratch folder made at import, removed by an afterAll the import registered) is the
 *   file's own, as it was in a process of its own; the packages under node_modules stay loaded;
 * - the environment is put back as the first file found it (`withInterpreterPlugins()` deletes a
 *   variable for the file that calls it).
 */
const FIRST_ENV = Symbol.for('tenet.e2e.first-env');
const store = globalThis as { [FIRST_ENV]?: NodeJS.ProcessEnv };
const first = store[FIRST_ENV];
if (first) {
  for (const name of Object.keys(process.env)) if (!(name in first)) delete process.env[name];
  Object.assign(process.env, first);
} else store[FIRST_ENV] = { ...process.env };
vi.resetModules();
