import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { listPythonFiles } from '../workspace/walk';
import { indexCacheFile, loadIndexCache, saveIndexCache, type CachedEntry } from './cache';
import { hashBytes } from './parse-file';
import { ParsePool } from './parse-pool';
import { RepoIndex, type FileSignature } from './repo-index';
import type { FileIndex } from './types';

export interface BuildOptions {
  /** Cache file (default: per repository under the user cache folder); null disables caching. */
  cacheFile?: string | null;
  /** The user's checkout the workspace was copied from: names the cache. Default: the root itself. */
  cacheKeyDir?: string;
  workers?: number;
}

export interface BuildStats {
  files: number;
  parsed: number;
  fromCache: number;
  ms: number;
}

/**
 * Indexes every `.py` file under root. Entries are cached by content hash, so a warm start only
 * reads and hashes the files, and an edit re-parses only the edited file.
 */
export async function buildIndex(root: string, options: BuildOptions = {}): Promise<{ index: RepoIndex; stats: BuildStats }> {
  const started = Date.now();
  const cacheFile = options.cacheFile === undefined ? indexCacheFile(options.cacheKeyDir ?? root) : options.cacheFile;
  const cache = cacheFile ? loadIndexCache(cacheFile) : new Map<string, CachedEntry>();
  const entries: FileIndex[] = [];
  // Largest files first, so the threads end together; the pool starts before the hashing so the
  // workers load the grammar meanwhile. With a warm cache, not starting them at all is cheaper.
  const signatures = new Map<string, FileSignature>();
  const files = listPythonFiles(root)
    .map((path) => {
      const { mtimeMs, size } = statSync(join(root, path));
      signatures.set(path, { mtimeMs, size });
      return { path, absolute: join(root, path), size };
    })
    .sort((a, b) => b.size - a.size);
  const pool = new ParsePool(cache.size && cache.size >= files.length / 2 ? 1 : (options.workers ?? undefined));
  let parsedCount = 0;
  for (const file of files) {
    const bytes = readFileSync(file.absolute);
    const cached = cache.get(hashBytes(bytes));
    if (cached) entries.push({ ...cached, path: file.path });
    else {
      pool.add(file);
      parsedCount++;
    }
  }
  const parsed = await pool.finish();
  entries.push(...parsed);
  if (cacheFile && parsed.length) {
    const fresh = new Map<string, CachedEntry>();
    for (const { path: _path, ...entry } of entries) fresh.set(entry.hash, entry);
    saveIndexCache(cacheFile, fresh);
  }
  return {
    index: new RepoIndex(root, entries, signatures),
    stats: { files: entries.length, parsed: parsedCount, fromCache: entries.length - parsedCount, ms: Date.now() - started },
  };
}
