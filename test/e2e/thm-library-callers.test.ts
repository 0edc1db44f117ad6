import { describe, expect, it } from 'vitest';
import { repositoryOf, thmOn } from '../helpers/thm';

/**
 * THM clusters failing tests by the function that calls the target, because each caller shows
 * another use of it (TENET paper). A target the standard library calls for its user, a
 * `functools.cached_property` or a `contextlib.contextmanager` generator, has that library's
 * plumbing as its nearest frame in every chain: the caller is the nearest frame of the
 * repository's own code, so each use is a cluster of its own.
 */
/**
 * The repository's own decorators: a closure that caches (as sympy's `cacheit`) and a decorator
 * object that keeps the function (as networkx's `_dispatchable`). Their frames are the
 * repository's code, and would name every use of the target alike.
 */
const DECORATED = [
  'import functools',
  '',
  '',
  'def cached(function):',
  '    memo = {}',
  '',
  '    @functools.wraps(function)',
  '    def wrapper(*args):',
  '        if args not in memo:',
  '            memo[args] = function(*args)',
  '        return memo[args]',
  '',
  '    return wrapper',
  '',
  '',
  'class dispatched:',
  '    def __init__(self, function):',
  '        self.function = function',
  '        functools.update_wrapper(self, function)',
  '',
  '    def __call__(self, *args):',
  '        return self._plain(*args)',
  '',
  '    def _plain(self, *args):',
  '        return self.function(*args)',
  '',
  '',
  '@cached',
  'def square(x):',
  '    return x * x',
  '',
  '',
  '@dispatched',
  'def cube(x):',
  '    return x * x * x',
  '',
  '',
  'def area(side):',
  '    return square(side)',
  '',
  '',
  'def volume(side):',
  '    return cube(side)',
  '',
  '',
  'def apply(function, value):',
  '    return function(value)',
  '',
].join('\n');
const repo = repositoryOf('res', {
  'res/__init__.py': '',
  'res/things.py': [
    'import contextlib',
    'import functools',
    '',
    '',
    '@contextlib.contextmanager',
    'def opened(name):',
    '    yield name.upper()',
    '',
    '',
    'def shout(name):',
    '    with opened(name) as loud:',
    '        return loud + "!"',
    '',
    '',
    'class Box:',
    '    def __init__(self, value):',
    '        self.value = value',
    '',
    '    @functools.cached_property',
    '    def doubled(self):',
    '        return self.value * 2',
    '',
    '',
    'def label(box):',
    '    return f"<{box.doubled}>"',
    '',
    '',
    'def total(boxes):',
    '    return sum(box.doubled for box in boxes)',
    '',
  ].join('\n'),
  'res/shapes.py': DECORATED,
  'tests/test_shapes.py': [
    'from res.shapes import apply, area, cube, square, volume',
    '',
    '',
    'def test_area():',
    '    assert area(3) == 9',
    '',
    '',
    'def test_square():',
    '    assert square(4) == 16',
    '',
    '',
    'def test_volume():',
    '    assert volume(2) == 8',
    '',
    '',
    'def test_cube():',
    '    assert cube(3) == 27',
    '',
    '',
    'def test_apply():',
    '    assert apply(cube, 1) == 1',
    '',
  ].join('\n'),
  'tests/test_things.py': [
    'from res.things import Box, label, opened, shout, total',
    '',
    '',
    'def test_label():',
    '    assert label(Box(2)) == "<4>"',
    '',
    '',
    'def test_total():',
    '    assert total([Box(1), Box(2)]) == 6',
    '',
    '',
    'def test_doubled():',
    '    assert Box(3).doubled == 6',
    '',
    '',
    'def test_shout():',
    '    assert shout("hi") == "HI!"',
    '',
    '',
    'def test_opened():',
    '    with opened("a") as loud:',
    '        assert loud == "A"',
    '',
  ].join('\n'),
});

describe("the direct caller is the repository's own code", () => {
  it('a cached_property: one cluster per use, the library frame stays in the chain', async () => {
    const { report } = await thmOn(repo, 'res/things.py::Box.doubled', { blank: true });
    expect(Object.fromEntries(report.clusters.map((c) => [c.caller, c.tests]))).toEqual({
      'res/things.py::label': ['tests/test_things.py::test_label'],
      'res/things.py::total': ['tests/test_things.py::test_total'],
      'tests/test_things.py::test_doubled': ['tests/test_things.py::test_doubled'],
    });
    const labelled = report.failing.find((f) => f.nodeid === 'tests/test_things.py::test_label')!;
    expect(labelled.chain).toEqual([
      'tests/test_things.py::test_label',
      'res/things.py::label',
      'functools.py::cached_property.__get__',
      'res/things.py::Box.doubled',
    ]);
    expect(report.selected).toHaveLength(3);
  }, 60_000);

  it("the repository's own decorator: the use of the target, not the wrapper that holds it", async () => {
    const squared = await thmOn(repo, 'res/shapes.py::square', { blank: true, testArgs: ['tests/test_shapes.py'] });
    expect(Object.fromEntries(squared.report.clusters.map((c) => [c.caller, c.tests]))).toEqual({
      'res/shapes.py::area': ['tests/test_shapes.py::test_area'],
      'tests/test_shapes.py::test_square': ['tests/test_shapes.py::test_square'],
    });
    // The wrapper stays in the chain: it is a frame the call went through.
    expect(squared.report.failing.find((f) => f.nodeid === 'tests/test_shapes.py::test_area')!.chain).toEqual([
      'tests/test_shapes.py::test_area',
      'res/shapes.py::area',
      'res/shapes.py::cached.<locals>.wrapper',
      'res/shapes.py::square',
    ]);
    // A decorator object: both of its methods hold the function (through self); a function that
    // is handed the target (apply) holds it too, so its caller, the test, names the use.
    const cubed = await thmOn(repo, 'res/shapes.py::cube', { blank: true, testArgs: ['tests/test_shapes.py'] });
    expect(Object.fromEntries(cubed.report.clusters.map((c) => [c.caller, c.tests]))).toEqual({
      'res/shapes.py::volume': ['tests/test_shapes.py::test_volume'],
      'tests/test_shapes.py::test_apply': ['tests/test_shapes.py::test_apply'],
      'tests/test_shapes.py::test_cube': ['tests/test_shapes.py::test_cube'],
    });
  }, 60_000);

  it("a contextmanager: the function with the `with`, not contextlib's helper", async () => {
    const { report } = await thmOn(repo, 'res/things.py::opened', { blank: true });
    expect(Object.fromEntries(report.clusters.map((c) => [c.caller, c.tests]))).toEqual({
      'res/things.py::shout': ['tests/test_things.py::test_shout'],
      'tests/test_things.py::test_opened': ['tests/test_things.py::test_opened'],
    });
    const shouted = report.failing.find((f) => f.nodeid === 'tests/test_things.py::test_shout')!;
    // Python 3.11's contextlib; the frames between the `with` and the target differ by version.
    expect(shouted.chain.slice(0, 2)).toEqual(['tests/test_things.py::test_shout', 'res/things.py::shout']);
    expect(shouted.chain.slice(2, -1).every((frame) => frame.startsWith('contextlib.py::'))).toBe(true);
    expect(shouted.chain.at(-1)).toBe('res/things.py::opened');
  }, 60_000);
});
