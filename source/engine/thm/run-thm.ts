import { availableParallelism } from 'node:os';
import { posix } from 'node:path';
import { TenetError } from '../errors';
import type { EventSink, ThmPhase } from '../events';
import { pythonEnv } from '../python/pytest-env';
import { encodeSource } from '../python/source-text';
import type { Sandbox } from '../sandbox/sandbox';
import type { PythonInfo } from '../task/interpreter';
import type { PreparedTarget } from '../task/prepare-target';
import type { Workspace } from '../workspace/workspace';
import { clusterTests, directCaller, selectTests } from './clustering';
import type { PluginCollectError, PluginEvent, PluginTestEvent, ProbeFrame } from './protocol';
import { runPytestPass, type PassResult } from './pytest-pass';
import type { ThmFailingTest, ThmReport } from './report';

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
  signal?: AbortSignal;
  emit?: EventSink;
}

export const THM_DEFAULTS = { T: 3, testTimeoutSec: 60, timeoutSec: 3600, jobs: 'auto' as const };

export interface ThmContext {
  sandbox: Sandbox;
  workspace: Workspace;
  target: PreparedTarget;
  python: PythonInfo;
}

/** Suites with fewer test files than this run in one process: a second one would only add start-up. */
const SHARDING_MIN_TEST_FILES = 12;

export function shardCount(jobs: number | 'auto', testFiles: number): number {
  if (jobs !== 'auto') return Math.max(1, Math.floor(jobs));
  return testFiles >= SHARDING_MIN_TEST_FILES ? Math.min(availableParallelism(), 4) : 1;
}

export async function setTargetText(ctx: ThmContext, text: string): Promise<void> {
  await ctx.workspace.write(ctx.target.file, encodeSource({ text, encoding: ctx.target.source.encoding }));
  await ctx.sandbox.syncFile(ctx.target.file);
}

const FAILED = new Set(['failed', 'error']);

/**
 * The Test Harness Mechanism: run the suite against the unimplemented target with the probe in
 * place, keep the failing tests (in benchmark mode, those that pass on the original code), record
 * each one's call chain, cluster them by the target's direct caller and select at most T.
 */
export async function runThm(ctx: ThmContext, options: ThmOptions): Promise<ThmReport> {
  const started = Date.now();
  const emit = options.emit ?? (() => undefined);
  const shards = shardCount(options.jobs, ctx.workspace.stats.testFiles);
  const deadline = started + options.timeoutSec * 1000;
  const env = {
    ...pythonEnv(ctx.sandbox, ctx.workspace.root, ctx.target.file),
    TENET_ROOT: ctx.sandbox.workdir,
    TENET_TARGET_FILE: posix.join(ctx.sandbox.workdir, ctx.target.file),
  };
  emit({ type: 'thm.start', target: ctx.target.id, mode: ctx.target.mode, shards, testArgs: options.testArgs });

  const pass = async (phase: ThmPhase, text: string, only?: string[]): Promise<PassResult> => {
    await setTargetText(ctx, text);
    emit({ type: 'thm.phase', phase, ...(only ? { tests: only.length } : {}) });
    let collectedSent = false;
    return runPytestPass({
      sandbox: ctx.sandbox,
      workspace: ctx.workspace,
      python: ctx.python.executable,
      env,
      testArgs: options.testArgs,
      shards: only ? Math.min(shards, Math.ceil(only.length / 25)) : shards,
      testTimeoutSec: options.testTimeoutSec,
      deadline,
      label: phase,
      ...(only ? { only } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      onEvent: (event: PluginEvent) => {
        if (event.e === 'collected' && !collectedSent) {
          collectedSent = true;
          emit({ type: 'thm.collected', phase, total: event.total });
        } else if (event.e === 'test') {
          emit({ type: 'thm.test', phase, nodeid: event.nodeid, outcome: event.crashed ? 'crashed' : event.outcome, reached: !!event.chain, durationMs: event.durationMs });
        }
      },
    });
  };

  try {
    const probe = await pass('probe', ctx.target.probedText);
    if (probe.aborted) throw new TenetError('THM was cancelled.', undefined, 130);
    if (probe.collected === 0 && probe.collectErrors.length === 0 && probe.problems.length) {
      throw new TenetError(`pytest could not run the tests:\n${probe.problems.join('\n')}`, 'check the --tests arguments and that the suite runs with plain pytest in the repository');
    }
    const candidates = [
      ...[...probe.tests.values()].filter((t) => FAILED.has(t.outcome)),
      ...probe.collectErrors,
    ];
    let alreadyFailing: string[] = [];
    let failing = candidates;
    if (ctx.target.mode === 'blank' && candidates.length && !probe.timedOut) {
      const original = await pass('original', ctx.target.originalText, candidates.map((c) => c.nodeid));
      if (original.aborted) throw new TenetError('THM was cancelled.', undefined, 130);
      const failsOnOriginal = (nodeid: string) =>
        FAILED.has(original.tests.get(nodeid)?.outcome ?? '') || original.collectErrors.some((c) => c.nodeid === nodeid);
      alreadyFailing = candidates.filter((c) => failsOnOriginal(c.nodeid)).map((c) => c.nodeid).sort();
      const excluded = new Set(alreadyFailing);
      failing = candidates.filter((c) => !excluded.has(c.nodeid));
      probe.problems.push(...original.problems.map((p) => `original code: ${p}`));
      probe.timedOut ||= original.timedOut;
    }
    return buildReport(ctx, options, probe, failing, alreadyFailing, shards, started);
  } finally {
    // The workspace is left as the agent starts from it: the blank or the developer's stub.
    await setTargetText(ctx, ctx.target.startText);
  }
}

function toFailing(test: PluginTestEvent | PluginCollectError): ThmFailingTest {
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
    caller: reached ? (directCaller(chain) ?? '(none)') : null,
    entryKind: reached ? test.entryKind : null,
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

function buildReport(
  ctx: ThmContext,
  options: ThmOptions,
  probe: PassResult,
  candidates: (PluginTestEvent | PluginCollectError)[],
  alreadyFailing: string[],
  shards: number,
  started: number,
): ThmReport {
  const failing = candidates.map(toFailing).sort((a, b) => (a.nodeid < b.nodeid ? -1 : a.nodeid > b.nodeid ? 1 : 0));
  const reached = failing.filter((f) => f.reached).map((f) => ({ nodeid: f.nodeid, chain: f.chain }));
  const clusters = clusterTests(reached);
  const selected = selectTests(clusters, reached, options.T);
  const warnings = [...probe.problems];
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
    warnings.push(`No test in scope imported ${ctx.target.file}; THM found no test for the target. Widen the scope with --tests.`);
  }
  if (probe.timedOut) warnings.push(`THM stopped at its ${options.timeoutSec}s budget before every test ran (--timeout).`);
  const all = [...probe.tests.values()];
  const count = (outcome: string) => all.filter((t) => t.outcome === outcome).length;
  return {
    target: ctx.target.id,
    mode: ctx.target.mode,
    T: Number.isFinite(options.T) ? options.T : null,
    testArgs: options.testArgs,
    python: { executable: ctx.python.executable, version: ctx.python.version, pytest: ctx.python.pytestVersion },
    failing,
    clusters,
    selected,
    counts: {
      collected: probe.collected,
      passed: count('passed') + count('xpassed'),
      skipped: count('skipped') + count('xfailed'),
      failing: failing.length,
      unreached: failing.filter((f) => !f.reached).length,
      alreadyFailing: alreadyFailing.length,
      collectionErrors: probe.collectErrors.length,
      crashed: all.filter((t) => t.crashed && !t.timedOut).length,
      timedOut: all.filter((t) => t.timedOut).length,
    },
    alreadyFailing,
    warnings,
    shards,
    timedOut: probe.timedOut,
    durationMs: Date.now() - started,
  };
}
