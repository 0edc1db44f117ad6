import { execFile, spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
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

/** Where version managers (pyenv, asdf, mise) keep their shims: scripts that look the interpreter up at each start. */
export function isShimFolder(dir: string): boolean {
  return dir.split('/').includes('shims');
}

const launchers = new Map<string, string[] | undefined>();
const resolving = new Map<string, Promise<string | undefined>>();

/**
 * The interpreter itself behind a version manager's shim (pyenv's is a shell script that runs
 * pyenv: hundreds of milliseconds, up to a second, on every start), asked from `cwd`, where the
 * manager looks for a version file (`.python-version`). Asked once per tenet process and folder.
 * `-I -S`: nothing from `cwd` is imported, no bytecode is written there.
 */
export function shimTarget(shim: string, cwd: string): Promise<string | undefined> {
  const key = `${shim}\0${cwd}`;
  let found = resolving.get(key);
  if (!found) {
    found = new Promise((done) => {
      execFile(shim, ['-I', '-S', '-c', 'import sys; print(sys.executable)'], { cwd, encoding: 'utf8', timeout: 10_000 }, (error, stdout) => {
        const executable = error ? '' : stdout.trim();
        done(executable && findProgram(executable, undefined, '/') ? executable : undefined);
      });
    });
    resolving.set(key, found);
  }
  return found;
}

/** shimTarget, waited for: where nothing prepared the launcher (see prepareLauncher). */
function realInterpreter(python: string): string {
  if (!isShimFolder(dirname(python))) return python;
  const asked = spawnSync(python, ['-I', '-S', '-c', 'import sys; print(sys.executable)'], { cwd: '/', encoding: 'utf8', timeout: 10_000 });
  const executable = asked.status === 0 ? asked.stdout.trim() : '';
  return executable && findProgram(executable, undefined, '/') ? executable : python;
}

const launcherFile = () => join(pythonHelpersDir(), '_tenet_launch.py');

/**
 * The argv prefix that starts a command under tenet's launcher (source/python/_tenet_launch.py:
 * a subreaper that dies with tenet and kills everything the command started, setsid or not), or
 * undefined where it cannot run: not Linux, or no python3 on the sandbox's PATH. Then processes
 * are started directly, as process-group leaders only. The launcher runs on the interpreter
 * behind `python3`, not on its shim (see prepareLauncher).
 */
export function launcherPrefix(path: string | undefined): string[] | undefined {
  if (process.platform !== 'linux') return undefined;
  const key = path ?? '';
  if (!launchers.has(key)) {
    const python = findProgram('python3', path, '/');
    launchers.set(key, python ? [realInterpreter(python), '-I', '-S', launcherFile()] : undefined);
  }
  return launchers.get(key);
}

/**
 * Finds the launcher's interpreter without blocking (launcherPrefix would wait for a shim). Any
 * interpreter runs the launcher: asked from `versionDir`, the shim is asked once for the launcher
 * and the interpreter check both (see checkPython).
 */
export async function prepareLauncher(path: string | undefined, versionDir = '/'): Promise<void> {
  const key = path ?? '';
  if (process.platform !== 'linux' || launchers.has(key)) return;
  const python = findProgram('python3', path, '/');
  const real = python && isShimFolder(dirname(python)) ? await shimTarget(python, versionDir) : python;
  if (!launchers.has(key)) launchers.set(key, real ? [real, '-I', '-S', launcherFile()] : undefined);
}
