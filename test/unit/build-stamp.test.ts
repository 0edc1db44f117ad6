import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
// @ts-expect-error: a plain .mjs build script, without types
import { distIsCurrent, sourceStamp, writeStamp } from '../../scripts/build-stamp.mjs';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-stamp-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A checkout with one source file and a built dist. */
function checkout(): string {
  const root = mkdtempSync(join(scratch, 'repo-'));
  mkdirSync(join(root, 'source'));
  mkdirSync(join(root, 'dist'));
  writeFileSync(join(root, 'source', 'main.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'package.json'), '{}\n');
  writeFileSync(join(root, 'dist', 'tenet.js'), '');
  writeFileSync(join(root, 'dist', 'index-worker.js'), '');
  writeFileSync(join(root, 'dist', 'session-page.js'), '');
  return root;
}

describe('npm start rebuilds only when a source changed (issue 37.12)', () => {
  it('is current after a build, and stale after an edit, a new file, or without its output', () => {
    const root = checkout();
    expect(distIsCurrent(root)).toBe(false); // never stamped
    writeStamp(root, sourceStamp(root));
    expect(distIsCurrent(root)).toBe(true);

    const later = new Date(Date.now() + 5000);
    utimesSync(join(root, 'source', 'main.ts'), later, later);
    expect(distIsCurrent(root)).toBe(false);
    writeStamp(root, sourceStamp(root));
    writeFileSync(join(root, 'source', 'new.ts'), '');
    expect(distIsCurrent(root)).toBe(false);
    writeStamp(root, sourceStamp(root));
    expect(distIsCurrent(root)).toBe(true);
    // The helpers' bytecode, written as tenet runs them, is no source.
    mkdirSync(join(root, 'source', 'python', '__pycache__'), { recursive: true });
    writeFileSync(join(root, 'source', 'python', '__pycache__', 'helper.cpython-311.pyc'), '');
    expect(distIsCurrent(root)).toBe(true);
    rmSync(join(root, 'dist', 'tenet.js'));
    expect(distIsCurrent(root)).toBe(false);
  });

  it('is what npm start checks before starting the demo', () => {
    const pkg = JSON.parse(readFileSync(join(import.meta.dirname, '..', '..', 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    };
    expect(pkg.scripts.start).toBe('node scripts/start.mjs');
  });

  it('starts the demo in its own process, with the arguments npm start was given, and no rebuild', () => {
    const repo = join(import.meta.dirname, '..', '..');
    const bundle = join(repo, 'dist', 'tenet.js');
    const builtAt = statSync(bundle).mtimeMs; // npm test builds dist before the tests
    const help = execFileSync(process.execPath, ['scripts/start.mjs', '--help'], { cwd: repo, encoding: 'utf8' });
    expect(help).toContain('Usage: tenet demo');
    expect(statSync(bundle).mtimeMs).toBe(builtAt);
  });
});
