import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { checkTarget, targetChoices } from '../../source/commands/start';
import { buildIndex } from '../../source/engine/index/build-index';
import { resolveTarget } from '../../source/engine/task/resolve-target';

const repo = mkdtempSync(join(tmpdir(), 'tenet-start-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));
mkdirSync(join(repo, 'pkg'));
writeFileSync(join(repo, 'pkg', '__init__.py'), '');
writeFileSync(
  join(repo, 'pkg', 'shapes.py'),
  [
    'class Box:',
    '    @property',
    '    def size(self):',
    '        return self._size',
    '',
    '    @size.setter',
    '    def size(self, value):',
    '        self._size = value',
    '',
    '',
    'def area(w, h):',
    '    """The area."""',
    '    return w * h',
    '',
    '',
    'def volume(w, h, d):',
    '    """The volume."""',
    '    raise NotImplementedError',
    '',
  ].join('\n'),
);

describe("the start screen's targets, from the repository", () => {
  it('a name defined twice is a row per definition, each with @LINE, and each resolves to its own', async () => {
    const { index } = await buildIndex(repo, { cacheFile: null });
    const rows = targetChoices(index.files);
    expect(rows).toEqual([
      'pkg/shapes.py::Box.size@3',
      'pkg/shapes.py::Box.size@7',
      'pkg/shapes.py::area',
      'pkg/shapes.py::volume',
    ]);
    expect((await resolveTarget(repo, rows[0]!)).startLine).toBeLessThanOrEqual(3);
    expect((await resolveTarget(repo, rows[1]!)).startLine).toBeGreaterThan(4);
    await expect(resolveTarget(repo, 'pkg/shapes.py::Box.size')).rejects.toThrow(/ambiguous/);
  });

  it('tells a stub from a real body before a session starts, and names a target that cannot be one', async () => {
    expect(await checkTarget(repo, 'pkg/shapes.py::area')).toEqual({ body: 'implemented' });
    expect(await checkTarget(repo, 'pkg/shapes.py::volume')).toEqual({ body: 'stub' });
    expect(await checkTarget(repo, 'pkg/shapes.py::Box.size@7')).toEqual({ body: 'implemented' });
    expect(await checkTarget(repo, 'pkg/shapes.py::Box.size')).toMatchObject({
      problem: expect.stringMatching(/ambiguous/),
    });
  });
});
