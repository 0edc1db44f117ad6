import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { importRoots } from '../../source/engine/python-source/import-roots';

let repo = '';
afterEach(() => rmSync(repo, { recursive: true, force: true }));

/** A repository holding these files (each empty). */
function layout(...files: string[]): string {
  repo = mkdtempSync(join(tmpdir(), 'tenet-roots-'));
  for (const file of files) {
    mkdirSync(join(repo, dirname(file)), { recursive: true });
    writeFileSync(join(repo, file), '');
  }
  return repo;
}

describe('importRoots', () => {
  it('a package at the root: the root', () => {
    expect(importRoots(layout('pkg/__init__.py', 'pkg/sub/__init__.py', 'pkg/sub/mod.py'), 'pkg/sub/mod.py')).toEqual([
      '',
    ]);
  });

  it('a src layout: src, then the root', () => {
    expect(importRoots(layout('src/pkg/__init__.py', 'src/pkg/mod.py'), 'src/pkg/mod.py')).toEqual(['src', '']);
  });

  it('a namespace subpackage inside a package (flask: src/flask/sansio) is never a root', () => {
    const repo = layout('src/flask/__init__.py', 'src/flask/sansio/app.py', 'src/flask/sansio/scaffold.py');
    expect(importRoots(repo, 'src/flask/sansio/scaffold.py')).toEqual(['src', '']);
  });

  it('a package inside a namespace folder inside a package: above the outermost package', () => {
    const repo = layout('top/__init__.py', 'top/ns/inner/__init__.py', 'top/ns/inner/mod.py');
    expect(importRoots(repo, 'top/ns/inner/mod.py')).toEqual(['']);
  });

  it('a module in no package: its own folder', () => {
    expect(importRoots(layout('scripts/tool.py'), 'scripts/tool.py')).toEqual(['scripts', '']);
  });
});
