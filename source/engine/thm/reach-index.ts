import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { deserialize, serialize } from 'node:v8';
import { cacheRoot } from '../util/cache-dir';
import type { FileState } from './reach-files';

/**
 * The reach index: for each test of a scope, the functions of the repository it calls, recorded
 * once on the code as it is (source/python/_tenet_index). A test that never calls a function runs
 * the same code when that function is blank (its first call never comes), so it cannot fail
 * because of it: THM runs only the tests that reach its target, and those the index cannot vouch
 * for. The index is kept in tenet's cache folder, one file per repository and pytest options,
 * with what each file of the repository was when the tests ran (see reach-files.ts).
 */

/** Bumped when what is recorded changes: an index of another format is built again. */
export const REACH_FORMAT = 1;

/** A function of the repository, as the recorder named it. */
export interface IndexedFunction {
  /** Posix path relative to the repository root. */
  file: string;
  qualname: string;
  /** First line, decorators included, and last line, when the index was built. */
  line: number;
  end: number;
  /** A generator: its body first runs at its first `next()`, while its blank raises at the call. */
  generator: boolean;
}

export type IndexedOutcome = 'passed' | 'failed' | 'error' | 'skipped' | 'xfailed' | 'xpassed';

/** Whether a test failed when the index recorded it: it then runs in every scope, and on the original code. */
export const failedWhenRecorded = (outcome: IndexedOutcome): boolean => outcome === 'failed' || outcome === 'error';

export interface IndexedTest {
  /** Indices into `functions`: those the test called (with the wider fixtures it used). */
  fns: number[];
  /** Its outcome on the code as it was: a test that failed then runs in every scope. */
  outcome: IndexedOutcome;
  /** It started a process: what runs there is unseen, so it runs in every scope. */
  spawns?: true;
  /** Its place in the run's order. */
  order: number;
}

export interface ReachIndex {
  format: number;
  /** The checkout, absolute. */
  repo: string;
  /** The pytest arguments it was recorded with, and which of them pytest took as paths. */
  testArgs: string[];
  positional: string[];
  /** The interpreter and what it was checked with (see interpreterKey). */
  python: { path: string; version: string; key: string };
  /** pytest's rootdir and ini file (relative to the repository; an ini file outside it absolute). */
  pytestConfig: { rootdir: string; inifile: string | null };
  /** pytest's configuration (ini files, the root conftest.py): any change makes the whole index stale. */
  configKey: string;
  /** pytest's test file patterns (`python_files`), for new test files. */
  pythonFiles: string[];
  functions: IndexedFunction[];
  tests: Record<string, IndexedTest>;
  /** Test module → functions its top level called as it was imported. */
  modules: Record<string, number[]>;
  /** Functions called by the top level of a module that is no test module (a package, a conftest.py, a helper). */
  atImport: number[];
  /** Functions called outside every test and import (pytest's hooks). */
  outside: number[];
  /** Files compiled with the probe, and those that ran without it. */
  probed: string[];
  unwatched: string[];
  /** Each Python file of the repository as the tests ran (see reach-files.ts). */
  files: Record<string, FileState>;
  builtAt: number;
  /** How long the last build or refresh took, and how many tests it ran. */
  lastRun: { ms: number; tests: number; refresh: boolean };
}

/** The pytest options of a scope: its arguments without those that name paths or tests. */
export function scopeOptions(testArgs: readonly string[], isPath: (arg: string) => boolean): string[] {
  const options: string[] = [];
  for (let i = 0; i < testArgs.length; i++) {
    const arg = testArgs[i]!;
    if (arg.startsWith('-')) {
      options.push(arg);
      // An option whose value is the next argument (`-k expr`, `--ignore path`) keeps it.
      if (TAKES_VALUE.has(arg) && i + 1 < testArgs.length) options.push(testArgs[++i]!);
    } else if (!isPath(arg)) options.push(arg);
  }
  return options;
}

/** pytest's options that take their value as the next argument (`--opt=value` is one argument). */
const TAKES_VALUE = new Set([
  '-k',
  '-m',
  '-p',
  '-c',
  '-o',
  '-W',
  '-r',
  '--ignore',
  '--ignore-glob',
  '--deselect',
  '--rootdir',
  '--confcutdir',
  '--basetemp',
  '--maxfail',
  '--tb',
  '--durations',
  '--import-mode',
  '--log-level',
  '--junitxml',
  '--junit-xml',
  '--override-ini',
  '--config-file',
  '--pythonwarnings',
  '--capture',
  '--timeout',
  '-n',
  '--numprocesses',
  '--dist',
]);

/** Where the index of a repository and pytest options is kept. */
export function reachIndexFile(repo: string, options: readonly string[], env: NodeJS.ProcessEnv = process.env): string {
  const key = createHash('sha1')
    .update(`${resolve(repo)}\0${options.join('\0')}`)
    .digest('hex')
    .slice(0, 16);
  return join(cacheRoot(env), 'reach', `${key}.v${REACH_FORMAT}.bin`);
}

export function loadReachIndex(file: string): ReachIndex | undefined {
  if (!existsSync(file)) return undefined;
  try {
    const index = deserialize(readFileSync(file)) as ReachIndex;
    return index.format === REACH_FORMAT ? index : undefined;
  } catch {
    return undefined; // a torn or foreign file: as if there were none
  }
}

/** Whole or not at all (written to a temporary name and renamed): another tenet may read it at the same moment. */
export function saveReachIndex(file: string, index: ReachIndex): void {
  mkdirSync(join(file, '..'), { recursive: true });
  const temporary = `${file}.${process.pid}.tmp`;
  try {
    writeFileSync(temporary, serialize(index));
    renameSync(temporary, file);
  } catch (error) {
    rmSync(temporary, { force: true });
    throw error;
  }
}

/** The functions of the index that `file::qualname` names (a property's getter and setter share one). */
export function functionsNamed(index: ReachIndex, file: string, qualname: string): number[] {
  const found: number[] = [];
  index.functions.forEach((fn, at) => {
    if (fn.file === file && fn.qualname === qualname) found.push(at);
  });
  return found;
}
