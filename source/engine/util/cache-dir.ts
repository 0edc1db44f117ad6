import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

/** tenet's cache folder: `$TENET_CACHE_DIR`, else `$XDG_CACHE_HOME/tenet`, else `~/.cache/tenet`. */
export function cacheRoot(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TENET_CACHE_DIR) return resolve(env.TENET_CACHE_DIR);
  return join(env.XDG_CACHE_HOME ? resolve(env.XDG_CACHE_HOME) : join(homedir(), '.cache'), 'tenet');
}
