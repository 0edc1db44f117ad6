import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { thmOn } from '../helpers/thm';

/**
 * A target with functools.lru_cache on it (networkx's _rooted_trees): a blank target's calls are
 * never cached, but fork mode's parent runs the original, and what an earlier test left in the
 * cache answered a later test's calls without reaching the target, so that test forked no twin
 * and passed "blank". Every mode must give what a plain blank run gives.
 */
const scratch = mkdtempSync(join(tmpdir(), 'tenet-cached-target-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const repo = join(scratch, 'memo');
const FILES: Record<string, string> = {
  'memo/__init__.py': '',
  'memo/numbers.py': [
    'from functools import lru_cache',
    '',
    '',
    '@lru_cache(None)',
    'def fib(n):',
    '    return n if n < 2 else fib(n - 1) + fib(n - 2)',
    '',
  ].join('\n'),
  'tests/test_large.py': [
    'from memo.numbers import fib',
    '',
    '',
    'def test_ten():',
    '    assert fib(10) == 55',
    '',
  ].join('\n'),
  'tests/test_small.py': [
    'from memo.numbers import fib',
    '',
    '',
    'def test_five():',
    '    assert fib(5) == 5',
    '',
  ].join('\n'),
};
for (const [path, text] of Object.entries(FILES)) {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}

describe.each([
  ['lanes', {}],
  ['fork', { jobs: 1 }],
  ['two passes', { fork: false, jobs: 1 }],
] as const)('a target behind functools.lru_cache, %s', (_mode, options) => {
  it('fails every test that calls it, also after an earlier test filled the cache', async () => {
    const { report } = await thmOn(repo, 'memo/numbers.py::fib', { blank: true, T: 3, ...options });
    expect(report.failing.map((f) => [f.nodeid, f.chainLines])).toEqual([
      ['tests/test_large.py::test_ten', [5, 6]],
      ['tests/test_small.py::test_five', [5, 6]],
    ]);
  }, 60_000);
});
