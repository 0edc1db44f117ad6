import * as z from 'zod';

const str = z.string();
const num = z.number();
const bool = z.boolean();

/** Where the chain that reached the target starts: the test function, a fixture, a module's top level, or elsewhere. */
const entryKindSchema = z.enum(['test', 'fixture', 'module', 'other']);
export type EntryKind = z.infer<typeof entryKindSchema>;

const clusterSchema = z.object({
  /** The direct caller shared by the cluster's tests (`(none)` when the target was the entry). */
  caller: str,
  /** Node ids ordered by (depth, nodeid), tests that timed out blank last. */
  tests: z.array(str),
  representative: str,
  /** The representative's depth: the cluster's shortest chain. */
  depth: num,
});
export type Cluster = z.infer<typeof clusterSchema>;

/** One failing test as THM reports it (the `--json` shape of `tenet thm`). */
export const thmFailingTestSchema = z.object({
  nodeid: str,
  /** Whether the target was called during the test (setup, call or teardown). */
  reached: bool,
  /** `relpath::qualname` from the entry down to the target; empty when not reached. */
  chain: z.array(str),
  /** Line of each chain frame at the moment of the call. */
  chainLines: z.array(num),
  depth: num.nullable(),
  caller: str.nullable(),
  entryKind: entryKindSchema.nullable(),
  /**
   * Not reached because pytest cached the target's work: a module-, class- or session-scoped
   * fixture (`file::function`, e.g. `tests/conftest.py::db`) called the target in an earlier test,
   * and this test got its cached error or value without any call. Null otherwise (absent in
   * sessions saved before tenet reported it).
   */
  failsThrough: str.nullable().optional(),
  /**
   * Not reached in the test's own process: a process it started called the target (its chain is
   * not seen). Such a test is the target's too. Absent otherwise.
   */
  inSubprocess: z.literal(true).optional(),
  /** `failed` (assertion or exception in the test), `error` (setup/teardown, crash, hang), `collection` (module failed to import). */
  outcome: z.enum(['failed', 'error', 'collection']),
  phase: str.nullable(),
  message: str,
  /** pytest's report of the failure (short traceback), capped. */
  longrepr: str,
  file: str.nullable(),
  line: num.nullable(),
  timedOut: bool,
  crashed: bool,
});
export type ThmFailingTest = z.infer<typeof thmFailingTestSchema>;

/**
 * Stub mode: a test that fails, but not because of the target. Neither its own code reached the
 * target, nor a fixture, module or package setup it depends on (failsThrough), nor a process it
 * started: it stopped somewhere else (another stub, a helper that is broken). It is never
 * selected or hidden, and no part of the verdict: no body of the target can make it pass.
 */
const thmOtherFailureSchema = z.object({
  nodeid: str,
  /** `failed` (in the test's call), `error` (setup or teardown, a crash, a hang). */
  outcome: z.enum(['failed', 'error']),
  phase: str.nullable(),
  message: str,
  longrepr: str,
  /** Where it stopped: the innermost frame of the repository's code in its traceback (`pkg/geo.py::perimeter`, line 14); null when unknown (a crash, a hang). */
  stoppedAt: z.object({ name: str, line: num }).nullable(),
  file: str.nullable(),
  line: num.nullable(),
  timedOut: bool,
  crashed: bool,
});
export type ThmOtherFailure = z.infer<typeof thmOtherFailureSchema>;

const importErrorKindSchema = z.enum(['missing-module', 'syntax-error', 'error']);
export type ImportErrorKind = z.infer<typeof importErrorKindSchema>;

/** A test module in scope that failed to import with the target blank (stub mode: stubbed). */
const thmImportErrorSchema = z.object({
  /** The module's path (its node id). */
  module: str,
  /** The first line of the error (`ModuleNotFoundError: No module named 'x'`). */
  message: str,
  /**
   * A broken test module, not the target's doing: it fails to import on the original code too
   * (benchmark mode; it is among `alreadyFailing`), or its import never called the target (stub
   * mode). None of its tests ran, in either world. Otherwise the failure is THM's observation of
   * the target, and the module is one of the `failing` entries.
   */
  broken: bool,
  /**
   * What broke the import, which says how to mend it: `missing-module` (a module that is not
   * installed: install it, or leave the test module out), `syntax-error` (a module of the
   * repository that does not compile: fix it at `at`), `error` (an exception raised while
   * importing: fix it where it is raised, `at`). Only for a broken module; absent in sessions
   * saved before tenet told them apart.
   */
  kind: importErrorKindSchema.optional(),
  /** Where a syntax error or exception comes from, `path:line` in the repository; absent when outside it, and for a missing module. */
  at: str.optional(),
});
export type ThmImportError = z.infer<typeof thmImportErrorSchema>;

const thmCountsSchema = z.object({
  /** Tests in scope (after -k/-m deselection). */
  collected: num,
  /** Passed with the target unimplemented. */
  passed: num,
  skipped: num,
  /** Failing tests (benchmark mode: only those that pass on the original code). */
  failing: num,
  /** Failing tests that never called the target. */
  unreached: num,
  /** Benchmark mode: tests that fail on the original code too, left out of `failing`. */
  alreadyFailing: num,
  /** Test modules that failed to import with the target blank (stubbed): `importErrors`, broken ones included. */
  collectionErrors: num,
  /** Stub mode: failing tests that are not the target's (`otherFailures`); absent in benchmark mode and older sessions. */
  otherFailures: num.optional(),
  crashed: num,
  timedOut: num,
});

/**
 * Whether THM ran only the tests the reach index says can fail (see engine/thm/reach-scope.ts):
 * `tests` of the `of` tests the index knows ran (the target's, and those it cannot vouch for, of
 * which `stale` because their record no longer holds; tests it does not know ran too); the others
 * kept the outcome the index recorded. `recordedOriginals`: of the tests that failed blank, those
 * whose outcome on the original code is the index's record, not a run of their own (absent when
 * none, and in reports made before the index stood for the original world). Not used: `why`.
 */
export const reachUseSchema = z.union([
  z.object({ used: z.literal(true), tests: num, of: num, stale: num, recordedOriginals: num.optional() }),
  z.object({ used: z.literal(false), why: str }),
]);
export type ReachUse = z.infer<typeof reachUseSchema>;

export const thmReportSchema = z.object({
  target: str,
  mode: z.enum(['stub', 'blank']),
  /** The target's body in the checkout: a stub, or implemented (in stub mode, the tests ran against that body). Absent in sessions saved before tenet recorded it. */
  targetBody: z.enum(['stub', 'implemented']).optional(),
  /** Selection budget; null stands for "all". */
  T: num.nullable(),
  /** How direct callers were named, when not by the default rule `use`: `nearest`, the paper's literal rule (`--caller nearest`). */
  callerRule: z.literal('nearest').optional(),
  testArgs: z.array(str),
  python: z.object({ executable: str, version: str, pytest: str }),
  failing: z.array(thmFailingTestSchema),
  clusters: z.array(clusterSchema),
  selected: z.array(str),
  counts: thmCountsSchema,
  alreadyFailing: z.array(str),
  /**
   * Stub mode: the tests that fail for another reason than the target, with where each stopped
   * (see thmOtherFailureSchema). Absent in benchmark mode, where a test failing on the original
   * code too is `alreadyFailing`, and in sessions saved before tenet told them apart (their
   * `failing` holds them, unreached).
   */
  otherFailures: z.array(thmOtherFailureSchema).optional(),
  /** Every module counted in `counts.collectionErrors`, broken ones first (absent in sessions saved before tenet reported them). */
  importErrors: z.array(thmImportErrorSchema).optional(),
  warnings: z.array(str),
  /** pytest processes the suite was spread over. */
  shards: num,
  /**
   * Benchmark mode ran in one pass, forking a blank twin of each test at its first call of the
   * target (sessions saved before named it `fork`: session/event-upgrade.ts renames it on reading).
   */
  twins: bool,
  /** Benchmark mode ran both worlds from one collection, in lanes forked from it (see observeWorlds). */
  worlds: bool.optional(),
  /** The reach index's part (absent in sessions saved before tenet had one). */
  reach: reachUseSchema.optional(),
  /**
   * Where the time went: the pass over the scope, the re-run of failing tests on the original code
   * (two-pass mode), the blank re-run of what the twins could not decide (twin mode).
   */
  timings: z.object({ probeMs: num, originalMs: num, blankMs: num }),
  /** True when the whole-run timeout stopped THM before every test ran. */
  timedOut: bool,
  /** With `timedOut`: the budget it stopped at, in seconds (`--thm-timeout`, `thm --timeout`). */
  timeoutSec: num.optional(),
  durationMs: num,
});
export type ThmReport = z.infer<typeof thmReportSchema>;

/**
 * What a THM run stopped by its time budget did not get to, in words (`before pytest had collected
 * a test`, `with 40 of 1,200 tests run`); undefined when it was not stopped so.
 */
export function thmTimeoutWords(
  report: Pick<ThmReport, 'timedOut' | 'timeoutSec' | 'durationMs' | 'counts'>,
): string | undefined {
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
export function unreachedTests<T extends { nodeid: string; reached: boolean }>(
  report: Pick<ThmReport, 'importErrors'> & { failing: T[] },
): T[] {
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
export function failingTestCounts(report: Pick<ThmReport, 'importErrors' | 'counts' | 'failing'>): {
  failing: number;
  unreached: number;
  modules: number;
} {
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
