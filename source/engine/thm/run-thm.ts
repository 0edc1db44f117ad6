import { posix } from 'node:path';
import type { EventSink } from '../events';
import type { ThmReport } from '../protocol/thm-report';
import { pythonEnv } from '../python-source/pytest-env';
import { buildThmReport } from './build-report';
import { firstUsersReach } from './cached-fixtures';
import type { Observations } from './observations';
import { observeForked, observeStub, observeTwoPass, observeWorlds } from './observe';
import { lanesForCores, shardCount, type ThmContext, type ThmOptions } from './thm-options';
import { planReach, type ReachFor, reachUse, unreachedWarning } from './reach-use';
import { setTargetText, thmPasses } from './thm-pass';

export { lanesForCores, shardCount, THM_DEFAULTS, type ThmContext, type ThmOptions } from './thm-options';
export { setTargetText } from './thm-pass';

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
  const onePass =
    ctx.target.mode === 'blank' &&
    options.onePass &&
    ctx.target.probedOriginalText !== undefined &&
    process.platform !== 'win32';
  const reach = await reachFor(ctx, options);
  // The reach index ran each test it knows on the code as it is: where it vouches for the tests
  // left to run, the original world is its record, and only the blank world runs (see
  // observeTwoPass). Else, in lanes, both worlds from one collection; in one lane, a twin per test.
  const fromIndex = ctx.target.mode === 'blank' && reach.passesOriginal !== undefined;
  const worlds = onePass && !fromIndex && (options.worlds ?? shards > 1);
  const twins = onePass && !fromIndex && !worlds;
  // Before the suite runs (minutes, on a large one), not only in the report at its end.
  const unreached = unreachedWarning(ctx.target.id, reach.plan);
  if (unreached) emit({ type: 'warning', message: unreached });
  const env = {
    ...pythonEnv(ctx.sandbox, ctx.workspace.root, ctx.target.file),
    TENET_ROOT: ctx.sandbox.workdir,
    TENET_TARGET_FILE: posix.join(ctx.sandbox.workdir, ctx.target.file),
  };
  emit({
    type: 'thm.start',
    target: ctx.target.id,
    mode: ctx.target.mode,
    twins,
    ...(worlds ? { worlds } : {}),
    shards,
    testArgs: options.testArgs,
    reach: reachUse(reach.plan),
  });
  const { pass, timings } = thmPasses(ctx, options, {
    env,
    shards,
    deadline: started + options.timeoutSec * 1000,
    emit,
    ...(reach.plan.used ? { leaveOut: reach.plan.leaveOut } : {}),
  });

  try {
    let observed: Observations;
    let calledAsItStarts = false;
    if (ctx.target.mode === 'stub') {
      observed = await observeStub(ctx, pass);
    } else if (fromIndex) {
      observed = await observeTwoPass(ctx, pass, reach.passesOriginal);
    } else if (worlds || twins) {
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
    return buildThmReport(ctx, options, observed, {
      reach,
      shards: observed.probe.shards,
      twins: twins && !calledAsItStarts,
      worlds: worlds && !calledAsItStarts,
      started,
      timings,
    });
  } finally {
    // The workspace is left as the agent starts from it: the blank or the developer's stub.
    await setTargetText(ctx, ctx.target.startText);
  }
}

/** The reach index's plan for this run: which tests may fail, or why every test runs. */
async function reachFor(ctx: ThmContext, options: ThmOptions): Promise<ReachFor> {
  if (options.reach === false) return { plan: { used: false, why: '--no-reach' } };
  if (ctx.sandbox.kind !== 'local')
    return { plan: { used: false, why: 'the reach index is recorded by the local sandbox' } };
  const { file, qualname } = ctx.target;
  const name = qualname.slice(qualname.lastIndexOf('.') + 1);
  return planReach(ctx.workspace.repoDir, options.testArgs, ctx.python, { file, qualname, name });
}
