import { createHash } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { basename, join, posix } from 'node:path';
import { readSource } from '../python-source/source-text';
import { interpreterFingerprint } from '../task/check-answers';
import type { PythonInfo } from '../task/interpreter';
import { listPythonFiles } from '../workspace/walk';
import { testFile } from './node-ids';
import { changedBodies, fileState, outline, type FileState } from './reach-files';
import { REACH_FORMAT, type ReachIndex } from './reach-index';

export { testFile as testFileOf } from './node-ids';

/**
 * Whether a reach index still says what the tests reach, by the content of the repository's
 * files (see reach-files.ts), its pytest configuration and its interpreter:
 * - a test file (or a `conftest.py` below the root) that changed makes its own tests stale;
 * - a function whose body changed makes stale the tests that called it;
 * - anything else that runs as a module is imported (the skeleton of a module the tests
 *   imported), pytest's configuration (its ini file's section, the root `conftest.py`), the
 *   interpreter or its packages (the interpreter check's key), a function called at import time
 *   that changed, or a module that ran without the probe: the whole index is stale.
 */
export interface Freshness {
  /** Why the whole index is stale; undefined while parts of it hold. */
  whole?: string;
  /** Tests whose record no longer holds. */
  stale: Set<string>;
  /** Files that changed since the index was recorded (for the message). */
  changed: string[];
}

/** The interpreter as the index is keyed by it (see interpreterFingerprint). */
export function interpreterKey(
  python: Pick<PythonInfo, 'path' | 'dirs'>,
  env: NodeJS.ProcessEnv = process.env,
): string {
  return interpreterFingerprint(python.path, env, python.dirs);
}

/**
 * The pytest sections of a repository's ini files and its root `conftest.py` files, hashed: those
 * at the root of the repository and of pytest's rootdir, and the ini file pytest chose (paths
 * relative to the repository, as the recorder reports them).
 */
export function configKey(repo: string, config: ReachIndex['pytestConfig']): string {
  const hash = createHash('sha1');
  const folders = new Set(['']);
  if (config.rootdir && !config.rootdir.startsWith('..') && config.rootdir !== '.') folders.add(config.rootdir);
  const files = [...folders].flatMap((folder) =>
    ['pytest.ini', '.pytest.ini', 'pyproject.toml', 'tox.ini', 'setup.cfg', 'conftest.py'].map((name) =>
      posix.join(folder, name),
    ),
  );
  if (config.inifile) files.push(config.inifile);
  for (const file of files) {
    const path = file.startsWith('/') ? file : join(repo, file);
    if (!existsSync(path)) continue;
    let text: string;
    try {
      text = readFileSync(path, 'utf8');
    } catch {
      continue;
    }
    hash.update(`${file}\0${pytestSection(basename(file), text)}\0`);
  }
  return hash.digest('hex');
}

/** The part of an ini file pytest reads (the whole file for pytest.ini and conftest.py). */
function pytestSection(name: string, text: string): string {
  const header =
    name === 'pyproject.toml'
      ? /^\[tool\.pytest[^\]]*\]\s*$/m
      : name === 'tox.ini'
        ? /^\[pytest\]\s*$/m
        : name === 'setup.cfg'
          ? /^\[tool:pytest\]\s*$/m
          : undefined;
  if (!header) return text;
  const at = text.search(header);
  if (at === -1) return '';
  const rest = text.slice(at);
  const next = rest.slice(1).search(/^\[/m);
  return next === -1 ? rest : rest.slice(0, next + 1);
}

/** What of `index` still holds for the repository as it is now, run by `python`. */
export async function freshness(index: ReachIndex, python: Pick<PythonInfo, 'path' | 'dirs'>): Promise<Freshness> {
  const whole = (why: string): Freshness => ({ whole: why, stale: new Set(Object.keys(index.tests)), changed: [] });
  if (index.format !== REACH_FORMAT) return whole('it was recorded by another version of tenet');
  if (index.python.key !== interpreterKey(python))
    return whole('the interpreter or its installed packages changed since');
  if (index.configKey !== configKey(index.repo, index.pytestConfig))
    return whole("pytest's configuration changed since");
  const testFiles = new Set(Object.keys(index.tests).map(testFile));
  const probed = new Set(index.probed);
  const unwatched = new Set(index.unwatched);
  const atStart = new Set([...index.atImport, ...index.outside]);
  const stale = new Set<string>();
  const changed: string[] = [];
  const staleUnder = (folder: string) => {
    for (const nodeid of Object.keys(index.tests)) if (!folder || nodeid.startsWith(`${folder}/`)) stale.add(nodeid);
  };
  const changedFunctions = new Set<number>();
  const now = new Set(listPythonFiles(index.repo));
  for (const [rel, before] of Object.entries(index.files)) {
    const after = now.has(rel) ? fileState(index.repo, rel, before) : undefined;
    if (after && after.hash === before.hash) continue;
    changed.push(rel);
    if (basename(rel) === 'conftest.py') {
      const folder = posix.dirname(rel) === '.' ? '' : posix.dirname(rel);
      if (!folder) return { ...whole(`the root ${rel} changed since`), changed };
      staleUnder(folder);
    } else if (testFiles.has(rel) || (index.modules[rel] && !probed.has(rel))) {
      for (const nodeid of Object.keys(index.tests)) if (testFile(nodeid) === rel) stale.add(nodeid);
    } else if (probed.has(rel)) {
      const bodies = after ? await changedFunctionsOf(index, rel, before, after) : undefined;
      if (!bodies) return { ...whole(`${rel} changed outside its functions' bodies since`), changed };
      for (const fn of bodies) {
        if (atStart.has(fn))
          return { ...whole(`${rel} changed in a function the modules call as they are imported`), changed };
        changedFunctions.add(fn);
      }
    } else if (unwatched.has(rel)) {
      return { ...whole(`${rel}, which ran without the index's probe, changed since`), changed };
    }
  }
  if (changedFunctions.size) {
    for (const [nodeid, test] of Object.entries(index.tests))
      if (test.fns.some((fn) => changedFunctions.has(fn))) stale.add(nodeid);
    for (const [module, fns] of Object.entries(index.modules))
      if (fns.some((fn) => changedFunctions.has(fn)))
        for (const nodeid of Object.keys(index.tests)) if (testFile(nodeid) === module) stale.add(nodeid);
  }
  return { stale, changed };
}

/** The index's functions whose bodies changed in `rel`; undefined when more than bodies changed. */
async function changedFunctionsOf(
  index: ReachIndex,
  rel: string,
  before: FileState,
  after: FileState,
): Promise<number[] | undefined> {
  if (!before.skeleton) return undefined;
  let now;
  try {
    now = await outline(readSource(join(index.repo, rel)).text);
  } catch {
    return undefined;
  }
  const names = changedBodies(before, { ...after, ...now });
  if (!names) return undefined;
  const found: number[] = [];
  index.functions.forEach((fn, at) => {
    if (fn.file !== rel) return;
    // A nested function's body is in its outer function's.
    if ([...names].some((name) => fn.qualname === name || fn.qualname.startsWith(`${name}.<locals>.`))) found.push(at);
  });
  return found;
}
