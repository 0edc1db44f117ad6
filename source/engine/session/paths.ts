import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { folderToUse } from '../util/checked-paths';

/**
 * tenet's state folder, as the XDG base directory spec has it: `$XDG_STATE_HOME/tenet`, else
 * `~/.local/state/tenet`. Writable for the user under any install (a global `npm i -g` is not),
 * and shared by every project (sessions name their repository).
 */
export function stateDir(env: NodeJS.ProcessEnv = process.env): string {
  // The spec ignores a relative XDG_STATE_HOME.
  const base = env.XDG_STATE_HOME && isAbsolute(env.XDG_STATE_HOME) ? env.XDG_STATE_HOME : join(env.HOME || homedir(), '.local', 'state');
  return join(base, 'tenet');
}

/** `--sessions-dir`, else `$TENET_SESSIONS_DIR`, else the config's, else `sessions/` of the state folder. */
export function sessionsDir(flag?: string, env: NodeJS.ProcessEnv = process.env, configured?: string): string {
  return folderToUse(flag ?? env.TENET_SESSIONS_DIR ?? configured ?? join(stateDir(env), 'sessions'), 'the sessions folder');
}

export function eventsFile(root: string, id: string): string {
  return join(root, id, 'events.jsonl');
}

export function catalogFile(root: string): string {
  return join(root, 'index.json');
}

/** Session ids are file names: letters, digits, dashes, dots and underscores. */
export const SESSION_ID = /^[\w.-]+$/;
