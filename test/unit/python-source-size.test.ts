import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { listPythonFiles, pythonSourceExceeds } from '../../source/engine/workspace/walk';

// The size a run looks at before its first parse, to choose the parser's code (parse-pool.ts):
// the files the index would parse, nothing it skips.
describe('pythonSourceExceeds', () => {
  const root = mkdtempSync(join(tmpdir(), 'tenet-python-size-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  mkdirSync(join(root, 'pkg', 'sub'), { recursive: true });
  mkdirSync(join(root, '.venv', 'lib'), { recursive: true });
  mkdirSync(join(root, 'node_modules'), { recursive: true });
  writeFileSync(join(root, 'pkg', 'a.py'), 'x'.repeat(300));
  writeFileSync(join(root, 'pkg', 'sub', 'b.py'), 'y'.repeat(200));
  writeFileSync(join(root, 'pkg', 'notes.txt'), 'z'.repeat(5000));
  // Skipped folders hold far more, which must not count.
  writeFileSync(join(root, '.venv', 'lib', 'big.py'), 'v'.repeat(10_000));
  writeFileSync(join(root, 'node_modules', 'big.py'), 'n'.repeat(10_000));

  it('counts the bytes of the files the index lists, and only those', () => {
    expect(listPythonFiles(root)).toEqual(['pkg/a.py', 'pkg/sub/b.py']);
    expect(pythonSourceExceeds(root, 499)).toBe(true);
    expect(pythonSourceExceeds(root, 500)).toBe(false);
    expect(pythonSourceExceeds(root, 10_000)).toBe(false);
  });

  it('says a folder it cannot read holds nothing', () => {
    expect(pythonSourceExceeds(join(root, 'missing'), 0)).toBe(false);
  });
});
