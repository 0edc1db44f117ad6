import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { thmOn } from '../helpers/thm';

/**
 * THM clusters failing tests by the function that calls the target, because each caller shows
 * another use of it (TENET paper). A target the standard library calls for its user, a
 * `functools.cached_property` or a `contextlib.contextmanager` generator, has that library's
 * plumbing as its nearest frame in every chain: the caller is the nearest frame of the
 * repository's own code, so each use is a cluster of its own.
 */
const scratch = mkdtempSync(join(tmpdir(), 'tenet-library-callers-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const repo = join(scratch, 'res');
const FILES: Record<string, string> = {
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
};
for (const [path, text] of Object.entries(FILES)) {
  mkdirSync(dirname(join(repo, path)), { recursive: true });
  writeFileSync(join(repo, path), text);
}

describe("the direct caller is the repository's own code", () => {
  it('a cached_property: one cluster per use, the library frame stays in the chain', async () => {
    const { report } = await thmOn(repo, 'res/things.py::Box.doubled', { blank: true });
    expect(Object.fromEntries(report.clusters.map((c) => [c.caller, c.tests]))).toEqual({
      'res/things.py::label': ['tests/test_things.py::test_label'],
      'res/things.py::total': ['tests/test_things.py::test_total'],
      'tests/test_things.py::test_doubled': ['tests/test_things.py::test_doubled'],
    });
    const labelled = report.failing.find((f) => f.nodeid === 'tests/test_things.py::test_label')!;
    expect(labelled.chain).toEqual(['tests/test_things.py::test_label', 'res/things.py::label', 'functools.py::cached_property.__get__', 'res/things.py::Box.doubled']);
    expect(report.selected).toHaveLength(3);
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
