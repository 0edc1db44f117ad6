import { execFile, spawnSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, dirname, isAbsolute, join, resolve } from 'node:path';
import { pythonHelpersDir } from '../assets';
import { keepShimAnswer, recalledShimAnswer } from './shim-answers';

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
 * What asks an interpreter for the file behind it. `-I -S`: nothing from the folder it is asked
 * from is imported, no bytecode is written there.
 */
const ASK_EXECUTABLE = ['-I', '-S', '-c', 'import sys; print(sys.executable)'];
const ASK_TIMEOUT_MS = 10_000;

/** The interpreter an ASK_EXECUTABLE run named, if it ran and names a program that exists. */
function askedExecutable(ran: boolean, stdout: string): string | undefined {
  const executable = ran ? stdout.trim() : '';
  return executable && findProgram(executable, undefined, '/') ? executable : undefined;
}

/**
 * The interpreter itself behind a version manager's shim (pyenv's is a shell script that runs
 * pyenv: hundreds of milliseconds, up to a second, on every start), asked from `cwd`, where the
 * manager looks for a version file (`.python-version`), under `env` (the sandbox's: no secrets).
 * Asked once per tenet process and folder, and pyenv's answer is kept until what it decides from
 * changes (see shim-answers.ts).
 */
export function shimTarget(shim: string, cwd: string, env: NodeJS.ProcessEnv): Promise<string | undefined> {
  const key = `${shim}\0${cwd}`;
  let found = resolving.get(key);
  if (!found) {
    const recalled = recalledShimAnswer(shim, cwd, env);
    found = recalled
      ? Promise.resolve(recalled)
      : new Promise((done) => {
          execFile(shim, ASK_EXECUTABLE, { cwd, env, encoding: 'utf8', timeout: ASK_TIMEOUT_MS }, (error, stdout) => {
            const executable = askedExecutable(!error, stdout);
            if (executable) keepShimAnswer(shim, cwd, env, executable);
            done(executable);
          });
        });
    resolving.set(key, found);
  }
  return found;
}

/** shimTarget, waited for: where nothing prepared the launcher (see prepareLauncher). */
function realInterpreter(python: string, env: NodeJS.ProcessEnv): string {
  if (!isShimFolder(dirname(python))) return python;
  const recalled = recalledShimAnswer(python, '/', env);
  if (recalled) return recalled;
  const asked = spawnSync(python, ASK_EXECUTABLE, { cwd: '/', env, encoding: 'utf8', timeout: ASK_TIMEOUT_MS });
  const executable = askedExecutable(asked.status === 0, asked.stdout ?? '');
  if (executable) keepShimAnswer(python, '/', env, executable);
  return executable ?? python;
}

const launcherFile = () => join(pythonHelpersDir(), '_tenet_launch.py');

/**
 * The argv prefix that starts a command under tenet's launcher (source/python/_tenet_launch.py:
 * a subreaper that dies with tenet and kills everything the command started, setsid or not), or
 * undefined where it cannot run: not Linux, or no python3 on the sandbox's PATH. Then processes
 * are started directly, as process-group leaders only. The launcher runs on the interpreter
 * behind `python3`, not on its shim (see prepareLauncher).
 */
export function launcherPrefix(env: NodeJS.ProcessEnv): string[] | undefined {
  if (process.platform !== 'linux') return undefined;
  const key = env.PATH ?? '';
  if (!launchers.has(key)) {
    const python = findProgram('python3', env.PATH, '/');
    launchers.set(key, python ? [realInterpreter(python, env), '-I', '-S', launcherFile()] : undefined);
  }
  return launchers.get(key);
}

/**
 * Finds the launcher's interpreter without blocking (launcherPrefix would wait for a shim). Any
 * interpreter runs the launcher: asked from `versionDir`, the shim is asked once for the launcher
 * and the interpreter check both (see checkPython).
 */
export async function prepareLauncher(env: NodeJS.ProcessEnv, versionDir = '/'): Promise<void> {
  const key = env.PATH ?? '';
  if (process.platform !== 'linux' || launchers.has(key)) return;
  const python = findProgram('python3', env.PATH, '/');
  const real = python && isShimFolder(dirname(python)) ? await shimTarget(python, versionDir, env) : python;
  if (!launchers.has(key)) launchers.set(key, real ? [real, '-I', '-S', launcherFile()] : undefined);
}
