import { loadConfig } from '../engine/config/config';
import { sessionsDir } from '../engine/session/paths';
import { printable } from '../engine/terminal-text';

/** The sessions folder: --sessions-dir, else $TENET_SESSIONS_DIR, else the config's, else the user's state folder. */
export const root = async (dir?: string) => sessionsDir(dir, process.env, (await loadConfig(undefined)).sessionsDir);

export function warn(warnings: string[]): void {
  for (const warning of warnings) process.stderr.write(`tenet: warning: ${printable(warning)}\n`);
}
