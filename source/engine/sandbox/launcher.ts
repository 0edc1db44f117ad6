import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { pythonHelpersDir } from '../assets';

/** Whether `command` names a program that can run: a path, or a name found on `path`. */
export function findProgram(command: string, path: string | undefined, cwd: string): string | undefined {
  const runnable = (file: string) => {
    try {
      accessSync(file, constants.X_OK);
      return statSync(file).isFile();
    } catch {
      return false;
    }
  };
  if (command.includes('/')) {
    const file = isAbsolute(command) ? command : resolve(cwd, command);
    return runnable(file) ? file : undefined;
  }
  for (const dir of (path ?? '').split(delimiter)) {
    if (dir && runnable(join(dir, command))) return join(dir, command);
  }
  return undefined;
}

const launchers = new Map<string, string[] | undefined>();

/**
 * The argv prefix that starts a command under tenet's launcher (source/python/_tenet_launch.py:
 * a subreaper that dies with tenet and kills everything the command started, setsid or not), or
 * undefined where it cannot run: not Linux, or no python3 on the sandbox's PATH. Then processes
 * are started directly, as process-group leaders only.
 */
export function launcherPrefix(path: string | undefined): string[] | undefined {
  if (process.platform !== 'linux') return undefined;
  const key = path ?? '';
  if (!launchers.has(key)) {
    const python = findProgram('python3', path, '/');
    launchers.set(key, python ? [python, '-I', '-S', join(pythonHelpersDir(), '_tenet_launch.py')] : undefined);
  }
  return launchers.get(key);
}
