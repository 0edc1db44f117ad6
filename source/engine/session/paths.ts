import { join, resolve } from 'node:path';
import { installRoot } from '../assets';

/** `--sessions-dir`, else `$TENET_SESSIONS_DIR`, else the config's, else `sessions/` of the tenet installation. */
export function sessionsDir(flag?: string, env: NodeJS.ProcessEnv = process.env, configured?: string): string {
  return resolve(flag ?? env.TENET_SESSIONS_DIR ?? configured ?? join(installRoot(), 'sessions'));
}

export function eventsFile(root: string, id: string): string {
  return join(root, id, 'events.jsonl');
}

export function catalogFile(root: string): string {
  return join(root, 'index.json');
}

/** Session ids are file names: letters, digits, dashes, dots and underscores. */
export const SESSION_ID = /^[\w.-]+$/;
