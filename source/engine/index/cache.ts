import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { cacheRoot } from '../util/cache-dir';
import { INDEX_FORMAT, type FileIndex } from './types';

/**
 * A file's entry, keyed by content: copies share one, and the path it holds (that of the file it
 * was made from) is replaced by the path of the file it is used for.
 */
export type CachedEntry = FileIndex;

/** One cache file per repository (by its path), holding entries by content hash. */
export function indexCacheFile(repoDir: string, env: NodeJS.ProcessEnv = process.env): string {
  const key = createHash('sha1').update(resolve(repoDir)).digest('hex').slice(0, 16);
  return join(cacheRoot(env), 'index', `${key}.v${INDEX_FORMAT}.bin`);
}

/** A file as it was when its hash was taken: with the same time and size, its content is taken as unchanged. */
export interface KnownFile {
  mtimeMs: number;
  size: number;
  hash: string;
}

export interface IndexCache {
  entries: Map<string, CachedEntry>;
  /** By path relative to the repository root. */
  files: Map<string, KnownFile>;
  /** When the cache was written (ms since the epoch). */
  writtenAt: number;
}

const empty = (): IndexCache => ({ entries: new Map(), files: new Map(), writtenAt: 0 });

export function loadIndexCache(file: string): IndexCache {
  if (!existsSync(file)) return empty();
  try {
    const data = deserialize(readFileSync(file)) as {
      format: number;
      chunks: Uint8Array[];
      files?: [string, KnownFile][];
      writtenAt?: number;
    };
    if (data.format !== INDEX_FORMAT) return empty();
    const entries = new Map<string, CachedEntry>();
    for (const chunk of data.chunks)
      for (const entry of deserialize(chunk) as CachedEntry[]) entries.set(entry.hash, entry);
    return { entries, files: new Map(data.files ?? []), writtenAt: data.writtenAt ?? 0 };
  } catch {
    return empty(); // A torn or foreign file is only a cold start.
  }
}

/**
 * Written to a temporary name and renamed, so a crash never leaves half a cache. Entries come as
 * serialized chunks (arrays of entries, as the parse workers send them), so a cold build writes
 * the workers' bytes as they are.
 */
export function saveIndexCache(file: string, chunks: Uint8Array[], files: Map<string, KnownFile> = new Map()): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, serialize({ format: INDEX_FORMAT, chunks, files: [...files], writtenAt: Date.now() }));
  renameSync(temporary, file);
}
