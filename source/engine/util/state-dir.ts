import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';

/**
 * tenet's state folder, as the XDG base directory spec has it: `$XDG_STATE_HOME/tenet`, else
 * `~/.local/state/tenet`. Writable for the user under any install (a global `npm i -g` is not),
 * and shared by every project (sessions name their repository).
 */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  // The spec ignores a relative XDG_STATE_HOME.
  const base =
    env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME)
      ? env.XDG_STATE_HOME
      : join(env.HOME || homedir(), '.local', 'state');
  return join(base, 'tenet');
}
