import { describe, expect, it } from 'vitest';
import { repositoryOf, THM_MODES, thmOn } from '../helpers/thm';

/**
 * A generator target is wrapped in a call probe under its innermost decorator. A decorator object
 * that takes the function's attributes by copying its __dict__ (networkx's _dispatchable) took the
 * probe's copies of the function's code and keyword defaults too: it lost the keyword default it
 * sets itself, and looked like a generator function to the decorator above it, which then checked
 * its arguments only when iterated. Every test of networkx's `v_structures` failed on the original
 * code, so THM called them "already failing" and offered none.
 */
const repo = repositoryOf('keyed', {
  'keyed/__init__.py': '',
  'keyed/counting.py': [
    'import inspect',
    '',
    '',
    'class keyed:',
    '    """Adds a keyword argument with a default, and takes the function\'s attributes."""',
    '',
    '    def __init__(self, func):',
    '        self.__kwdefaults__ = {"key": None}',
    '        self.__dict__.update(func.__dict__)',
    '        self.__wrapped__ = func',
    '        self.func = func',
    '',
    '    def __call__(self, *args, **kwargs):',
    '        kwargs.pop("key", self.__kwdefaults__["key"])',
    '        return self.func(*args, **kwargs)',
    '',
    '',
    'def checked(function):',
    '    """Checks the argument at the call; for a generator function, at its first step."""',
    '    if inspect.isgeneratorfunction(function):',
    '        def lazily(n):',
    '            if n < 0:',
    '                raise ValueError(n)',
    '            yield from function(n)',
    '        return lazily',
    '',
    '    def eagerly(n):',
    '        if n < 0:',
    '            raise ValueError(n)',
    '        return function(n)',
    '    return eagerly',
    '',
    '',
    '@checked',
    '@keyed',
    'def count_to(n):',
    '    yield from range(n)',
    '',
  ].join('\n'),
  'tests/test_counting.py': [
    'import pytest',
    '',
    'from keyed.counting import count_to',
    '',
    '',
    'def test_counts():',
    '    assert list(count_to(3)) == [0, 1, 2]',
    '',
    '',
    'def test_negative_is_refused_at_the_call():',
    '    with pytest.raises(ValueError):',
    '        count_to(-1)',
    '',
  ].join('\n'),
});

describe.each(THM_MODES)(
  'a generator target under a decorator object that copies its __dict__, %s',
  (_mode, options) => {
    it('leaves the decorators working as on the original code', async () => {
      const { report } = await thmOn(repo, 'keyed/counting.py::count_to', { blank: true, T: 3, ...options });
      expect(report.alreadyFailing).toEqual([]);
      expect(report.failing.map((f) => [f.nodeid, f.chain])).toEqual([
        [
          'tests/test_counting.py::test_counts',
          [
            'tests/test_counting.py::test_counts',
            'keyed/counting.py::checked.<locals>.eagerly',
            'keyed/counting.py::keyed.__call__',
            'keyed/counting.py::count_to',
          ],
        ],
      ]);
    }, 60_000);
  },
);
