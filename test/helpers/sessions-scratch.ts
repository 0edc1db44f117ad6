import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll } from 'vitest';

/** A scratch folder for a sessions-*.test.ts file, removed after the file (each file imports this module afresh). */
export const scratch = mkdtempSync(join(tmpdir(), 'tenet-sessions-resume-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
