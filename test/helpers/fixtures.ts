import { cpSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { createHash } from 'node:crypto';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
export const FIXTURES = join(ROOT, 'test', 'fixtures');
export const CLI = join(ROOT, 'dist', 'tenet.js');

/** A private copy of a fixture repository, removed by the returned cleanup. */
export function copyFixture(name: string): { dir: string; cleanup: () => void } {
  const parent = mkdtempSync(join(tmpdir(), 'tenet-test-'));
  const dir = join(parent, name);
  cpSync(join(FIXTURES, name), dir, { recursive: true });
  return { dir, cleanup: () => rmSync(parent, { recursive: true, force: true }) };
}

/** Hash of every file (path and bytes) under a folder: equal hashes mean byte-identical trees. */
export function treeHash(dir: string): string {
  const hash = createHash('sha256');
  const walk = (path: string) => {
    for (const name of readdirSync(path).sort()) {
      const child = join(path, name);
      if (statSync(child).isDirectory()) walk(child);
      else hash.update(relative(dir, child)).update('\0').update(readFileSync(child)).update('\0');
    }
  };
  walk(dir);
  return hash.digest('hex');
}
