import { existsSync } from 'node:fs';
import { join, posix } from 'node:path';
import { TenetError } from '../errors';
import { EXIT } from '../exit-codes';
import { importRoots } from '../python-source/import-roots';
import { readSource } from '../python-source/source-text';
import type { Sandbox } from '../sandbox/sandbox';
import { isTestPath } from '../index/repo-index';
import { listPythonFiles } from '../workspace/walk';
import { confinedCopy } from './confined-copy';
import type { PluginEvent } from './plugin-lines';
import { runPytestPass } from './pytest-pass';
import { fileState, outline, type FileState } from './reach-files';
import { configKey, freshness, interpreterKey, testFileOf, type Freshness } from './reach-fresh';
import {
  REACH_FORMAT,
  type IndexedFunction,
  type IndexedOutcome,
  type IndexedTest,
  type ReachIndex,
} from './reach-index';
import { scopeFix } from './scope-fix';
import { lanesForCores, shardCount } from './thm-options';

/** What source/python/_tenet_index adds to the THM plugin's events. */
type ByFile = Record<string, number[]>;
type RecorderEvent =
  | { e: 'reachfile'; file: string; fns: [string, number, number, boolean][] }
  | { e: 'reachtest'; nodeid: string; fns: ByFile; spawns?: boolean }
  | { e: 'reachimport'; file: string; fns: ByFile }
  | { e: 'reachoutside'; fns: ByFile }
  | { e: 'reachunwatched'; files: string[] }
  | { e: 'reachconfig'; rootdir: string; inifile: string | null; pythonFiles: string[]; positional: string[] };

export interface RecordOptions {
  repoDir: string;
  python?: string;
  testArgs: string[];
  jobs: number | 'auto';
  testTimeoutSec: number;
  signal?: AbortSignal;
  /** Each test as it finishes: how many so far, out of how many collected (0 until known). */
  onTest?: (done: number, total: number) => void;
  /**
   * The index kept for this scope: refreshed where it still holds in part (its stale tests run
   * again, with every test it does not know; the others keep their record), else recorded anew.
   */
  previous?: ReachIndex;
  /**
   * Told what is stale before anything runs (undefined: no previous index, everything is
   * recorded); true records, false keeps the previous index as it is, nothing recorded (only with `previous`).
   */
  beforeRun?: (fresh: Freshness | undefined) => boolean;
}

export interface RecordedReach {
  index: ReachIndex;
  /** What pytest said went wrong in the run (a test module that hung, a lane that died). */
  problems: string[];
  /** A refresh: the tests of the kept index recorded again (stale), and why a whole record was made instead. */
  refreshed?: number;
  whole?: string;
  /** beforeRun kept the previous index: nothing ran, `index` is the previous one. */
  kept?: true;
}

/**
 * Records (or refreshes) the reach index of a scope: pytest runs it once, on a copy of the
 * repository as it is, in lanes, with source/python/_tenet_index recording which functions each
 * test calls. It runs through THM's pytest pass, so shards, per-test timeouts, hangs and crashed
 * interpreters are handled as in THM.
 */
export async function recordReach(options: RecordOptions): Promise<RecordedReach> {
  const started = Date.now();
  // The parked copy THM keeps for this repository is brought up to date and used (then kept again).
  const { workspace, sandbox, python } = await confinedCopy(options.repoDir, {
    reuse: process.env.TENET_FRESH_COPY !== '1',
    ...(options.python ? { python: options.python } : {}),
  });
  try {
    const fresh = options.previous ? await freshness(options.previous, python) : undefined;
    if (options.beforeRun?.(fresh) === false && options.previous)
      return { index: options.previous, problems: [], kept: true };
    const refresh = fresh && !fresh.whole ? { index: options.previous!, stale: fresh.stale } : undefined;
    // What the files are as the tests run (the checkout's, which the copy was made from).
    const pythonFiles = listPythonFiles(workspace.repoDir);
    const previousFiles = refresh?.index.files ?? {};
    const files: Record<string, FileState> = {};
    for (const rel of pythonFiles) {
      const state = fileState(workspace.repoDir, rel, previousFiles[rel]);
      if (state) files[rel] = state;
    }
    const seen = new Recording();
    const leaveOut = refresh ? refreshLeaveOut(refresh.index, refresh.stale) : undefined;
    let done = 0;
    const pass = await runPytestPass({
      sandbox,
      workspace,
      python: python.executable,
      env: {
        ...recorderEnv(sandbox, workspace.root, pythonFiles),
        TENET_ROOT: sandbox.workdir,
        // No target: the THM plugin only reports tests. A path no module has keeps its checks quiet.
        TENET_TARGET_FILE: posix.join(sandbox.workdir, '.tenet', 'no-target.py'),
      },
      testArgs: ['-p', '_tenet_index', ...options.testArgs],
      shards: options.jobs === 'auto' ? lanesForCores() : shardCount(options.jobs, 0),
      autoShards: options.jobs === 'auto',
      testTimeoutSec: options.testTimeoutSec,
      mode: 'record',
      label: 'reach',
      reportText: false,
      ...(leaveOut ? { leaveOut } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      onEvent: (raw) => {
        seen.take(raw as PluginEvent | RecorderEvent);
        if (raw.e === 'test') options.onTest?.(++done, seen.collected);
      },
    });
    if (pass.aborted) throw new TenetError('Recording the reach index was cancelled.', undefined, EXIT.interrupted);
    if (pass.collected === 0 && pass.collectErrors.length === 0 && pass.problems.length)
      throw new TenetError(
        `pytest could not run the tests:\n${pass.problems.join('\n')}`,
        scopeFix(workspace.root, pass.problems),
      );
    // The bodies and skeletons of the modules the tests imported, to tell later edits apart.
    for (const rel of seen.probed) {
      const state = files[rel];
      if (!state || (state.skeleton && previousFiles[rel] === state)) continue;
      try {
        files[rel] = { ...state, ...(await outline(readSource(posix.join(workspace.repoDir, rel)).text)) };
      } catch {
        // A file tree-sitter cannot read stays without an outline: any change to it is a change to all.
      }
    }
    const recorded = seen.index({
      repo: workspace.repoDir,
      testArgs: options.testArgs,
      python: { path: python.path, version: python.version, key: interpreterKey(python) },
      pytestConfig: seen.pytestConfig(),
      configKey: configKey(workspace.repoDir, seen.pytestConfig()),
      files,
      lastRun: { ms: Date.now() - started, tests: done, refresh: !!refresh },
    });
    const { problems } = pass;
    if (!refresh) return { index: recorded, problems, ...(fresh?.whole ? { whole: fresh.whole } : {}) };
    return { index: mergeRefresh(refresh.index, refresh.stale, recorded), problems, refreshed: refresh.stale.size };
  } finally {
    await sandbox.dispose();
    await workspace.dispose();
  }
}

/** A refresh runs the stale tests and those the index does not know: the others' files stay uncollected, their tests deselected. */
function refreshLeaveOut(index: ReachIndex, stale: ReadonlySet<string>): { files: string[]; tests: string[] } {
  const staleFiles = new Set([...stale].map(testFileOf));
  const byFile = new Map<string, string[]>();
  for (const nodeid of Object.keys(index.tests)) {
    const file = testFileOf(nodeid);
    byFile.set(file, [...(byFile.get(file) ?? []), nodeid]);
  }
  const files: string[] = [];
  const tests: string[] = [];
  for (const [file, ids] of byFile) {
    if (!staleFiles.has(file)) files.push(file);
    else tests.push(...ids.filter((nodeid) => !stale.has(nodeid)));
  }
  return { files: files.sort(), tests: tests.sort() };
}

/** The events of one recording, gathered into an index. */
class Recording {
  collected = 0;
  config: { rootdir: string; inifile: string | null; pythonFiles: string[]; positional: string[] } | undefined;
  readonly probed = new Set<string>();
  private readonly functions: IndexedFunction[] = [];
  private readonly byKey = new Map<string, number>();
  /** file → its table's function indices (the recorder numbers a file's functions in its table's order). */
  private readonly tables = new Map<string, number[]>();
  private readonly tests = new Map<string, { fns: number[]; spawns?: true }>();
  private readonly outcomes = new Map<string, IndexedOutcome>();
  private readonly order: string[] = [];
  /** pytest's order of the whole scope, when lanes ran it (their tests end interleaved). */
  private scopeOrder: string[] | undefined;
  /** Each test's place in the scope's order, as the plugin says it in every shard (shards end interleaved too). */
  private readonly places = new Map<string, number>();
  private readonly imports = new Map<string, Set<number>>();
  private readonly outside = new Set<number>();
  private readonly unwatched = new Set<string>();

  take(event: PluginEvent | RecorderEvent): void {
    switch (event.e) {
      case 'reachconfig':
        this.config ??= event;
        break;
      case 'reachfile':
        if (this.tables.has(event.file)) break;
        this.probed.add(event.file);
        this.tables.set(
          event.file,
          event.fns.map(([qualname, line, end, generator]) =>
            this.functionIndex({ file: event.file, qualname, line, end, generator }),
          ),
        );
        break;
      case 'reachtest':
        this.tests.set(event.nodeid, { fns: this.indices(event.fns), ...(event.spawns ? { spawns: true } : {}) });
        break;
      case 'reachimport': {
        const set = this.imports.get(event.file) ?? new Set<number>();
        for (const fn of this.indices(event.fns)) set.add(fn);
        this.imports.set(event.file, set);
        break;
      }
      case 'reachoutside':
        for (const fn of this.indices(event.fns)) this.outside.add(fn);
        break;
      case 'reachunwatched':
        for (const file of event.files) this.unwatched.add(file);
        break;
      case 'collected':
        this.collected = Math.max(this.collected, event.total);
        break;
      case 'lanes':
        if (event.tests && !event.world) this.scopeOrder ??= event.tests;
        break;
      case 'test':
        if (!this.outcomes.has(event.nodeid)) this.order.push(event.nodeid);
        if (event.order !== undefined && event.order >= 0) this.places.set(event.nodeid, event.order);
        this.outcomes.set(event.nodeid, event.crashed ? 'error' : event.outcome);
        break;
    }
  }

  pytestConfig(): ReachIndex['pytestConfig'] {
    return { rootdir: this.config?.rootdir ?? '', inifile: this.config?.inifile ?? null };
  }

  private functionIndex(fn: IndexedFunction): number {
    const key = `${fn.file}::${fn.qualname}@${fn.line}`;
    let at = this.byKey.get(key);
    if (at === undefined) {
      at = this.functions.push(fn) - 1;
      this.byKey.set(key, at);
    }
    return at;
  }

  private indices(byFile: ByFile): number[] {
    const out: number[] = [];
    for (const [file, locals] of Object.entries(byFile)) {
      const table = this.tables.get(file);
      if (table) for (const local of locals) if (table[local] !== undefined) out.push(table[local]!);
    }
    return out.sort((a, b) => a - b);
  }

  index(
    fixed: Pick<ReachIndex, 'repo' | 'testArgs' | 'python' | 'pytestConfig' | 'configKey' | 'files' | 'lastRun'>,
  ): ReachIndex {
    const tests: ReachIndex['tests'] = {};
    // pytest's place first (the lanes' list, else each test's own), then the order they ended in
    // (tests neither names go last).
    const scope = this.scopeOrder ?? [];
    const place = this.scopeOrder ? new Map(scope.map((nodeid, at) => [nodeid, at])) : new Map(this.places);
    const end = Math.max(scope.length, ...[...place.values()].map((at) => at + 1));
    this.order.forEach((nodeid, at) => {
      if (!place.has(nodeid)) place.set(nodeid, end + at);
    });
    const inOrder = [...this.order].sort((a, b) => (place.get(a) ?? 0) - (place.get(b) ?? 0));
    inOrder.forEach((nodeid, order) => {
      const recorded = this.tests.get(nodeid);
      tests[nodeid] = {
        fns: recorded?.fns ?? [],
        outcome: this.outcomes.get(nodeid)!,
        order,
        ...(recorded?.spawns ? { spawns: true } : {}),
      };
    });
    const testFiles = new Set(this.order.map(testFileOf));
    const modules: ReachIndex['modules'] = {};
    const atImport = new Set<number>();
    for (const [file, fns] of this.imports) {
      // A test module's own top level fails only its own tests blank; any other module's (a
      // package, a helper, a conftest.py) fails every test that imports it, whichever came first.
      if (testFiles.has(file) || (isTestPath(file) && !file.endsWith('conftest.py') && !this.probed.has(file)))
        modules[file] = [...fns].sort((a, b) => a - b);
      else for (const fn of fns) atImport.add(fn);
    }
    return {
      format: REACH_FORMAT,
      ...fixed,
      positional: this.config?.positional ?? [],
      pythonFiles: this.config?.pythonFiles ?? [],
      functions: this.functions,
      tests,
      modules,
      atImport: [...atImport].sort((a, b) => a - b),
      outside: [...this.outside].sort((a, b) => a - b),
      probed: [...this.probed].sort(),
      unwatched: [...this.unwatched].filter((file) => !this.probed.has(file)).sort(),
      builtAt: Date.now(),
    };
  }
}

/** The refreshed index: the fresh records of the tests that ran over the old ones; stale tests that did not run are gone. */
function mergeRefresh(old: ReachIndex, stale: ReadonlySet<string>, fresh: ReachIndex): ReachIndex {
  const functions = [...fresh.functions];
  const byKey = new Map(functions.map((fn, at) => [`${fn.file}::${fn.qualname}@${fn.line}`, at]));
  const remap = old.functions.map((fn) => {
    const key = `${fn.file}::${fn.qualname}@${fn.line}`;
    let at = byKey.get(key);
    if (at === undefined) {
      at = functions.push(fn) - 1;
      byKey.set(key, at);
    }
    return at;
  });
  const carried = (fns: number[]) => fns.map((fn) => remap[fn]!);
  const merged: [string, IndexedTest][] = [];
  for (const [nodeid, test] of Object.entries(old.tests)) {
    if (stale.has(nodeid) || fresh.tests[nodeid]) continue;
    merged.push([nodeid, { ...test, fns: carried(test.fns) }]);
  }
  for (const [nodeid, test] of Object.entries(fresh.tests)) merged.push([nodeid, test]);
  const tests: ReachIndex['tests'] = {};
  inRunOrder(old, fresh, merged).forEach(([nodeid, test], order) => {
    tests[nodeid] = { ...test, order };
  });
  const modules: ReachIndex['modules'] = {};
  for (const [file, fns] of Object.entries(old.modules)) modules[file] = carried(fns);
  Object.assign(modules, fresh.modules);
  const union = (a: number[], b: number[]) => [...new Set([...carried(a), ...b])].sort((x, y) => x - y);
  return {
    ...fresh,
    functions,
    tests,
    modules,
    atImport: union(old.atImport, fresh.atImport),
    outside: union(old.outside, fresh.outside),
    probed: [...new Set([...old.probed, ...fresh.probed])].sort(),
    unwatched: [...new Set([...old.unwatched, ...fresh.unwatched])].filter((f) => !fresh.probed.includes(f)).sort(),
    positional: old.positional.length ? old.positional : fresh.positional,
  };
}

/**
 * The merged tests in pytest's order, as far as the two runs tell it: a test recorded again keeps
 * its place, a new one goes after the last known test of its file (bench make lists a file's tests
 * in this order, and a module's fixtures must see them as pytest would), in the order it ran.
 */
export function inRunOrder(
  old: ReachIndex,
  fresh: ReachIndex,
  merged: [string, IndexedTest][],
): [string, IndexedTest][] {
  const lastOfFile = new Map<string, number>();
  for (const [nodeid, test] of Object.entries(old.tests)) {
    const file = testFileOf(nodeid);
    lastOfFile.set(file, Math.max(lastOfFile.get(file) ?? -1, test.order));
  }
  const place = ([nodeid]: [string, IndexedTest]): [number, number] => {
    const known = old.tests[nodeid];
    if (known) return [known.order, -1];
    return [lastOfFile.get(testFileOf(nodeid)) ?? Number.POSITIVE_INFINITY, fresh.tests[nodeid]!.order];
  };
  return merged
    .map((entry) => ({ entry, at: place(entry) }))
    .sort((a, b) => a.at[0] - b.at[0] || a.at[1] - b.at[1])
    .map(({ entry }) => entry);
}

/**
 * PYTHONPATH as THM sets it (source/engine/python-source/pytest-env.ts), with the import root of every
 * package of the repository, so the tests import the workspace's copy of each.
 */
function recorderEnv(sandbox: Sandbox, root: string, files: readonly string[]): Record<string, string> {
  const roots = new Set<string>();
  // The root of each package (a module in no package is imported from the root, or not at all).
  for (const file of files)
    if (!isTestPath(file) && existsSync(join(root, posix.dirname(file), '__init__.py')))
      roots.add(importRoots(root, file)[0]!);
  for (const rel of importRoots(root, '__tenet_none__.py')) roots.add(rel);
  // The root last, as importRoots puts it: a package folder must win over a same-named folder at the root.
  const ordered = [...[...roots].filter((rel) => rel), ''];
  const paths = ordered.map((rel) => (rel ? posix.join(sandbox.workdir, rel) : sandbox.workdir));
  const inherited = sandbox.env.PYTHONPATH;
  return {
    PYTHONPATH: [sandbox.helpersDir, ...paths, ...(inherited ? [inherited] : [])].join(':'),
    PYTHONIOENCODING: 'utf-8',
  };
}
