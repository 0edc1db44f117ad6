import { basename, dirname, join, resolve } from 'node:path';
import { fileSignature, fingerprintOf, keepAnswer, keptAnswer, variablesOf } from '../util/kept-answers';

/**
 * pyenv's answers to "which interpreter is python3 here", kept between runs: its shim is a shell
 * script that runs a dozen more (about half a second on every start). An answer holds while
 * everything pyenv decides from is as it was: its environment variables and PATH, the
 * `.python-version` files from the folder asked from up to the root, the global version file, the
 * installed versions, the shim itself, and the interpreter it named. Other version managers read
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

/** Everything pyenv's answer from `cwd` depends on; undefined where the shim is not pyenv's. */
function fingerprint(shim: string, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  const root = pyenvRoot(shim, env);
  if (!root) return undefined;
  const variables = variablesOf(env, (name) => name.startsWith('PYENV') || name === 'PATH');
  const versionFiles: string[] = [];
  for (let dir = resolve(env.PYENV_DIR ?? cwd); ; dir = dirname(dir)) {
    versionFiles.push(fileSignature(join(dir, '.python-version')));
    if (dirname(dir) === dir) break;
  }
  return fingerprintOf([
    shim,
    cwd,
    ...variables,
    ...versionFiles,
    fileSignature(join(root, 'version')),
    fileSignature(join(root, 'versions')),
    fileSignature(shim),
  ]);
}

/** The interpreter pyenv named for `shim` asked from `cwd` last time, if nothing it decides from changed since. */
export function recalledShimAnswer(shim: string, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  const print = fingerprint(shim, cwd, env);
  if (!print) return undefined;
  const answer = keptAnswer<string>(FILE, `${shim}\0${cwd}`, env);
  if (answer?.fingerprint !== print || typeof answer.value !== 'string') return undefined;
  // The interpreter itself may have gone (a version uninstalled and built again).
  return fileSignature(answer.value) !== '-' ? answer.value : undefined;
}

/** Keeps pyenv's answer for the next run; nothing where the shim is not pyenv's. */
export function keepShimAnswer(shim: string, cwd: string, env: NodeJS.ProcessEnv, executable: string): void {
  const print = fingerprint(shim, cwd, env);
  if (print) keepAnswer(FILE, `${shim}\0${cwd}`, print, executable, env);
}
