import { describe, expect, it } from 'vitest';
import { repositoryOf, THM_MODES, thmOn } from '../helpers/thm';

/**
 * Results of the target kept by functools.lru_cache: a blank target raises, and a call that raised
 * is never cached, but twin mode's parent runs the original, and what an earlier test left in a
 * cache answered a later test's call without reaching the target, so that test forked no twin and
 * passed "blank". The cache may be on the target itself (networkx's _rooted_trees) or on a function
 * that calls it, at any depth (_unlabeled_trees around _rooted_trees; sympy's cacheit). Every mode
 * must give what a plain blank run gives.
 */
const repo = repositoryOf('memo', {
  'memo/__init__.py': '',
  'memo/numbers.py': [
    'from functools import lru_cache',
    '',
    '',
    '@lru_cache(None)',
    'def fib(n):',
    '    return n if n < 2 else fib(n - 1) + fib(n - 2)',
    '',
    '',
    'def square(n):',
    '    return n * n',
    '',
    '',
    'def _squares_below(n):',
    '    return tuple(square(i) for i in range(n))',
    '',
    '',
    '@lru_cache(None)',
    'def squares(n):',
    '    return _squares_below(n)',
    '',
    '',
    'def cubes(n):',
    '    from memo.late import cubes_below  # imported on first use',
    '',
    '    return cubes_below(n)',
    '',
  ].join('\n'),
  'memo/late.py': [
    'from functools import lru_cache',
    '',
    'from memo.numbers import square',
    '',
    '',
    '@lru_cache(None)',
    'def cubes_below(n):',
    '    return tuple(square(i) * i for i in range(n))',
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
  'tests/test_squares.py': [
    'from memo.numbers import squares',
    '',
    '',
    'def test_three():',
    '    assert squares(3) == (0, 1, 4)',
    '',
    '',
    'def test_three_again():',
    '    assert squares(3)[-1] == 4',
    '',
  ].join('\n'),
  'tests/test_zcubes.py': [
    'from memo.numbers import cubes',
    '',
    '',
    'def test_cubes():',
    '    assert cubes(3) == (0, 1, 8)',
    '',
    '',
    'def test_cubes_again():',
    '    assert cubes(3)[-1] == 8',
    '',
  ].join('\n'),
});

describe.each(THM_MODES)('the target’s results behind functools.lru_cache, %s', (_mode, options) => {
  it('a cache on the target: every test that calls it fails, also after an earlier test filled the cache', async () => {
    const { report } = await thmOn(repo, 'memo/numbers.py::fib', { blank: true, T: 3, ...options });
    expect(report.failing.map((f) => [f.nodeid, f.chainLines])).toEqual([
      ['tests/test_large.py::test_ten', [5, 6]],
      ['tests/test_small.py::test_five', [5, 6]],
    ]);
  }, 60_000);

  it('a cache on a function two calls above it: the second test with the same call fails too', async () => {
    const { report } = await thmOn(repo, 'memo/numbers.py::square', { blank: true, T: 3, ...options });
    expect(report.failing.map((f) => f.nodeid)).toEqual([
      'tests/test_squares.py::test_three',
      'tests/test_squares.py::test_three_again',
      // The cache is in a module imported after the target's first call.
      'tests/test_zcubes.py::test_cubes',
      'tests/test_zcubes.py::test_cubes_again',
    ]);
  }, 60_000);
});
