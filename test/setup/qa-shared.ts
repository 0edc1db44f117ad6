import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { TestProject } from 'vitest/node';

declare module 'vitest' {
  export interface ProvidedContext {
    qaShared: string;
  }
}

/**
 * The folder where the parts of a suite's share of qa:thm's CI sample (test/e2e/qa-thm-*-K.test.ts)
 * make the suite's set-up once between them (qa/suite-setup.ts), removed when the run ends.
 */
export default function qaShared(project: TestProject): () => void {
  const dir = mkdtempSync(join(tmpdir(), 'tenet-qa-shared-'));
  project.provide('qaShared', dir);
  return () => rmSync(dir, { recursive: true, force: true });
}
