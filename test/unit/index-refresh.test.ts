import { appendFileSync, readFileSync, rmSync, utimesSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { buildIndex } from '../../source/engine/index/build-index';
import type { RepoIndex } from '../../source/engine/index/repo-index';
import { copyFixture } from '../helpers/fixtures';

describe('the index follows the workspace', () => {
  let repo: ReturnType<typeof copyFixture>;
  let index: RepoIndex;
  beforeEach(async () => {
    repo = copyFixture('toolbox');
    index = (await buildIndex(repo.dir, { cacheFile: null, workers: 1 })).index;
  });
  afterEach(() => repo.cleanup());

  it('re-indexes changed and new files and drops deleted ones, on refresh only', async () => {
    const shapes = join(repo.dir, 'geo', 'shapes.py');
    expect(index.lines('geo/shapes.py')[51]).toBe('def area(shape):');
    writeFileSync(shapes, readFileSync(shapes, 'utf8').replace('def area(shape):', 'def careful_area(shape):'));
    writeFileSync(join(repo.dir, 'geo', 'fresh.py'), 'def brand_new():\n    return helper()\n');
    rmSync(join(repo.dir, 'geo', 'broken.py'));
    // Nothing changes until the index is told files may have changed.
    expect(await index.refreshIfStale()).toBeUndefined();
    expect(index.functionsNamed('careful_area')).toEqual([]);
    index.markStale();
    expect(await index.refreshIfStale()).toEqual({
      added: ['geo/fresh.py'],
      changed: ['geo/shapes.py'],
      removed: ['geo/broken.py'],
    });
    expect(index.isStale).toBe(false);
    expect(index.lines('geo/shapes.py')[51]).toBe('def careful_area(shape):');
    expect(index.functionsNamed('careful_area').map((f) => f.file.path)).toEqual(['geo/shapes.py']);
    expect(
      index.functionsNamed('area').some((f) => f.file.path === 'geo/shapes.py' && f.entry.className === null),
    ).toBe(false);
    expect(index.functionsNamed('brand_new').map((f) => f.entry.qualname)).toEqual(['brand_new']);
    expect(index.callsIn('geo/fresh.py').map((c) => `${c.enclosing}:${c.name}`)).toEqual(['brand_new:helper']);
    expect(index.file('geo/broken.py')).toBeUndefined();
    expect(index.files.map((f) => f.path)).not.toContain('geo/broken.py');
  });

  it('reads a touched but unchanged file again without re-parsing it', async () => {
    const report = join(repo.dir, 'geo', 'report.py');
    const before = index.file('geo/report.py');
    utimesSync(report, new Date(), new Date(Date.now() + 5000));
    expect(await index.refresh()).toEqual({ added: [], changed: [], removed: [] });
    expect(index.file('geo/report.py')).toBe(before);
    appendFileSync(report, '\n# the end\n');
    expect((await index.refresh()).changed).toEqual(['geo/report.py']);
    expect(index.lines('geo/report.py').at(-1)).toBe('# the end');
    expect(await index.refresh()).toEqual({ added: [], changed: [], removed: [] });
  });
});
