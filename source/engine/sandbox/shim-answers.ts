import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, statSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, resolve } from 'node:path';
import { stateDir } from '../session/paths';

/**
 * pyenv's answers to "which interpreter is python3 here", kept between runs: its shim is a shell
 * script that runs a dozen more (about half a second on every start). An answer holds while
 * everything pyenv decides from is as it was: its environment variables and PATH, the
 * `.python-version` files from the folder asked from up to the root, the global version file, the
 * installed versions, the shim itself, and the interpreter it named. Other version managers read
 * more places than that (mise's config folders, asdf's plugins): they are asked every time.
 */

const FILE = 'shim-answers.json';
/** Answers kept: one per interpreter shim and repository folder. */
const MAX_ANSWERS = 200;

interface Answer {
  fingerprint: string;
  executable: string;
  at: number;
}

/** pyenv's root when `shim` is one of its shims (`<root>/shims/<name>`, with `<root>/libexec/pyenv`). */
function pyenvRoot(shim: string, env: NodeJS.ProcessEnv): string | undefined {
  const shims = dirname(shim);
  if (basename(shims) !== 'shims') return undefined;
  const root = dirname(shims);
  if (!exists(join(root, 'libexec', 'pyenv'))) return undefined;
  // A PYENV_ROOT elsewhere than the shim's own folder: the shim says which wins; leave it to the shim.
  if (env.PYENV_ROOT && resolve(env.PYENV_ROOT) !== root) return undefined;
  return root;
}

function exists(path: string): boolean {
  try {
    statSync(path);
    return true;
  } catch {
    return false;
  }
}

/** What changes when a file is written, replaced or removed. */
function signature(path: string): string {
  try {
    const info = statSync(path);
    return `${info.ino}:${info.size}:${info.mtimeMs}`;
  } catch {
    return '-';
  }
}

/** Everything pyenv's answer from `cwd` depends on, hashed; undefined where the shim is not pyenv's. */
function fingerprint(shim: string, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  const root = pyenvRoot(shim, env);
  if (!root) return undefined;
  const variables = Object.keys(env)
    .filter((name) => name.startsWith('PYENV') || name === 'PATH')
    .sort()
    .map((name) => `${name}=${env[name]}`);
  const versionFiles: string[] = [];
  for (let dir = resolve(env.PYENV_DIR ?? cwd); ; dir = dirname(dir)) {
    versionFiles.push(signature(join(dir, '.python-version')));
    if (dirname(dir) === dir) break;
  }
  const parts = [shim, cwd, ...variables, ...versionFiles, signature(join(root, 'version')), signature(join(root, 'versions')), signature(shim)];
  return createHash('sha256').update(parts.join('\0')).digest('hex');
}

function answersFile(env: NodeJS.ProcessEnv): string {
  return join(stateDir(env), FILE);
}

function readAnswers(env: NodeJS.ProcessEnv): Record<string, Answer> {
  try {
    const answers: unknown = JSON.parse(readFileSync(answersFile(env), 'utf8'));
    return answers && typeof answers === 'object' ? (answers as Record<string, Answer>) : {};
  } catch {
    return {};
  }
}

/** The interpreter pyenv named for `shim` asked from `cwd` last time, if nothing it decides from changed since. */
export function recalledShimAnswer(shim: string, cwd: string, env: NodeJS.ProcessEnv): string | undefined {
  const print = fingerprint(shim, cwd, env);
  if (!print) return undefined;
  const answer = readAnswers(env)[`${shim}\0${cwd}`];
  if (!answer || answer.fingerprint !== print || typeof answer.executable !== 'string') return undefined;
  // The interpreter itself may have gone (a version uninstalled and built again).
  return exists(answer.executable) ? answer.executable : undefined;
}

/** Keeps pyenv's answer for the next run; nothing where the shim is not pyenv's or the state folder cannot be written. */
export function keepShimAnswer(shim: string, cwd: string, env: NodeJS.ProcessEnv, executable: string): void {
  const print = fingerprint(shim, cwd, env);
  if (!print) return;
  const answers = readAnswers(env);
  answers[`${shim}\0${cwd}`] = { fingerprint: print, executable, at: Date.now() };
  const kept = Object.entries(answers)
    .sort(([, a], [, b]) => b.at - a.at)
    .slice(0, MAX_ANSWERS);
  const file = answersFile(env);
  try {
    mkdirSync(dirname(file), { recursive: true });
    // Whole or not at all: another tenet may read it at the same moment.
    const temporary = `${file}.${process.pid}.tmp`;
    writeFileSync(temporary, JSON.stringify(Object.fromEntries(kept)));
    renameSync(temporary, file);
  } catch {
    // A state folder that cannot be written costs the next run half a second, nothing more.
  }
}
