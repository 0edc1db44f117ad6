import { availableParallelism } from 'node:os';
import { posix } from 'node:path';
import { TenetError } from '../errors';
import { EXIT } from '../exit-codes';
import type { EventSink, ThmPhase } from '../events';
import { pythonEnv } from '../python/pytest-env';
import { encodeSource } from '../python/source-text';
import type { Sandbox } from '../sandbox/sandbox';
import type { PythonInfo } from '../task/interpreter';
import { implementedWarning, type PreparedTarget } from '../task/prepare-target';
import type { Workspace } from '../workspace/workspace';
import { firstUsersReach } from './cached-fixtures';
import { chainedTests, clusterTests, directCaller, selectTests, type CallerRule } from './clustering';
import { framesInOriginal, originalLineOf } from './original-lines';
import type { PluginCollectError, PluginEvent, PluginTestEvent, ProbeFrame } from './protocol';
import { runPytestPass, type PassMode, type PassResult } from './pytest-pass';
import { scopeFix } from './scope-fix';
import { importErrorSite } from './import-error-site';
import { PassProgress } from './pass-progress';
import type { ThmFailingTest, ThmReport } from '../protocol/thm-report';

export interface ThmOptions {
  /** Selection budget; Infinity selects every reached failing test. */
  T: number;
  /** pytest arguments for the scope (default: the repository's own configuration). */
  testArgs: string[];
  testTimeoutSec: number;
  /** Budget for the whole THM run. */
  timeoutSec: number;
  /** pytest processes to spread the suite over; 'auto' decides from the suite's size and the cores. */
  jobs: number | 'auto';
  /**
   * Benchmark mode in one pass: fork a blank twin of each test at its first call of the target
   * (see source/python/_tenet_probe.py). Off: a blank pass, then the failing tests on the original.
   */
  fork: boolean;
  /**
   * Benchmark mode's two worlds from one collection, in forked lanes (see observeWorlds), instead
   * of a twin forked per test. With `fork`; by default where the tests run in several lanes (a
   * fork per test costs more than a lane per world: networkx, 1,822 tests over 2 lanes, 25 s
   * against 31 s; jsonschema's one-directory suite 1.25 s against 8.8 s).
   */
  worlds?: boolean;
  /** How each failing test's direct caller is named (see directCaller); default `use`. */
  caller?: CallerRule;
  signal?: AbortSignal;
  emit?: EventSink;
}

export const THM_DEFAULTS = {
  T: 3,
  testTimeoutSec: 60,
  timeoutSec: 3600,
  jobs: 'auto' as const,
  fork: true,
  caller: 'use' as CallerRule,
};

export interface ThmContext {
  sandbox: Sandbox;
  workspace: Workspace;
  target: PreparedTarget;
  python: PythonInfo;
}

/** Suites with fewer test files than this run in one process: a second one would only add start-up. */
const SHARDING_MIN_TEST_FILES = 12;

export function lanesForCores(): number {
  return Math.min(availableParallelism(), 4);
}

export function shardCount(jobs: number | 'auto', testFiles: number): number {
  if (jobs !== 'auto') return Math.max(1, Math.floor(jobs));
  return testFiles >= SHARDING_MIN_TEST_FILES ? Math.min(availableParallelism(), 4) : 1;
}

export async function setTargetText(ctx: ThmContext, text: string): Promise<void> {
  await ctx.workspace.write(ctx.target.file, encodeSource({ text, encoding: ctx.target.source.encoding }));
  await ctx.sandbox.syncFile(ctx.target.file);
}

type Observed = PluginTestEvent | PluginCollectError;

const FAILED = new Set(['failed', 'error']);
const failed = (event: Observed | undefined): boolean =>
  !!event && (event.e === 'collecterror' || FAILED.has(event.outcome));

/** Whether a test failed in a world whose outcomes are `tests` and whose modules failed to import with `errors`. */
const failsIn =
  (tests: ReadonlyMap<string, PluginTestEvent>, errors: readonly PluginCollectError[]) =>
  (nodeid: string): boolean =>
    failed(tests.get(nodeid)) || errors.some((c) => c.nodeid === nodeid);

/**
 * What THM observed, per world: `blank` holds every test's outcome with the target unimplemented
 * (with its chain); `originalFailed` tells, for tests that failed blank, whether they fail on
 * the original code too (benchmark mode only).
 */
interface Observations {
  /** Tests in scope in the blank world (a module that fails to import blank has none). */
  collected: number;
  blank: Map<string, PluginTestEvent>;
  blankCollectErrors: PluginCollectError[];
  /** Tests of modules that fail to import blank, as the original world ran them (see firstUsersReach). */
  importedAway: PluginTestEvent[];
  originalFailed: (nodeid: string) => boolean;
  probe: PassResult;
}

/**
 * The Test Harness Mechanism: run the suite against the unimplemented target with the probe in
 * place, keep the failing tests (in benchmark mode, those that pass on the original code), record
 * each one's call chain, cluster them by the target's direct caller and select at most T.
 */
export async function runThm(ctx: ThmContext, options: ThmOptions): Promise<ThmReport> {
  const started = Date.now();
  const emit: EventSink = options.emit ?? (() => undefined);
  // Shards are lanes of one pytest process that collects once (see pytest-pass.ts): one per core
  // costs a fork each, and the plugin uses fewer when the scope has few tests.
  const shards = options.jobs === 'auto' ? lanesForCores() : shardCount(options.jobs, 0);
  const deadline = started + options.timeoutSec * 1000;
  const forks =
    ctx.target.mode === 'blank' &&
    options.fork &&
    ctx.target.probedOriginalText !== undefined &&
    process.platform !== 'win32';
  const worlds = forks && (options.worlds ?? shards > 1);
  const fork = forks && !worlds;
  const env = {
    ...pythonEnv(ctx.sandbox, ctx.workspace.root, ctx.target.file),
    TENET_ROOT: ctx.sandbox.workdir,
    TENET_TARGET_FILE: posix.join(ctx.sandbox.workdir, ctx.target.file),
  };
  emit({
    type: 'thm.start',
    target: ctx.target.id,
    mode: ctx.target.mode,
    fork,
    ...(worlds ? { worlds } : {}),
    shards,
    testArgs: options.testArgs,
  });
  const timings = { probeMs: 0, originalMs: 0, blankMs: 0 };
  let ran = ctx.target.startText; // the target module's text in the workspace

  const pass = async (
    phase: ThmPhase,
    text: string | undefined,
    mode: PassMode,
    { only, stopAtStartHit, collectOnly }: PassExtras = {},
  ): Promise<PassResult> => {
    const passStarted = Date.now();
    const stop = stopAtStartHit ? new AbortController() : undefined;
    if (stop) options.signal?.addEventListener('abort', () => stop.abort(), { once: true });
    const signal = stop?.signal ?? options.signal;
    if (text !== undefined) await setTargetText(ctx, text);
    if (text !== undefined) ran = text;
    emit({ type: 'thm.phase', phase, ...(only ? { tests: only.length } : {}) });
    let collectedSent = false;
    const progress = new PassProgress(phase, only?.length);
    const result = await runPytestPass({
      sandbox: ctx.sandbox,
      workspace: ctx.workspace,
      python: ctx.python.executable,
      env,
      testArgs: collectOnly ? [...options.testArgs, '--collect-only'] : options.testArgs,
      // Collecting only: one process, no lanes to run tests in.
      shards: collectOnly ? 1 : shards,
      autoShards: !collectOnly && options.jobs === 'auto',
      testTimeoutSec: options.testTimeoutSec,
      deadline,
      label: phase,
      mode,
      // The original code's failures in two-pass mode are counted, never shown.
      reportText: phase !== 'original',
      ...(only ? { only } : {}),
      ...(signal ? { signal } : {}),
      onEvent: (event: PluginEvent) => {
        if (event.e === 'starthit') stop?.abort();
        if (event.world === 'original') {
          // Mode worlds: the original world's lanes, within this pass.
          if (event.e === 'lanes') emit({ type: 'thm.phase', phase: 'original', tests: event.tests?.length ?? 0 });
          else if (event.e === 'test')
            emit({
              type: 'thm.test',
              phase: 'original',
              nodeid: event.nodeid,
              outcome: event.outcome,
              reached: !!event.chain,
              durationMs: event.durationMs,
            });
          return;
        }
        const more = progress.observe(event);
        if (more) emit(more);
        if (event.e === 'collected' && !collectedSent) {
          collectedSent = true;
          emit({ type: 'thm.collected', phase, total: event.total });
        } else if (event.e === 'test') {
          // Fork mode: what counts is the outcome with the target blank (the twin's).
          const outcome = event.crashed ? 'crashed' : (event.blank?.outcome ?? event.outcome);
          emit({
            type: 'thm.test',
            phase,
            nodeid: event.nodeid,
            outcome,
            reached: !!event.chain,
            durationMs: event.durationMs,
          });
        }
      },
    });
    if (result.aborted && (options.signal?.aborted || !stop?.signal.aborted))
      throw new TenetError('THM was cancelled.', undefined, EXIT.interrupted);
    timings[`${phase}Ms`] += Date.now() - passStarted;
    return inOriginalLines(result, ctx.target, originalLineOf(ran, ctx.target.originalText));
  };

  try {
    let observed: Observations;
    let calledAsItStarts = false;
    if (ctx.target.mode === 'stub') {
      const probe = checkRan(await pass('probe', ctx.target.probedText, 'record'), ctx);
      observed = {
        collected: probe.collected,
        blank: probe.tests,
        blankCollectErrors: probe.collectErrors,
        importedAway: [],
        originalFailed: () => false,
        probe,
      };
    } else if (worlds || fork) {
      const fromOneCollection = await (worlds ? observeWorlds : observeForked)(ctx, pass);
      calledAsItStarts = !fromOneCollection;
      observed = fromOneCollection ?? (await observeTwoPass(ctx, pass));
      if (calledAsItStarts)
        observed.probe.problems.unshift(
          `${ctx.target.id} is called while pytest starts (a conftest.py's import or hook), so no collection on the original code stands for the blank world: every test ran in a blank pass of its own`,
        );
    } else {
      observed = await observeTwoPass(ctx, pass);
    }
    firstUsersReach(observed.blank, observed.importedAway);
    return buildReport(ctx, options, observed, {
      shards: observed.probe.shards,
      fork: fork && !calledAsItStarts,
      worlds: worlds && !calledAsItStarts,
      started,
      timings,
    });
  } finally {
    // The workspace is left as the agent starts from it: the blank or the developer's stub.
    await setTargetText(ctx, ctx.target.startText);
  }
}

/** The pass's chains with the lines of the target's module as in the original (see original-lines.ts). */
function inOriginalLines(result: PassResult, target: PreparedTarget, lineOf: (line: number) => number): PassResult {
  const fix = (chain: ProbeFrame[]) => framesInOriginal(chain, target, lineOf);
  for (const tests of [result.tests, result.original]) {
    for (const [nodeid, test] of tests) if (test.chain) tests.set(nodeid, { ...test, chain: fix(test.chain) });
  }
  result.collectErrors = result.collectErrors.map((error) =>
    error.chain ? { ...error, chain: fix(error.chain) } : error,
  );
  result.collectHits = result.collectHits.map((hit) => ({ ...hit, chain: fix(hit.chain) }));
  if (result.startHit) result.startHit = fix(result.startHit);
  return result;
}

interface PassExtras {
  /** Only these tests (node ids, or files for all of theirs). */
  only?: string[];
  /** Import the test modules, run no test (`--collect-only`). */
  collectOnly?: true;
  /**
   * Stop at the target's first call outside every test and collector before the tests run (a
   * conftest.py's import or hook): a pass that collects on the original code then stands for no
   * blank world.
   */
  stopAtStartHit?: true;
}
type Pass = (phase: ThmPhase, text: string | undefined, mode: PassMode, extras?: PassExtras) => Promise<PassResult>;

function checkRan(probe: PassResult, ctx: ThmContext): PassResult {
  if (probe.collected === 0 && probe.collectErrors.length === 0 && probe.problems.length) {
    if (probe.startHit) throw calledAsPytestStarts(ctx, probe.startHit, probe.problems);
    // pytest's own output keeps its blank lines; here they only spread the message out.
    const said = probe.problems.join('\n').replace(/\n\s*\n/g, '\n');
    throw new TenetError(`pytest could not run the tests:\n${said}`, scopeFix(ctx.workspace.root, probe.problems));
  }
  return probe;
}

/**
 * pytest stopped before any test, and the target had been called outside every test: by a
 * conftest.py as pytest imported it (sympy's imports `sympy`, whose import computes with
 * `igcd`). With the target blank, or the developer's stub, no test of the scope can even start,
 * so there are no failing tests to choose from: say that, and where the call comes from.
 */
function calledAsPytestStarts(ctx: ThmContext, chain: ProbeFrame[], problems: string[]): TenetError {
  const body = ctx.target.mode === 'blank' ? 'its body blank' : 'its body the stub';
  // importlib's own frames say nothing the file names around them do not.
  const code = chain.filter((frame) => !frame.name.startsWith('<frozen '));
  // A long chain keeps its first frame, the import whose top level makes the call, and its end.
  let lastImport = -1;
  code.forEach((frame, index) => {
    if (frame.name.endsWith('::<module>')) lastImport = index;
  });
  const kept = [...new Set([0, lastImport, code.length - 3, code.length - 2, code.length - 1])]
    .filter((index) => index >= 0)
    .sort((a, b) => a - b);
  const shown =
    code.length > 6
      ? kept.flatMap((index, at) => (at > 0 && index > kept[at - 1]! + 1 ? ['…', code[index]!] : [code[index]!]))
      : code;
  const where = shown
    .map((frame) => (typeof frame === 'string' ? frame : `${frame.name}:${frame.line}`))
    .join('\n  → ');
  // pytest's traceback retells the chain above: its head (what failed) and its end (the call) suffice.
  const said = problems.join('\n').split('\n');
  const told = said.length > 16 ? [...said.slice(0, 3), `  … (${said.length - 13} lines)`, ...said.slice(-10)] : said;
  return new TenetError(
    `${ctx.target.id} is called while pytest starts, before any test runs:\n  ${where}\n` +
      `With ${body}, that call fails and pytest stops before any test: there is no failing test to choose from. What pytest said:\n${told.join('\n')}`,
    ctx.target.mode === 'blank'
      ? 'choose a target that importing the package and its conftest.py does not call (benchmark mode needs the suite to start with the target blank)'
      : 'give the stub a body that serves this call (or move the call out of import time), then run tenet again',
  );
}

/** Blank pass over the scope, then the tests that failed, on the original code. */
async function observeTwoPass(ctx: ThmContext, pass: Pass): Promise<Observations> {
  const probe = checkRan(await pass('probe', ctx.target.probedText, 'record'), ctx);
  const candidates = [...[...probe.tests.values()].filter(failed), ...probe.collectErrors];
  let originalFailed = (_: string) => false;
  if (candidates.length && !probe.timedOut) {
    const original = await pass('original', ctx.target.originalText, 'record', {
      only: candidates.map((c) => c.nodeid),
    });
    originalFailed = failsIn(original.tests, original.collectErrors);
    probe.problems.push(...original.problems.map((p) => `original code: ${p}`));
    probe.timedOut ||= original.timedOut;
  }
  return {
    collected: probe.collected,
    blank: probe.tests,
    blankCollectErrors: probe.collectErrors,
    importedAway: [],
    originalFailed,
    probe,
  };
}

/**
 * Whether each blank failure fails on the original code too, from what the original world gave
 * (`tests`, `errors`) and, for those it did not give (its process died, a test hung, a shard ran
 * on its own), a pass of their own on the original code.
 */
async function completeOriginalWorld(
  ctx: ThmContext,
  pass: Pass,
  probe: PassResult,
  blankFailures: string[],
  tests: Map<string, PluginTestEvent>,
  errors: PluginCollectError[],
): Promise<(nodeid: string) => boolean> {
  const missing = blankFailures.filter((nodeid) => !tests.has(nodeid) && !errors.some((c) => c.nodeid === nodeid));
  if (missing.length && !probe.timedOut) {
    const rest = await pass('original', ctx.target.originalText, 'record', { only: missing });
    for (const [nodeid, test] of rest.tests) tests.set(nodeid, test);
    errors.push(...rest.collectErrors);
    probe.problems.push(...rest.problems.map((p) => `original code: ${p}`));
    probe.timedOut ||= rest.timedOut;
  }
  return failsIn(tests, errors);
}

/**
 * Both worlds from one collection on the original code (PassMode 'worlds'): lanes forked from it
 * run the scope with the target blank, then lanes forked from it again run what failed blank on
 * the original code. What that could not decide runs as in fork mode: a module that called the
 * target at import time again with the target blank, and the blank failures whose original
 * outcome is missing (a lane died, a shard ran on its own) on the original code. Undefined when
 * the target is called as pytest starts (a conftest.py's import): that collection then holds
 * what the original target computed for every test, and stands for no blank world.
 */
async function observeWorlds(ctx: ThmContext, pass: Pass): Promise<Observations | undefined> {
  const probe = await pass('probe', ctx.target.probedOriginalText!, 'worlds', { stopAtStartHit: true });
  if (probe.startHit) return undefined;
  checkRan(probe, ctx);
  const observed = await rerunImportHits(ctx, pass, probe, new Map(probe.tests));
  const blankFailures = [...[...observed.blank.values()].filter(failed), ...observed.blankCollectErrors].map(
    (t) => t.nodeid,
  );
  const originalFailed = await completeOriginalWorld(ctx, pass, probe, blankFailures, new Map(probe.original), [
    ...probe.collectErrors,
  ]);
  return { ...observed, originalFailed, probe };
}

/**
 * Fork and worlds modes collect on the original code: a module that called the target at import
 * time (a collect hit) is run again with the target blank, and its tests take that run's outcomes.
 * `blank` holds the outcomes so far; a module that fails to import blank takes its tests with it.
 */
async function rerunImportHits(
  ctx: ThmContext,
  pass: Pass,
  probe: PassResult,
  blank: Map<string, PluginTestEvent>,
  undecided: string[] = [],
): Promise<Omit<Observations, 'originalFailed' | 'probe'>> {
  const modules = probe.collectHits.map((c) => c.nodeid);
  // A module that failed to import on the original code without calling the target fails the
  // same way blank (its import runs the same code): a broken test module, whose tests run in
  // neither world. Left out here, fork and worlds mode would not say so (IPython's
  // tests/test_paths.py, importing a module that was not installed, went unreported).
  const broken = probe.collectErrors.filter((error) => !modules.includes(error.nodeid));
  let blankCollectErrors: PluginCollectError[] = broken;
  let collected = probe.collected;
  const importedAway: PluginTestEvent[] = [];
  if ((undecided.length || modules.length) && !probe.timedOut) {
    const rerun = await pass('blank', ctx.target.probedText, 'record', { only: [...undecided, ...modules] });
    for (const test of rerun.tests.values()) {
      // The outcome is the re-run's; where the target was reached is the whole pass's: a test run
      // alone sets up a wider fixture itself that, in the whole run, an earlier test set up.
      const whole = probe.tests.get(test.nodeid);
      const where =
        whole?.chain || whole?.failsThrough
          ? {
              chain: whole.chain,
              entryKind: whole.entryKind,
              failsThrough: whole.failsThrough ?? null,
              cache: whole.cache ?? null,
            }
          : {};
      blank.set(test.nodeid, { ...test, ...where });
    }
    blankCollectErrors = [
      ...broken,
      ...rerun.collectErrors,
      ...(await importersOfCallers(ctx, pass, probe, [...modules, ...broken.map((error) => error.nodeid)])),
    ];
    // A module that fails to import blank takes its tests with it, as in a plain blank run.
    for (const error of blankCollectErrors) {
      for (const nodeid of [...blank.keys()]) {
        if (nodeid.startsWith(`${error.nodeid}::`)) {
          importedAway.push(blank.get(nodeid)!);
          blank.delete(nodeid);
          collected--;
        }
      }
    }
    probe.problems.push(...rerun.problems.map((p) => `blank re-run: ${p}`));
    probe.timedOut ||= rerun.timedOut;
  }
  return { collected, blank, blankCollectErrors, importedAway };
}

/**
 * A collect hit through another module (the test module imported `table.py`, whose body called
 * the target): Python keeps that module imported, so the test modules collected after it on the
 * original code imported it without a call, and blank each would fail to import as the first did.
 * They are imported again, blank, running no test: those that fail are blank collection errors.
 */
async function importersOfCallers(
  ctx: ThmContext,
  pass: Pass,
  probe: PassResult,
  done: string[],
): Promise<PluginCollectError[]> {
  const throughAnother = probe.collectHits.some((hit) =>
    hit.chain.slice(1, -1).some((frame) => frame.name.endsWith('::<module>')),
  );
  if (!throughAnother) return [];
  const files = [...new Set([...probe.tests.keys()].map((nodeid) => nodeid.split('::')[0]!))].filter(
    (file) => !done.includes(file),
  );
  if (!files.length) return [];
  const imported = await pass('blank', ctx.target.probedText, 'record', { only: files, collectOnly: true });
  probe.problems.push(...imported.problems.map((p) => `blank re-import: ${p}`));
  return imported.collectErrors;
}

/**
 * One pass on the original code in which each test that calls the target forks a blank twin at
 * that call; a blank pass afterwards only for what the twins could not decide (a subprocess called
 * the target, a module called it at import time, a twin died). Undefined, as observeWorlds, when
 * the target is called as pytest starts.
 */
async function observeForked(ctx: ThmContext, pass: Pass): Promise<Observations | undefined> {
  const probe = await pass('probe', ctx.target.probedOriginalText!, 'fork', { stopAtStartHit: true });
  if (probe.startHit) return undefined;
  checkRan(probe, ctx);
  const blank = new Map<string, PluginTestEvent>();
  const undecided: string[] = [];
  for (const test of probe.tests.values()) {
    if (test.needsBlank) undecided.push(test.nodeid);
    else if (test.blank) blank.set(test.nodeid, { ...test, ...test.blank });
    else blank.set(test.nodeid, test); // never called the target: the same outcome in both worlds
  }
  const observed = await rerunImportHits(ctx, pass, probe, blank, undecided);
  return { ...observed, originalFailed: failsIn(probe.tests, probe.collectErrors), probe };
}

function toFailing(test: Observed, rule: CallerRule): ThmFailingTest {
  const frames: ProbeFrame[] = test.chain ?? [];
  const chain = frames.map((f) => f.name);
  const reached = chain.length > 0;
  const isTest = test.e === 'test';
  return {
    nodeid: test.nodeid,
    reached,
    chain,
    chainLines: frames.map((f) => f.line),
    depth: reached ? chain.length - 1 : null,
    caller: reached ? (directCaller(frames, rule) ?? '(none)') : null,
    entryKind: reached ? test.entryKind : null,
    failsThrough: !reached && isTest ? (test.failsThrough ?? null) : null,
    outcome: isTest ? (test.outcome === 'failed' ? 'failed' : 'error') : 'collection',
    phase: isTest ? test.phase : 'collect',
    message: test.message,
    longrepr: test.longrepr,
    file: isTest ? test.file : test.nodeid,
    line: isTest ? test.line : null,
    timedOut: isTest ? test.timedOut : false,
    crashed: isTest ? !!test.crashed : false,
  };
}

const byNodeid = (a: { nodeid: string }, b: { nodeid: string }) =>
  a.nodeid < b.nodeid ? -1 : a.nodeid > b.nodeid ? 1 : 0;

/** The first line of an error as pytest reports it, without the `E   ` its traceback lines start with. */
function firstLineOf(message: string): string {
  const line =
    message
      .split('\n')
      .map((l) => l.replace(/^E\s+/, '').trim())
      .find((l) => l) ?? '';
  return line.length > 200 ? `${line.slice(0, 199)}…` : line;
}

function buildReport(
  ctx: ThmContext,
  options: ThmOptions,
  observed: Observations,
  run: { shards: number; fork: boolean; worlds: boolean; started: number; timings: ThmReport['timings'] },
): ThmReport {
  const { probe } = observed;
  const blankFailures: Observed[] = [...[...observed.blank.values()].filter(failed), ...observed.blankCollectErrors];
  const alreadyFailing = blankFailures
    .filter((t) => observed.originalFailed(t.nodeid))
    .map((t) => t.nodeid)
    .sort();
  const excluded = new Set(alreadyFailing);
  const rule = options.caller ?? 'use';
  const failing = blankFailures
    .filter((t) => !excluded.has(t.nodeid))
    .map((t) => toFailing(t, rule))
    .sort(byNodeid);
  const reached = chainedTests(failing);
  const clusters = clusterTests(reached);
  const selected = selectTests(clusters, reached, options.T);
  const importErrors = observed.blankCollectErrors
    .map((error) => {
      const message = firstLineOf(error.message || error.longrepr);
      const broken = ctx.target.mode === 'blank' ? excluded.has(error.nodeid) : !error.chain?.length;
      // A broken module's error is the repository's to mend: its kind and place say how and where.
      return {
        module: error.nodeid,
        message,
        broken,
        ...(broken ? importErrorSite(message, error.longrepr, [ctx.sandbox.workdir, ctx.workspace.root]) : {}),
      };
    })
    .sort((a, b) => Number(b.broken) - Number(a.broken) || byNodeid({ nodeid: a.module }, { nodeid: b.module }));
  const implemented = implementedWarning(ctx.target);
  const warnings = [
    ...(implemented ? [implemented] : []),
    ...(ctx.target.probeNote ? [ctx.target.probeNote] : []),
    ...probe.problems,
  ];
  if (probe.outside.length) {
    const where = probe.outside.map((o) => `${o.module} from ${o.file}`).join(', ');
    const message =
      `The tests imported the target's module from outside tenet's workspace (${where}), ` +
      `so they do not run the code tenet changes.`;
    if (!reached.length) {
      throw new TenetError(
        message,
        'make the tests import the repository copy: remove sys.path changes that point at another checkout, ' +
          'or reinstall the package in editable mode from this repository, or pass --python with an environment without it installed',
      );
    }
    warnings.push(message);
  }
  if (!probe.targetLoaded && probe.collected > 0) {
    warnings.push(
      `No test in scope imported ${ctx.target.file}; THM found no test for the target. Widen the scope with --tests.`,
    );
  }
  if (probe.timedOut)
    warnings.push(`THM stopped at its ${options.timeoutSec}s budget before every test ran (--timeout).`);
  const blankWorld = [...observed.blank.values()];
  const count = (...outcomes: string[]) => blankWorld.filter((t) => outcomes.includes(t.outcome)).length;
  return {
    target: ctx.target.id,
    mode: ctx.target.mode,
    targetBody: ctx.target.body,
    T: Number.isFinite(options.T) ? options.T : null,
    ...(rule !== 'use' ? { callerRule: rule } : {}),
    testArgs: options.testArgs,
    python: { executable: ctx.python.executable, version: ctx.python.version, pytest: ctx.python.pytestVersion },
    failing,
    clusters,
    selected,
    counts: {
      collected: observed.collected,
      passed: count('passed', 'xpassed'),
      skipped: count('skipped', 'xfailed'),
      failing: failing.length,
      unreached: failing.filter((f) => !f.reached).length,
      alreadyFailing: alreadyFailing.length,
      collectionErrors: observed.blankCollectErrors.length,
      crashed: blankWorld.filter((t) => t.crashed && !t.timedOut).length,
      timedOut: blankWorld.filter((t) => t.timedOut).length,
    },
    alreadyFailing,
    importErrors,
    warnings,
    shards: run.shards,
    fork: run.fork,
    ...(run.worlds ? { worlds: true } : {}),
    timings: run.timings,
    timedOut: probe.timedOut,
    ...(probe.timedOut ? { timeoutSec: options.timeoutSec } : {}),
    durationMs: Date.now() - run.started,
  };
}
