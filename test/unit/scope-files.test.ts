import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { scopeTestFiles } from '../../source/engine/thm/scope-files';

describe('scopeTestFiles: how many test files a THM scope holds', () => {
  const root = mkdtempSync(join(tmpdir(), 'scope-files-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));
  const files = ['tests/test_a.py', 'tests/test_b.py', 'tests/deep/c_test.py', 'tests/helpers.py', 'tests/__pycache__/test_a.py', 'pkg/test_x.py', '.tox/test_y.py'];
  for (const file of files) {
    mkdirSync(join(root, file, '..'), { recursive: true });
    writeFileSync(join(root, file), '');
  }
  const workspace = { root, stats: { files: files.length, bytes: 0, testFiles: 99, linksOut: 0 } };

  it('counts the test files under the folders and files the arguments name, and nothing else', () => {
    expect(scopeTestFiles(workspace, ['tests'])).toBe(3);
    expect(scopeTestFiles(workspace, ['tests/test_a.py::test_one', 'pkg'])).toBe(2);
    // -k's value names no path here; the option itself is no path either.
    expect(scopeTestFiles(workspace, ['-k', 'slow', 'tests/deep'])).toBe(1);
  });

  it('without a path, is the whole repository; and stops counting at the limit', () => {
    expect(scopeTestFiles(workspace, [])).toBe(99);
    expect(scopeTestFiles(workspace, ['-q', '--ignore=tests/deep'])).toBe(99);
    expect(scopeTestFiles(workspace, ['tests'], 2)).toBe(2);
  });
});
