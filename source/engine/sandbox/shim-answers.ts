import { statSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { fileSignature, fingerprintOf, keepAnswer, keptAnswer, variablesOf } from '../util/kept-answers';

/**
 * pyenv's answers to "which interpreter is python3 here", kept between runs: its shim is a shell
 * script that runs a dozen more (about half a second on every start). An answer holds while
 * everything pyenv decides from is as it was: its environment variables and PATH, the
 * `.python-version` file it reads, the global version file, the installed versions, the shim
 * itself, and the interpreter it named. Other version managers read
 * more places than that (mise's config folders, asdf's plugins): they are asked every time.
 */

const FILE = 'shim-answers.json';

/** pyenv's root when `shim` is one of its shims (`<root>/shims/<name>`, with `<root>/libexec/pyenv`). */
function pyenvRoot(shim: string, env: NodeJS.ProcessEnv): string | undefined {
  const shims = dirname(shim);
  if (basename(shims) !== 'shims') return undefined;
  const root = dirname(shims);
  if (fileSignature(join(root, 'libexec', 'pyenv')) === '-') return undefined;
  // A PYENV_ROOT elsewhere than the shim's own folder: the shim says which wins; leave it to the shim.
  if (env.PYENV_ROOT && resolve(env.PYENV_ROOT) !== root) return undefined;
  return root;
}

/** As pyenv's `[ -f ]`: a regular file, through links; an unreadable path or a PYENV_DIR that is a file is none. */
function isFile(path: string): boolean {
  try {
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/**
 * The `.python-version` file pyenv reads when asked from `cwd`, as `pyenv version-file` finds it:
 * the first one from PYENV_DIR (which pyenv sets to the folder it is asked from) up to the root,
 * then from `cwd` if that is elsewhere; undefined where none is, and the global version decides.
 */
function localVersionFile(cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  const starts = [resolve(env.PYENV_DIR ?? cwd), resolve(cwd)];
  for (const start of new Set(starts))
    for (let dir = start; ; dir = dirname(dir)) {
      const file = join(dir, '.python-version');
      if (isFile(file)) return file;
      if (dirname(dir) === dir) break;
    }
  return undefined;
}

/**
 * What pyenv's answer from `cwd` is kept under, and everything it depends on; undefined where the
 * shim is not pyenv's. The folder itself is not part of it: every folder that reads the same
 * version file (or none) gets the same answer, so a fresh copy or worktree of a project, or a
 * temporary folder, finds the answer kept.
 */
function question(shim: string, cwd: string, env: NodeJS.ProcessEnv): { key: string; print: string } | undefined {
  const root = pyenvRoot(shim, env);
  if (!root) return undefined;
  const local = localVersionFile(cwd, env);
  const print = fingerprintOf([
    shim,
    local ?? '',
    ...variablesOf(env, (name) => name.startsWith('PYENV') || name === 'PATH'),
    local ? fileSignature(local) : '-',
    fileSignature(join(root, 'version')),
    fileSignature(join(root, 'versions')),
    fileSignature(shim),
  ]);
  return { key: `${shim}\0${local ?? ''}`, print };
}

/** The interpreter pyenv named for `shim` asked from `cwd` last time, if nothing it decides from changed since. */
export function recalledShimAnswer(shim: string, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  const asked = question(shim, cwd, env);
  if (!asked) return undefined;
  const answer = keptAnswer<string>(FILE, asked.key, env);
  if (answer?.fingerprint !== asked.print || typeof answer.value !== 'string') return undefined;
  // The interpreter itself may have gone (a version uninstalled and built again).
  return fileSignature(answer.value) !== '-' ? answer.value : undefined;
}

/** Keeps pyenv's answer for the next run; nothing where the shim is not pyenv's. */
export function keepShimAnswer(shim: string, cwd: string, env: NodeJS.ProcessEnv, executable: string): void {
  const asked = question(shim, cwd, env);
  if (asked) keepAnswer(FILE, asked.key, asked.print, executable, env);
}
