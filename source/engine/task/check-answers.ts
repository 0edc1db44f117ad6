import { realpathSync } from 'node:fs';
import { fileSignature, fingerprintOf, keepAnswer, keptAnswer, variablesOf } from '../util/kept-answers';

/**
 * What the interpreter check found, kept between runs: the check is a Python start on the way to
 * every run's first test. It holds while the interpreter's file, the PYTHON* variables and every
 * folder on its sys.path (with its user site folder, there yet or not) are as they were:
 * installing, removing or upgrading a package adds or removes entries in the folder it goes to.
 */

const FILE = 'interpreter-checks.json';
/**
 * Bumped when the check learns more: a check kept by an older tenet is made again (v2: prefixes
 * and .pth folders; v3: the bytecode tag).
 */
const FORMAT = 'v3';

export interface CheckedInterpreter {
  /** Python's version. */
  version: string;
  /** sys.executable. */
  path: string;
  /** pytest's version. */
  pytest: string;
  /** The folders on sys.path, the user site folder, the folders its .pth files name, its prefixes. */
  dirs: string[];
  /** sys.prefix. */
  prefix?: string;
  /** sys.implementation.cache_tag. */
  tag?: string;
}

/**
 * PYTHON* variables that change neither where Python finds its code nor what that code does:
 * whether and where bytecode is written, buffering, and reports on a crash or of import times. A
 * terminal that sets PYTHONDONTWRITEBYTECODE and an editor that does not share one check and one
 * reach index (the index went stale, and THM ran the whole scope, between the two).
 */
const INERT = new Set([
  'PYTHONDONTWRITEBYTECODE',
  'PYTHONPYCACHEPREFIX',
  'PYTHONUNBUFFERED',
  'PYTHONFAULTHANDLER',
  'PYTHONPROFILEIMPORTTIME',
]);

/** The PYTHON* variables of `env` that can change what a run imports or does. */
function pythonVariables(env: NodeJS.ProcessEnv): string[] {
  return variablesOf(env, (name) => name.startsWith('PYTHON') && !INERT.has(name));
}

/**
 * What the check of `program` depends on: its file, the PYTHON* variables and the folders it reads
 * its code from. The reach index is keyed by it too: a package installed or upgraded changes it.
 */
export function interpreterFingerprint(program: string, env: NodeJS.ProcessEnv, dirs: string[]): string {
  let real = program;
  try {
    real = realpathSync(program);
  } catch {
    // gone: the signature below says so
  }
  return fingerprintOf([
    FORMAT,
    program,
    real,
    fileSignature(real),
    ...pythonVariables(env),
    ...dirs.map((dir) => `${dir}=${fileSignature(dir)}`),
  ]);
}

/**
 * Where the check of `program` under `env` is kept: one answer per interpreter and PYTHON*
 * variables, so that two environments (a terminal with PYTHONPATH set and one without, perf:thm
 * beside the tests) do not each replace the other's answer and check again.
 */
function keyOf(program: string, env: NodeJS.ProcessEnv): string {
  const variables = pythonVariables(env);
  return variables.length ? `${program}\0${fingerprintOf(variables).slice(0, 16)}` : program;
}

/** What the check of `program` (an interpreter's file) under `env` found last time, if nothing it depends on changed. */
export function recalledCheck(program: string, env: NodeJS.ProcessEnv): CheckedInterpreter | undefined {
  const answer = keptAnswer<CheckedInterpreter>(FILE, keyOf(program, env), env);
  if (!answer || !Array.isArray(answer.value.dirs)) return undefined;
  return answer.fingerprint === interpreterFingerprint(program, env, answer.value.dirs) ? answer.value : undefined;
}

/** Keeps a check that passed for the next run. */
export function keepCheck(program: string, env: NodeJS.ProcessEnv, checked: CheckedInterpreter): void {
  keepAnswer(FILE, keyOf(program, env), interpreterFingerprint(program, env, checked.dirs), checked, env);
}
