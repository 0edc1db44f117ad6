import { statSync } from 'node:fs';
import { join } from 'node:path';
import { serialize } from 'node:v8';
import { readInsideSync } from '../workspace/inside';
import { listPythonFiles } from '../workspace/walk';
import {
  indexCacheFile,
  loadIndexCache,
  saveIndexCache,
  type CachedEntry,
  type IndexCache,
  type KnownFile,
} from './cache';
import { hashBytes, tooLargeToIndex, type SkippedFile } from './parse-file';
import { PARSE_INLINE_BYTES, ParsePool } from './parse-pool';
import { RepoIndex, type FileSignature } from './repo-index';
import type { FileIndex } from './types';

/** Files changed this close to the cache's writing are read again next time (see buildIndex). */
const RACY_MS = 2000;

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
  /** Files read and hashed (the others were known unchanged by time and size). */
  hashed: number;
  ms: number;
  /** Files left out of the index (too large, or the parser failed on them), and why. */
  skipped: SkippedFile[];
  /** Where the time went, in ms: phases run one after another on the calling thread (parsing overlaps read). */
  phases: { loadCache: number; list: number; read: number; parse: number; saveCache: number };
}

/**
 * Indexes every `.py` file under root. Entries are cached by content hash, so an edit re-parses
 * only the edited file; a warm start reads only the files whose time or size moved since.
 */
export async function buildIndex(
  root: string,
  options: BuildOptions = {},
): Promise<{ index: RepoIndex; stats: BuildStats }> {
  const started = Date.now();
  let mark = performance.now();
  const lap = () => {
    const now = performance.now();
    const ms = now - mark;
    mark = now;
    return Math.round(ms);
  };
  const cacheFile = options.cacheFile === undefined ? indexCacheFile(options.cacheKeyDir ?? root) : options.cacheFile;
  const {
    entries: cache,
    files: known,
    writtenAt,
  }: IndexCache = cacheFile
    ? loadIndexCache(cacheFile)
    : { entries: new Map<string, CachedEntry>(), files: new Map(), writtenAt: 0 };
  const loadCache = lap();
  // Largest files first, so the threads end together; the pool starts before the hashing so the
  // workers load the grammar meanwhile.
  const signatures = new Map<string, FileSignature>();
  const files = listPythonFiles(root)
    .map((path) => {
      const { mtimeMs, size } = statSync(join(root, path));
      signatures.set(path, { mtimeMs, size });
      return { path, absolute: join(root, path), size };
    })
    .sort((a, b) => b.size - a.size);
  const list = lap();
  // Workers only for much to parse: not with a warm cache, nor for a small repository.
  const warm = cache.size && cache.size >= files.length / 2;
  // What will be parsed: a file too large to index (left out below) starts no worker.
  const bytes = files.reduce((sum, file) => sum + (tooLargeToIndex(file.path, file.size) ? 0 : file.size), 0);
  const pool = new ParsePool(warm ? 1 : (options.workers ?? (bytes <= PARSE_INLINE_BYTES ? 1 : undefined)));
  let hashedCount = 0;
  const seen = new Map<string, KnownFile>();
  const reused: FileIndex[] = [];
  const tooLarge: SkippedFile[] = [];
  for (const file of files) {
    const { mtimeMs, size } = signatures.get(file.path)!;
    const skip = tooLargeToIndex(file.path, size);
    if (skip) {
      tooLarge.push(skip);
      continue;
    }
    if (!cache.size) {
      // Nothing to look up: the workers read and hash the file themselves.
      pool.add(file);
      continue;
    }
    // Unchanged since the cache was written (same time and size), so not read again: the time must
    // be older than the write by a margin, or an edit within the clock's resolution could hide.
    const before = known.get(file.path);
    let hash: string;
    if (
      before &&
      before.mtimeMs === mtimeMs &&
      before.size === size &&
      mtimeMs < writtenAt - RACY_MS &&
      cache.has(before.hash)
    )
      hash = before.hash;
    else {
      hash = hashBytes(readInsideSync(root, file.path));
      hashedCount++;
    }
    const cached = cache.get(hash);
    if (cached) reused.push({ ...cached, path: file.path });
    else pool.add({ ...file, hash });
  }
  const read = lap();
  const parsed = await pool.finish();
  const entries = [...reused, ...parsed.entries];
  if (!cache.size) hashedCount = parsed.entries.length;
  const parse = lap();
  if (cacheFile && (parsed.entries.length || hashedCount)) {
    for (const entry of entries) seen.set(entry.path, { ...signatures.get(entry.path)!, hash: entry.hash });
    // The workers' chunks as they are; what was reused, or parsed on this thread, is serialized here.
    const chunks = [...parsed.chunks];
    const unsent = parsed.chunks.length ? reused : entries;
    if (unsent.length) chunks.push(serialize(unsent));
    saveIndexCache(cacheFile, chunks, seen);
  }
  const saveCache = lap();
  const skipped = [...tooLarge, ...parsed.skipped];
  return {
    index: new RepoIndex(root, entries, signatures, skipped),
    stats: {
      files: entries.length,
      parsed: parsed.entries.length,
      fromCache: reused.length,
      hashed: hashedCount,
      ms: Date.now() - started,
      skipped,
      phases: { loadCache, list, read, parse, saveCache },
    },
  };
}
