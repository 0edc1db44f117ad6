/** Where the chain that reached the target starts: the test function, a fixture, a module's top level, or elsewhere. */
export type EntryKind = 'test' | 'fixture' | 'module' | 'other';

export interface Cluster {
  /** The direct caller shared by the cluster's tests (`(none)` when the target was the entry). */
  caller: string;
  /** Node ids ordered by (depth, nodeid), tests that timed out blank last. */
  tests: string[];
  representative: string;
  /** The representative's depth: the cluster's shortest chain. */
  depth: number;
}

/** One failing test as THM reports it (the `--json` shape of `tenet thm`). */
export interface ThmFailingTest {
  nodeid: string;
  /** Whether the target was called during the test (setup, call or teardown). */
  reached: boolean;
  /** `relpath::qualname` from the entry down to the target; empty when not reached. */
  chain: string[];
  /** Line of each chain frame at the moment of the call. */
  chainLines: number[];
  depth: number | null;
  caller: string | null;
  entryKind: EntryKind | null;
  /**
   * Not reached because pytest cached the target's work: a module-, class- or session-scoped
   * fixture (`file::function`, e.g. `tests/conftest.py::db`) called the target in an earlier test,
   * and this test got its cached error or value without any call. Null otherwise (absent in
   * sessions saved before tenet reported it).
   */
  failsThrough?: string | null;
  /** `failed` (assertion or exception in the test), `error` (setup/teardown, crash, hang), `collection` (module failed to import). */
  outcome: 'failed' | 'error' | 'collection';
  phase: string | null;
  message: string;
  /** pytest's report of the failure (short traceback), capped. */
  longrepr: string;
  file: string | null;
  line: number | null;
  timedOut: boolean;
  crashed: boolean;
}

/** A test module in scope that failed to import with the target blank (stub mode: stubbed). */
export interface ThmImportError {
  /** The module's path (its node id). */
  module: string;
  /** The first line of the error (`ModuleNotFoundError: No module named 'x'`). */
  message: string;
  /**
   * A broken test module, not the target's doing: it fails to import on the original code too
   * (benchmark mode; it is among `alreadyFailing`), or its import never called the target (stub
   * mode). None of its tests ran, in either world. Otherwise the failure is THM's observation of
   * the target, and the module is one of the `failing` entries.
   */
  broken: boolean;
  /**
   * What broke the import, which says how to mend it: `missing-module` (a module that is not
   * installed: install it, or leave the test module out), `syntax-error` (a module of the
   * repository that does not compile: fix it at `at`), `error` (an exception raised while
   * importing: fix it where it is raised, `at`). Only for a broken module; absent in sessions
   * saved before tenet told them apart.
   */
  kind?: ImportErrorKind;
  /** Where a syntax error or exception comes from, `path:line` in the repository; absent when outside it, and for a missing module. */
  at?: string;
}

export type ImportErrorKind = 'missing-module' | 'syntax-error' | 'error';

export interface ThmCounts {
  /** Tests in scope (after -k/-m deselection). */
  collected: number;
  /** Passed with the target unimplemented. */
  passed: number;
  skipped: number;
  /** Failing tests (benchmark mode: only those that pass on the original code). */
  failing: number;
  /** Failing tests that never called the target. */
  unreached: number;
  /** Benchmark mode: tests that fail on the original code too, left out of `failing`. */
  alreadyFailing: number;
  /** Test modules that failed to import with the target blank (stubbed): `importErrors`, broken ones included. */
  collectionErrors: number;
  crashed: number;
  timedOut: number;
}

export interface ThmReport {
  target: string;
  mode: 'stub' | 'blank';
  /** The target's body in the checkout: a stub, or implemented (in stub mode, the tests ran against that body). Absent in sessions saved before tenet recorded it. */
  targetBody?: 'stub' | 'implemented';
  /** Selection budget; null stands for "all". */
  T: number | null;
  /** How direct callers were named, when not by the default rule `use`: `nearest`, the paper's literal rule (`--caller nearest`). */
  callerRule?: 'nearest';
  testArgs: string[];
  python: { executable: string; version: string; pytest: string };
  failing: ThmFailingTest[];
  clusters: Cluster[];
  selected: string[];
  counts: ThmCounts;
  alreadyFailing: string[];
  /** Every module counted in `counts.collectionErrors`, broken ones first (absent in sessions saved before tenet reported them). */
  importErrors?: ThmImportError[];
  warnings: string[];
  /** pytest processes the suite was spread over. */
  shards: number;
  /** Benchmark mode ran in one pass, forking a blank twin of each test at its first call of the target. */
  fork: boolean;
  /** Benchmark mode ran both worlds from one collection, in lanes forked from it (see observeWorlds). */
  worlds?: boolean;
  /**
   * Where the time went: the pass over the scope, the re-run of failing tests on the original code
   * (two-pass mode), the blank re-run of what the twins could not decide (fork mode).
   */
  timings: { probeMs: number; originalMs: number; blankMs: number };
  /** True when the whole-run timeout stopped THM before every test ran. */
  timedOut: boolean;
  /** With `timedOut`: the budget it stopped at, in seconds (`--thm-timeout`, `thm --timeout`). */
  timeoutSec?: number;
  durationMs: number;
}

/**
 * What a THM run stopped by its time budget did not get to, in words (`before pytest had collected
 * a test`, `with 40 of 1,200 tests run`); undefined when it was not stopped so.
 */
export function thmTimeoutWords(report: Pick<ThmReport, 'timedOut' | 'timeoutSec' | 'durationMs' | 'counts'>): string | undefined {
  if (!report.timedOut) return undefined;
  const seconds = report.timeoutSec ?? Math.round(report.durationMs / 1000);
  const { collected } = report.counts;
  return `THM timed out after ${seconds} s, ${collected === 0 ? 'before pytest had collected a test' : `before every test in scope had run (${collected} collected)`}`;
}

/** The test modules that failed to import whatever the target is (broken): none of their tests ran. */
export function brokenModules(report: Pick<ThmReport, 'importErrors'>): Set<string> {
  return new Set((report.importErrors ?? []).filter((e) => e.broken).map((e) => e.module));
}

/**
 * Stub mode: the failing entries that never reached the target, without the broken modules among
 * them (named with their error under `importErrors`; a module that does not import is not a test).
 */
export function unreachedTests<T extends { nodeid: string; reached: boolean }>(report: Pick<ThmReport, 'importErrors'> & { failing: T[] }): T[] {
  const broken = brokenModules(report);
  return report.failing.filter((f) => !f.reached && !broken.has(f.nodeid));
}

/**
 * `counts.failing` and `counts.unreached` as the text and the TUI show them: without the broken
 * modules stub mode counts among the unreached (each is named once, under the import errors).
 * `modules`: how many of the failing are a test module that fails to import with the target
 * blank (stubbed), one entry for all its tests, which are not among the tests in scope: without
 * it said, "3 tests in scope · 1 passed · 3 failing" does not add up.
 */
export function failingTestCounts(report: Pick<ThmReport, 'importErrors' | 'counts' | 'failing'>): { failing: number; unreached: number; modules: number } {
  const unreached = unreachedTests(report).length;
  const failing = new Set(report.failing.map((f) => f.nodeid));
  const modules = (report.importErrors ?? []).filter((e) => !e.broken && failing.has(e.module)).length;
  return { failing: report.counts.failing - (report.counts.unreached - unreached), unreached, modules };
}

/**
 * The tests of `alreadyFailing`, without the broken modules among them: those are named with
 * their error under `importErrors`, and a module is not a test that fails on the original code.
 */
export function alreadyFailingTests(report: Pick<ThmReport, 'alreadyFailing' | 'importErrors'>): string[] {
  const broken = brokenModules(report);
  return report.alreadyFailing.filter((nodeid) => !broken.has(nodeid));
}
