import { TenetError } from '../errors';
import type { ThmFailingTest, ThmReport } from '../protocol/thm-report';
import { implementedWarning } from '../task/prepare-target';
import { chainedTests, clusterTests, directCaller, selectTests, type CallerRule } from './clustering';
import { importErrorSite } from './import-error-site';
import { failed, type Observations, type Observed } from './observations';
import type { PluginTestEvent, ProbeFrame } from './plugin-lines';
import { failsBecauseOfTarget, otherFailure } from './stub-verdict';
import type { ReachIndex } from './reach-index';
import type { ReachPlan } from './reach-scope';
import { leftOutOutcomes, reachUse, unreachedWarning } from './reach-use';
import type { ThmContext, ThmOptions } from './thm-options';

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
    ...(!reached && isTest && test.subprocess ? { inSubprocess: true as const } : {}),
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

export function buildThmReport(
  ctx: ThmContext,
  options: ThmOptions,
  observed: Observations,
  run: {
    shards: number;
    twins: boolean;
    worlds: boolean;
    started: number;
    timings: ThmReport['timings'];
    reach: { plan: ReachPlan; index?: ReachIndex };
  },
): ThmReport {
  const { probe } = observed;
  // The tests the reach index left out end blank as they did when it was recorded.
  const left =
    run.reach.plan.used && run.reach.index
      ? leftOutOutcomes(run.reach.index, probe.leftOut)
      : { collected: 0, passed: 0, skipped: 0 };
  const blankFailures: Observed[] = [...[...observed.blank.values()].filter(failed), ...observed.blankCollectErrors];
  const alreadyFailing = blankFailures
    .filter((t) => observed.originalFailed(t.nodeid))
    .map((t) => t.nodeid)
    .sort();
  const excluded = new Set(alreadyFailing);
  const rule = options.caller ?? 'use';
  // Stub mode: only the target's failures count (see stub-verdict.ts); the other tests are shown apart.
  const stub = ctx.target.mode === 'stub';
  const failing = blankFailures
    .filter((t) => !excluded.has(t.nodeid) && (!stub || failsBecauseOfTarget(t)))
    .map((t) => toFailing(t, rule))
    .sort(byNodeid);
  const otherFailures = stub
    ? blankFailures
        .filter((t): t is PluginTestEvent => t.e === 'test' && !failsBecauseOfTarget(t))
        .map(otherFailure)
        .sort(byNodeid)
    : undefined;
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
    ...probe.notes,
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
  const unreached = unreachedWarning(ctx.target.id, run.reach.plan);
  if (unreached) warnings.unshift(unreached);
  if (!probe.targetLoaded && probe.collected > 0 && !run.reach.plan.used) {
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
      collected: observed.collected + left.collected,
      passed: count('passed', 'xpassed') + left.passed,
      skipped: count('skipped', 'xfailed') + left.skipped,
      failing: failing.length,
      unreached: failing.filter((f) => !f.reached).length,
      alreadyFailing: alreadyFailing.length,
      collectionErrors: observed.blankCollectErrors.length,
      ...(otherFailures ? { otherFailures: otherFailures.length } : {}),
      crashed: blankWorld.filter((t) => t.crashed && !t.timedOut).length,
      timedOut: blankWorld.filter((t) => t.timedOut).length,
    },
    alreadyFailing,
    ...(otherFailures ? { otherFailures } : {}),
    importErrors,
    warnings,
    shards: run.shards,
    twins: run.twins,
    ...(run.worlds ? { worlds: true } : {}),
    reach: reachUse(run.reach.plan, {
      ran: observed.collected,
      of: observed.collected + left.collected,
      recordedOriginals: observed.recordedOriginals,
    }),
    timings: run.timings,
    timedOut: probe.timedOut,
    ...(probe.timedOut ? { timeoutSec: options.timeoutSec } : {}),
    durationMs: Date.now() - run.started,
  };
}
