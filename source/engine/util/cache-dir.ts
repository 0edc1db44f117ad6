import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** tenet's cache folder: `$TENET_CACHE_DIR`, else `$XDG_CACHE_HOME/tenet`, else `~/.cache/tenet`. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TENET_CACHE_DIR) return resolve(env.TENET_CACHE_DIR);
  return join(env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache'), 'tenet');
}

/** A path under the home folder written `~/…`, as messages show the cache's files. */
export function fromHome(path: string): string {
  const home = homedir();
  return path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}
