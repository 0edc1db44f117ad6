import { join } from 'node:path';
import { folderToUse } from '../util/checked-paths';
import { stateDir } from '../util/state-dir';

/** `--sessions-dir`, else `$TENET_SESSIONS_DIR`, else the config's, else `sessions/` of the state folder. */
export function sessionsDir(flag?: string, env: NodeJS.ProcessEnv = process.env, configured?: string): string {
  return folderToUse(
    flag ?? env.TENET_SESSIONS_DIR ?? configured ?? join(stateDir(env), 'sessions'),
    'the sessions folder',
  );
}

export function eventsFile(root: string, id: string): string {
  return join(root, id, 'events.jsonl');
}

export function catalogFile(root: string): string {
  return join(root, 'index.json');
}

/** Session ids are file names: letters, digits, dashes, dots and underscores. */
export const SESSION_ID = /^[\w.-]+$/;
