import { execFileSync } from 'node:child_process';
import { appendFileSync, cpSync, existsSync, mkdtempSync, rmSync } from 'node:fs';
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
    expect(warm.index.callsIn('geo/shapes.py', ['area']).map((c) => `${c.enclosing}:${c.receiver}:${c.line}`)).toEqual(['Shape.describe:self:16', 'area:other:56', 'total_area:none:61']);
    appendFileSync(join(repo.dir, 'geo', 'report.py'), '\n\ndef added():\n    return 1\n');
    const edited = await buildIndex(repo.dir, { cacheFile });
    expect(edited.stats).toMatchObject({ files: 8, parsed: 1, fromCache: 7 });
    expect(edited.index.file('geo/report.py')!.functions.map((f) => f.name)).toContain('added');
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
    const networkx = execFileSync('python3', ['-c', 'import networkx; print(networkx.__path__[0])'], { encoding: 'utf8' }).trim();
    dir = mkdtempSync(join(tmpdir(), 'tenet-index-'));
    cpSync(join(networkx, 'algorithms'), join(dir, 'networkx', 'algorithms'), { recursive: true, filter: (p) => !p.includes('__pycache__') });
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('index a real repository exactly as one thread does', async () => {
    expect(workerScript(), 'npm test builds dist/index-worker.js before the tests').toBeDefined();
    const threaded = await buildIndex(dir, { cacheFile: null, workers: 2 });
    const single = await buildIndex(dir, { cacheFile: null, workers: 1 });
    expect(threaded.stats.files).toBeGreaterThan(300);
    expect(threaded.index.files).toEqual(single.index.files);
  });
});
