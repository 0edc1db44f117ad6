import { TenetError } from '../errors';
import { EXIT } from '../exit-codes';
import type { EventSink, ThmPhase } from '../events';
import { encodeSource } from '../python-source/source-text';
import type { PreparedTarget } from '../task/prepare-target';
import { framesInOriginal, originalLineOf } from './original-lines';
import { PassProgress } from './pass-progress';
import type { PluginEvent, ProbeFrame } from './plugin-lines';
import type { PassMode, PassResult } from './pass-types';
import { runPytestPass } from './pytest-pass';
import type { ThmContext, ThmOptions } from './thm-options';
import type { ThmReport } from '../protocol/thm-report';

export async function setTargetText(ctx: ThmContext, text: string): Promise<void> {
  await ctx.workspace.write(ctx.target.file, encodeSource({ text, encoding: ctx.target.source.encoding }));
  await ctx.sandbox.syncFile(ctx.target.file);
}

export interface PassExtras {
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

/** One pytest pass over the scope (or `only` of it), with the target's module as `text` (unchanged when undefined). */
export type Pass = (
  phase: ThmPhase,
  text: string | undefined,
  mode: PassMode,
  extras?: PassExtras,
) => Promise<PassResult>;

/** What every pass of one THM run shares: where it runs, how it reports, and its budget. */
export interface PassSetting {
  env: Record<string, string>;
  shards: number;
  /** When the whole THM run's budget ends (ms since the epoch). */
  deadline: number;
  emit: EventSink;
  /** The tests the reach index leaves out (see reach-scope.ts). */
  leaveOut?: { files: string[]; tests: string[] };
}

/**
 * The passes of one THM run: each sets the target's module text, runs pytest with the plugin,
 * turns its events into `thm.*` events, and gives the chains in the module's original lines.
 * `timings` adds up each phase's time.
 */
export function thmPasses(
  ctx: ThmContext,
  options: ThmOptions,
  setting: PassSetting,
): { pass: Pass; timings: ThmReport['timings'] } {
  const { env, shards, deadline, emit, leaveOut } = setting;
  const timings = { probeMs: 0, originalMs: 0, blankMs: 0 };
  let ran = ctx.target.startText; // the target module's text in the workspace

  const pass: Pass = async (phase, text, mode, { only, stopAtStartHit, collectOnly } = {}) => {
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
      ...(leaveOut ? { leaveOut } : {}),
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
          // Twin mode: what counts is the outcome with the target blank (the twin's).
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
  return { pass, timings };
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
