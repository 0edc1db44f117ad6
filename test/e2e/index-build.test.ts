import { execFileSync } from 'node:child_process';
import {
  appendFileSync,
  cpSync,
  existsSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  utimesSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildIndex } from '../../source/engine/index/build-index';
import { workerScript } from '../../source/engine/index/parse-pool';
import { copyFixture } from '../helpers/fixtures';

describe('the index cache', () => {
  let repo: ReturnType<typeof copyFixture>;
  let cacheFile: string;
  beforeAll(() => {
    repo = copyFixture('toolbox');
    cacheFile = join(repo.dir, '..', 'index.bin');
  });
  afterAll(() => repo.cleanup());

  it('parses everything cold, nothing warm, and only the edited file after an edit', async () => {
    const cold = await buildIndex(repo.dir, { cacheFile });
    expect(cold.stats).toMatchObject({ files: 8, parsed: 8, fromCache: 0 });
    expect(existsSync(cacheFile)).toBe(true);
    const warm = await buildIndex(repo.dir, { cacheFile });
    expect(warm.stats).toMatchObject({ files: 8, parsed: 0, fromCache: 8 });
    expect(warm.index.file('geo/shapes.py')).toEqual(cold.index.file('geo/shapes.py'));
    // Call sites come from the cache too: nothing is parsed when a usage search first needs them.
    expect(warm.index.callsIn('geo/shapes.py', ['area']).map((c) => `${c.enclosing}:${c.receiver}:${c.line}`)).toEqual([
      'Shape.describe:self:16',
      'area:other:56',
      'total_area:none:61',
    ]);
    appendFileSync(join(repo.dir, 'geo', 'report.py'), '\n\ndef added():\n    return 1\n');
    const edited = await buildIndex(repo.dir, { cacheFile });
    expect(edited.stats).toMatchObject({ files: 8, parsed: 1, fromCache: 7 });
    expect(edited.index.file('geo/report.py')!.functions.map((f) => f.name)).toContain('added');
  });

  it('reads only files whose time or size moved since the cache was written', async () => {
    // Files older than the cache (as in a checkout): their time and size stand for their content.
    const old = new Date(Date.now() - 3600_000);
    const age = (dir: string): void => {
      for (const entry of readdirSync(dir, { withFileTypes: true })) {
        if (entry.isDirectory()) age(join(dir, entry.name));
        else utimesSync(join(dir, entry.name), old, old);
      }
    };
    age(repo.dir);
    const own = join(repo.dir, '..', 'aged.bin');
    expect((await buildIndex(repo.dir, { cacheFile: own })).stats).toMatchObject({ parsed: 8, hashed: 8 });
    expect((await buildIndex(repo.dir, { cacheFile: own })).stats).toMatchObject({
      parsed: 0,
      hashed: 0,
      fromCache: 8,
    });
    // An edit of the same size, at an old time again, is still seen: the time moved.
    const shapes = join(repo.dir, 'geo', 'shapes.py');
    writeFileSync(shapes, readFileSync(shapes, 'utf8').replace('def area(shape):', 'def aera(shape):'));
    utimesSync(shapes, old, new Date(old.getTime() + 1000));
    const edited = await buildIndex(repo.dir, { cacheFile: own });
    expect(edited.stats).toMatchObject({ parsed: 1, hashed: 1 });
    expect(edited.index.functionsNamed('aera').map((f) => f.file.path)).toEqual(['geo/shapes.py']);
  });

  it('survives a corrupt cache file as a cold start', async () => {
    appendFileSync(cacheFile, 'garbage');
    execFileSync('truncate', ['-s', '100', cacheFile]);
    const rebuilt = await buildIndex(repo.dir, { cacheFile });
    expect(rebuilt.stats.parsed).toBe(8);
  });
});

describe('worker threads', () => {
  let dir: string;
  beforeAll(() => {
    const networkx = execFileSync('python3', ['-c', 'import networkx; print(networkx.__path__[0])'], {
      encoding: 'utf8',
    }).trim();
    dir = mkdtempSync(join(tmpdir(), 'tenet-index-'));
    cpSync(join(networkx, 'algorithms'), join(dir, 'networkx', 'algorithms'), {
      recursive: true,
      filter: (p) => !p.includes('__pycache__'),
    });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('index a real repository exactly as one thread does', async () => {
    expect(workerScript(), 'npm test builds dist/index-worker.js before the tests').toBeDefined();
    const threaded = await buildIndex(dir, { cacheFile: null, workers: 2 });
    const single = await buildIndex(dir, { cacheFile: null, workers: 1 });
    expect(threaded.stats.files).toBeGreaterThan(300);
    expect(threaded.index.files).toEqual(single.index.files);
  });

  it('cache the workers’ entries as sent, with the entries a partial cache had', async () => {
    const seed = mkdtempSync(join(tmpdir(), 'tenet-index-seed-'));
    const cacheFile = join(seed, 'index.bin');
    try {
      const one = 'networkx/algorithms/cycles.py';
      cpSync(join(dir, one), join(seed, one));
      expect((await buildIndex(seed, { cacheFile })).stats).toMatchObject({ files: 1, parsed: 1 });
      const partial = await buildIndex(dir, { cacheFile, workers: 2 });
      expect(partial.stats.fromCache).toBe(1);
      expect(partial.stats.parsed).toBe(partial.stats.files - 1);
      const warm = await buildIndex(dir, { cacheFile });
      expect(warm.stats).toMatchObject({ parsed: 0, fromCache: partial.stats.files });
      expect(warm.index.files).toEqual(partial.index.files);
    } finally {
      rmSync(seed, { recursive: true, force: true });
    }
  });
});
