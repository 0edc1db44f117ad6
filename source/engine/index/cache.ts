import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { INDEX_FORMAT, type FileIndex } from './types';

/** A file's entry without its path: the cache is keyed by content, so copies share an entry. */
export type CachedEntry = Omit<FileIndex, 'path'>;

/** `$TENET_CACHE_DIR`, else `$XDG_CACHE_HOME/tenet`, else `~/.cache/tenet`. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TENET_CACHE_DIR) return resolve(env.TENET_CACHE_DIR);
  return join(env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache'), 'tenet');
}

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
    const data = deserialize(readFileSync(file)) as { format: number; entries: [string, CachedEntry][]; files?: [string, KnownFile][]; writtenAt?: number };
    if (data.format !== INDEX_FORMAT) return empty();
    return { entries: new Map(data.entries), files: new Map(data.files ?? []), writtenAt: data.writtenAt ?? 0 };
  } catch {
    return empty(); // A torn or foreign file is only a cold start.
  }
}

/** Written to a temporary name and renamed, so a crash never leaves half a cache. */
export function saveIndexCache(file: string, entries: Map<string, CachedEntry>, files: Map<string, KnownFile> = new Map()): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  writeFileSync(temporary, serialize({ format: INDEX_FORMAT, entries: [...entries], files: [...files], writtenAt: Date.now() }));
  renameSync(temporary, file);
}
