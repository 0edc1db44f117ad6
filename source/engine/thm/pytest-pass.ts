import { randomBytes } from 'node:crypto';
import { posix } from 'node:path';
import type { PassOptions, PassResult } from './pass-types';
import type { PluginCollectError, PluginEvent, PluginTestEvent } from './plugin-lines';
import { LanesProcess, soloAttempt, type ShardAttempt } from './shard-process';

/** Flags every THM pytest run gets; the user's `--tests` arguments come after them and win. */
export const PYTEST_FLAGS = [
  '-p',
  '_tenet_thm_plugin',
  '-q',
  '--tb=native',
  // Without it one module that fails to import (say, it calls the target at import time) stops the whole run.
  '--continue-on-collection-errors',
  // Undo a `-x` in the project's addopts: THM needs every failure.
  '--maxfail=2147483647',
  // No terminal summary: tenet reads every outcome from the plugin, and the summary's hooks run
  // after the last test, in each lane (hypothesis's plugin imports hypothesis there: 0.1 s).
  '--no-summary',
];

/**
 * Grace on top of the per-test timeout before tenet kills a test process that stopped answering
 * (the plugin's own timer could not interrupt it): as long as the timeout, within 2..10 s.
 */
function hangGraceMs(testTimeoutSec: number): number {
  return Math.min(10_000, Math.max(2_000, testTimeoutSec * 1000));
}
/** How long a test (or a module's import) may go without an answer before tenet kills its process: never with no per-test timeout. */
function hangLimitMs(testTimeoutSec: number): number {
  return testTimeoutSec > 0 ? testTimeoutSec * 1000 + hangGraceMs(testTimeoutSec) : Infinity;
}
/** How many times one shard is restarted after a test crashed its process. */
const MAX_RESTARTS = 20;
/** pytest's exit codes that mean it did not run what it was asked to. */
const PYTEST_REFUSED = new Map([
  [3, 'internal error'],
  [4, 'usage error'],
]);

/** A pass over `shards` shards before any of them said anything. */
export const emptyPass = (shards: number): PassResult => ({
  shards,
  collected: 0,
  tests: new Map(),
  original: new Map(),
  collectErrors: [],
  collectHits: [],
  targetLoaded: false,
  outside: [],
  leftOut: { files: new Set(), tests: new Set() },
  problems: [],
  notes: [],
  timedOut: false,
  aborted: false,
  tripped: [],
});

/** One pytest run of a scope, split into shards that run in parallel, surviving hangs and crashes. */
export async function runPytestPass(asked: PassOptions): Promise<PassResult> {
  let options = asked;
  const result = emptyPass(options.shards);
  if (options.judge && (options.shards > 1 || options.mode !== 'record'))
    throw new Error('a judged pass runs in one process, in record mode');
  const scratch = '.tenet';
  const listFile = async (name: string, ids: Iterable<string>): Promise<string> => {
    const rel = `${scratch}/${options.label}-${name}.txt`;
    await options.workspace.write(rel, `${[...ids].join('\n')}\n`);
    await options.sandbox.syncFile(rel);
    return posix.join(options.sandbox.workdir, rel);
  };
  const onlyFile = options.only ? await listFile('only', options.only) : undefined;
  if (options.leaveOut)
    options = {
      ...options,
      env: { ...options.env, TENET_LEAVE_OUT: await listFile('leave-out', [JSON.stringify(options.leaveOut)]) },
    };
  const hitsFile = await listFile('subprocess-hits', []);
  const shards = options.shard?.count ?? Math.max(1, options.shards);
  // Shards first run in lanes of one process, which collects the scope once for all of them.
  const lanes =
    !options.shard && (shards > 1 || options.mode === 'worlds')
      ? new LanesProcess(options.sandbox, pytestArgv(options, []), {
          ...baseEnv(options, hitsFile, onlyFile),
          TENET_LANES: `${options.autoShards ? 'auto:' : ''}${shards}`,
        })
      : undefined;
  const stopWatching =
    lanes && options.mode === 'worlds' ? watchOriginalWorld(lanes, options, result) : () => undefined;
  // Test modules whose import hung: left out of the restarts of every shard (each is a collection error).
  const ignored: string[] = [];
  const shared: ShardsShare = { count: shards, options, result, listFile, onlyFile, hitsFile, lanes, ignored };
  const indexes = options.shard ? [options.shard.index] : Array.from({ length: shards }, (_, index) => index);
  await Promise.all(indexes.map((index) => runShard({ ...shared, index })));
  stopWatching();
  result.shards = lanes?.shardCount(shards) ?? shards;
  return result;
}

/**
 * Mode worlds: the original world's lanes. What they finish is kept; a test of theirs that hangs
 * past the grace takes the process down, and what they did not finish tenet runs in a pass of its
 * own on the original code (see observeWorlds in run-thm.ts).
 */
function watchOriginalWorld(lanes: LanesProcess, options: PassOptions, result: PassResult): () => void {
  // Each lane's test in progress: a lane that died is no hang (its tests get a pass of their own).
  const running = new Map<number | undefined, number>();
  lanes.onOriginal = (event) => {
    if (event.e === 'start') running.set(event.lane, Date.now());
    if (event.e === 'test' || event.e === 'laneexit') running.delete(event.lane);
    if (event.e === 'test') result.original.set(event.nodeid, event);
    options.onEvent?.(event);
  };
  const limit = hangLimitMs(options.testTimeoutSec);
  const watchdog = setInterval(() => {
    const now = Date.now();
    if ([...running.values()].some((since) => now - since > limit)) lanes.killForAll();
  }, 250);
  return () => clearInterval(watchdog);
}

function pytestArgv(options: PassOptions, ignored: string[]): string[] {
  return [
    options.python,
    '-m',
    options.judge ? '_tenet_judge' : 'pytest',
    ...PYTEST_FLAGS,
    ...ignored.map((file) => `--ignore=${file}`),
    ...options.testArgs,
  ];
}

function baseEnv(
  options: PassOptions,
  hitsFile: string,
  onlyFile: string | undefined,
  solo = false,
): Record<string, string> {
  const env: Record<string, string> = {
    ...options.env,
    TENET_TEST_TIMEOUT: String(options.testTimeoutSec),
    // A shard of mode worlds restarted on its own runs the blank world only (tenet runs the rest
    // of the original world).
    TENET_MODE: solo && options.mode === 'worlds' ? 'blank' : options.mode,
    TENET_HITS_FILE: hitsFile,
  };
  // A local pytest dies with tenet even on SIGKILL (see _die_with_parent in the plugin).
  if (options.sandbox.kind === 'local') env.TENET_PARENT_PID = String(process.pid);
  if (onlyFile) env.TENET_ONLY = onlyFile;
  if (options.reportText === false) env.TENET_TEXT = '0';
  if (options.judge) env.TENET_JUDGE_LINES = options.judge.lines.join('-');
  if (options.judge?.spans) env.TENET_JUDGE_SPANS = JSON.stringify(options.judge.spans);
  return env;
}

/** What the shards of one pass share: where each writes its outcomes, its list files, the lanes. */
interface ShardsShare {
  /** How many shards the scope was split into (`--jobs`). */
  count: number;
  options: PassOptions;
  /** The pass's result, which every shard adds its tests to. */
  result: PassResult;
  /** Writes a list of node ids to a file the sandbox sees, and returns its path there. */
  listFile: (name: string, ids: Iterable<string>) => Promise<string>;
  /** The file of the only tests to run (the pass's `only`), when it has one. */
  onlyFile: string | undefined;
  /** Where the plugin notes tests whose subprocesses called the target. */
  hitsFile: string;
  /** The one process whose forked lanes run the shards first; undefined: each shard is a process of its own. */
  lanes: LanesProcess | undefined;
  /** Test modules whose import hung: left out of the restarts of every shard. */
  ignored: string[];
}

/** Runs shard `index` of `count`: in its lane first, then, for what the lane did not finish, in a pytest process of its own. */
async function runShard(shard: ShardsShare & { index: number }): Promise<void> {
  const { index, count, options, result, listFile, onlyFile, hitsFile, lanes, ignored } = shard;
  const finished = new Set<string>();
  let shards = count;
  // A lane that took units as it went: what it left undone, run as a process of its own.
  let leftoverFile: string | undefined;
  for (let attempt = 0; ; attempt++) {
    const finishedBefore = finished.size;
    let child: ShardAttempt;
    if (attempt === 0 && lanes) child = lanes.lane(index);
    else {
      const leftover = attempt === 1 && lanes ? lanes.lane(index).leftover(finished) : undefined;
      if (leftover && !leftover.length) return;
      if (leftover) leftoverFile = await listFile(`lane-${index}`, leftover);
      const env: Record<string, string> = leftoverFile
        ? { ...baseEnv(options, hitsFile, leftoverFile, true) }
        : { ...baseEnv(options, hitsFile, onlyFile, true), TENET_SHARD: `${index}/${shards}` };
      if (finished.size) env.TENET_SKIP = await listFile(`skip-${index}`, finished);
      if (attempt > 0 && options.judge) {
        // What the judged process wrote in the copy would be loaded by the next (a conftest.py).
        const changed = await options.judge.changedCopy();
        if (changed) {
          result.forged ??= changed;
          return;
        }
      }
      child = soloAttempt(
        options.sandbox,
        pytestArgv(options, ignored),
        env,
        options.judge ? randomBytes(32) : undefined,
      );
    }
    let inflight:
      | { nodeid: string; since: number; order?: number; hit?: Extract<PluginEvent, { e: 'hit' }> }
      | undefined;
    let collecting: { nodeid: string; since: number } | undefined;
    let hungImport: string | undefined;
    let exitstatus = 0;
    let done = false;
    let hung = false;
    let laneExit: Extract<PluginEvent, { e: 'laneexit' }> | undefined;
    child.listen((event) => {
      switch (event.e) {
        case 'laneexit':
          laneExit = event;
          break;
        case 'collected':
          result.collected = event.total;
          break;
        case 'start':
          inflight = {
            nodeid: event.nodeid,
            since: Date.now(),
            ...(event.order !== undefined ? { order: event.order } : {}),
          };
          break;
        case 'hit':
          if (inflight?.nodeid === event.nodeid) inflight.hit = event;
          break;
        case 'twin':
          // The blank twin gets its own time budget.
          if (inflight?.nodeid === event.nodeid) inflight.since = Date.now();
          break;
        case 'collecthit':
          if (!result.collectHits.some((c) => c.nodeid === event.nodeid)) result.collectHits.push(event);
          break;
        case 'starthit':
          result.startHit ??= event.chain;
          break;
        case 'collecting':
          collecting = { nodeid: event.nodeid, since: Date.now() };
          break;
        case 'collectingdone':
          collecting = undefined;
          break;
        case 'test':
          inflight = undefined;
          finished.add(event.nodeid);
          result.tests.set(event.nodeid, event);
          break;
        case 'collecterror':
          if (!result.collectErrors.some((c) => c.nodeid === event.nodeid)) result.collectErrors.push(event);
          break;
        case 'done':
          done = true;
          exitstatus = event.exitstatus;
          result.targetLoaded ||= event.targetLoaded;
          for (const copy of event.outside)
            if (!result.outside.some((o) => o.file === copy.file)) result.outside.push(copy);
          break;
        case 'tripped':
          result.tripped.push(event);
          break;
        case 'leftout':
          for (const file of event.files) result.leftOut.files.add(file);
          for (const nodeid of event.tests) result.leftOut.tests.add(nodeid);
          break;
        case 'configured':
          if (event.xdist) {
            const note = `The project's pytest options ask pytest-xdist for ${event.xdist}: turned off, as its workers would run the tests out of tenet's sight (tenet runs them in lanes of its own).`;
            if (!result.notes.includes(note)) result.notes.push(note);
          }
          break;
        case 'lanes':
          break;
      }
      options.onEvent?.(event);
    });

    const limit = hangLimitMs(options.testTimeoutSec);
    const watchdog = setInterval(() => {
      const now = Date.now();
      if (options.deadline !== undefined && now > options.deadline) {
        result.timedOut = true;
        child.kill();
      } else if (inflight && !laneExit && now - inflight.since > limit) {
        // (A lane that ended, say its interpreter died, hangs nothing: the other lanes go on.)
        hung = true;
        child.kill();
      } else if (collecting && now - collecting.since > limit) {
        // No test runs yet, so the per-test timeout inside pytest cannot fire: the import itself hangs.
        hungImport = collecting.nodeid;
        child.kill();
      }
    }, 250);
    const onAbort = () => {
      result.aborted = true;
      child.kill();
    };
    options.signal?.addEventListener('abort', onAbort, { once: true });
    const status = await child.exited;
    clearInterval(watchdog);
    options.signal?.removeEventListener('abort', onAbort);
    const stderr = child.stderr();
    result.forged ??= child.forged();

    if (done && PYTEST_REFUSED.has(exitstatus)) {
      // pytest ran but refused part of the arguments (e.g. `ERROR: not found: a::test` when a test
      // does not exist in this environment): say so, or the run looks like one with no tests.
      const output = `${stderr}\n${child.noise()}`.trim();
      const problem = `pytest stopped with exit code ${exitstatus} (${PYTEST_REFUSED.get(exitstatus)})${output ? `:\n${output.slice(-2000)}` : ''}`;
      if (!result.problems.includes(problem)) result.problems.push(problem);
    }
    if (done || result.timedOut || result.aborted) return;
    if (hungImport !== undefined) {
      const message = `importing the test module hung: no answer ${options.testTimeoutSec}s after pytest started collecting it, tenet killed its process`;
      const error: PluginCollectError = {
        e: 'collecterror',
        nodeid: hungImport,
        message,
        longrepr: `${message}\n${stderr.slice(-2000)}`,
        chain: null,
        entryKind: null,
      };
      if (!result.collectErrors.some((c) => c.nodeid === hungImport)) result.collectErrors.push(error);
      options.onEvent?.(error);
      ignored.push(hungImport);
      if (attempt < MAX_RESTARTS) continue;
      result.problems.push(
        `shard ${index + 1}/${count}: gave up after ${MAX_RESTARTS} hung or crashed test modules and tests`,
      );
      return;
    }
    // The scope was split into fewer lanes than shards asked for: this one has no tests.
    if (child.shared && index >= child.shardCount(count)) return;
    if (child.shared) shards = child.shardCount(count);
    const how = laneExit
      ? laneExit.signal !== null
        ? `was killed by signal ${laneExit.signal}`
        : `exited with code ${laneExit.exitCode}`
      : (status.error ?? (status.signal ? `was killed by ${status.signal}` : `exited with code ${status.exitCode}`));
    const output = `${stderr}\n${child.noise()}`.trim();
    // A lane that did not finish (its lane died, or never started, or another lane's hung test
    // took the shared process down) runs its remaining tests as a shard of its own.
    if (child.shared && (!inflight || child.killedForAnother())) {
      // A lane that stopped between its tests by itself: pytest's own stop, said as below.
      if (!inflight && !child.killedForAnother() && finished.size > finishedBefore)
        result.problems.push(stoppedBetweenTests(how, finished, output));
      // After the lane that killed the process has noted why (a hung import to leave out).
      await new Promise((resolve) => setImmediate(resolve));
      continue;
    }
    if (inflight) {
      const { nodeid } = inflight;
      const message = hung
        ? `the test hung: no answer ${options.testTimeoutSec}s after it started, tenet killed its process`
        : `the test process ${how} during this test`;
      const synthetic: PluginTestEvent = {
        e: 'test',
        nodeid,
        ...(inflight.order !== undefined ? { order: inflight.order } : {}),
        outcome: 'error',
        phase: null,
        message,
        longrepr: `${message}\n${stderr.slice(-2000)}`,
        file: null,
        line: null,
        durationMs: Date.now() - inflight.since,
        chain: inflight.hit?.chain ?? null,
        entryKind: inflight.hit?.entryKind ?? null,
        timedOut: hung,
        crashed: true,
        needsBlank: options.mode === 'fork',
      };
      result.tests.set(nodeid, synthetic);
      finished.add(nodeid);
      options.onEvent?.(synthetic);
      if (attempt < MAX_RESTARTS) continue;
      result.problems.push(`shard ${index + 1}/${count}: gave up after ${MAX_RESTARTS} crashed tests`);
      return;
    }
    // pytest itself stopped between tests (an INTERNALERROR: a test left the process unable to
    // report the next one, as colorama's do with os.name patched): the tests after it run in a new
    // process, as after a crash, while each attempt gets further.
    if (finished.size > finishedBefore && attempt < MAX_RESTARTS) {
      result.problems.push(stoppedBetweenTests(how, finished, output));
      continue;
    }
    // Said once: the shards of a scope pytest refuses all fail alike (a usage error before the lanes fork).
    const problem = `pytest ${how} before reporting its results${output ? `:\n${output.slice(-3000)}` : ''}`;
    if (!result.problems.includes(problem)) result.problems.push(problem);
    return;
  }
}

/**
 * What a run says of pytest stopping between two tests: after which, and why when it said (the
 * exception its INTERNALERROR lines end with, or the traceback of a lane whose session's end
 * failed too).
 */
function stoppedBetweenTests(how: string, finished: ReadonlySet<string>, output: string): string {
  const why = output
    .split('\n')
    .reverse()
    .find((line) => /^(INTERNALERROR> )?\w*(Error|Exception)\b/.test(line))
    ?.replace(/^INTERNALERROR> /, '');
  return `pytest ${how} after ${[...finished].at(-1)}${why ? ` (${why})` : ''}: the tests after it ran in a new pytest process`;
}
