import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { shardCount } from '../../source/engine/thm/run-thm';
import { scopeTestFiles } from '../../source/engine/thm/scope';

describe("THM's shard count follows the scope, not the repository", () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'tenet-scope-'));
    const files = [
      ...Array.from({ length: 30 }, (_, i) => `pkg/tests/test_m${i}.py`),
      'pkg/tests/unit/test_a.py', 'pkg/tests/unit/b_test.py', 'pkg/tests/unit/helpers.py', 'pkg/tests/unit/__pycache__/test_a.py',
      'pkg/slow/test_big.py',
    ];
    for (const file of files) {
      mkdirSync(dirname(join(root, file)), { recursive: true });
      writeFileSync(join(root, file), '');
    }
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('counts the test files the --tests paths name: files and node ids once, folders by their test files', () => {
    expect(scopeTestFiles(root, ['pkg/tests/unit'])).toBe(2);
    expect(scopeTestFiles(root, ['pkg/tests/test_m1.py::test_x', 'pkg/tests/test_m2.py', '-k', 'parser'])).toBe(2);
    expect(scopeTestFiles(root, ['pkg'])).toBe(33);
  });

  it('ignores option values, even ones that are paths, and names of no file', () => {
    expect(scopeTestFiles(root, ['pkg/tests/unit', '--ignore', 'pkg/tests', '-m', 'not slow', 'nothing_here.py'])).toBe(2);
  });

  it('is null when no argument names a path (the repository configuration decides the scope)', () => {
    expect(scopeTestFiles(root, [])).toBeNull();
    expect(scopeTestFiles(root, ['-k', 'parser', '-x'])).toBeNull();
  });

  it('a four-test scope of a large suite runs in one process; the whole suite is sharded', () => {
    const small = scopeTestFiles(root, ['pkg/tests/test_m1.py', 'pkg/tests/test_m2.py']) ?? 999;
    expect(shardCount('auto', small)).toBe(1);
    expect(shardCount('auto', scopeTestFiles(root, ['pkg']) ?? 0)).toBe(Math.min(availableParallelism(), 4));
  });
});
