import { lookAtCheckout } from '../eval/pristine-evaluation';
import { TenetError } from '../errors';
import type { EngineEvent, EventOf, RunResult } from '../events';
import { buildIndex } from '../index/build-index';
import { limitReached } from '../model/spend-limits';
import { addCall, newTotals, type Totals } from '../model/usage-sums';
import { foldEvents } from '../session/fold';
import { foldPlan, reducePlan } from '../session/plan-state';
import { openTask, type OpenTask } from '../task/open-task';
import { expandTargets, type PlanPlace } from '../task/plan-targets';
import { readOriginals, type Modules } from './plan-code';
import { planTargets, proposeOrder } from './plan-order';
import { runPlanTarget, type PlanRun } from './plan-target';
import { finishPlan, planLabel } from './plan-verdict';
import { recordStart, sha1 } from './record-start';
import type { RunOptions } from './run-options';
import { newSessionId, projectInstructions } from './run-task';
import { newTaskRun } from './run-context';

/** What a model call or tool call adds to the plan's figures (as the session's totals count them). */
function tally(totals: Totals, event: EngineEvent): void {
  if (event.type === 'model.response') {
    addCall(totals, event);
    totals.modelCalls++;
    totals.rounds++;
    if (event.usage.estimated) totals.estimatedTokens = true;
  } else if (event.type === 'model.unanswered') addCall(totals, event);
  else if (event.type === 'tool.result') totals.toolCalls++;
}

const tallied = (events: readonly EngineEvent[]): Totals => {
  const totals = newTotals();
  for (const event of events) tally(totals, event);
  return totals;
};

/**
 * A plan: several stubs implemented one at a time, in one workspace (see docs/plans.md). The
 * targets are proposed in the order the code shows (callees first), the developer approves the
 * plan, then each target runs as a single run does, with a fresh conversation that knows the
 * targets done; a passed target's code stays for the next. A target whose tests stop in the stub
 * of one still to come goes after it. At the end, every kept target's code is evaluated together,
 * and the result gives one verdict each and one patch. Resuming, the log says which targets are
 * done (their code is put back) and where the open one stood.
 */
export async function runPlan(options: RunOptions): Promise<RunResult> {
  const startedAt = Date.now();
  if (options.blank)
    throw new TenetError(
      'A plan implements stubs; --blank (benchmark mode) takes one target.',
      'pass one --target FILE::FUNCTION with --blank, or leave --blank out',
    );
  const resumed = options.resume;
  const events = options.resumeEvents ?? [];
  const sessionId = options.sessionId ?? resumed?.start?.sessionId ?? newSessionId();
  const places = (await expandTargets(options.repo, options.plan ?? [options.target]))!;
  const shared = await openTask({
    repo: options.repo,
    target: places[0]!.target,
    blank: false,
    session: sessionId,
    ...(options.python ? { python: options.python } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
  try {
    const state = foldPlan(events);
    const totals = tallied(events);
    const emit = (event: EngineEvent) => {
      reducePlan(state, event);
      tally(totals, event);
      options.emit(event);
    };
    const planOptions: RunOptions = { ...options, emit };
    recordStart(newTaskRun(planOptions, shared, sessionId, resumed), planLabel(places));
    const originals = readOriginals(shared.repoDir, places);
    if (state.plan) refuseChangedFiles(state.plan, originals);
    else await proposePlan(planOptions, shared, places, originals);
    const instructions = projectInstructions(options, shared.repoDir, resumed);
    const checkoutAtStart = await lookAtCheckout(
      shared,
      options.sessionsRoot ? new Set([options.sessionsRoot]) : undefined,
    );
    // From here on the agent's code runs in the workspace: it is not kept for the next run.
    shared.workspace.ranAgentCode();
    const plan: PlanRun = {
      options: planOptions,
      shared,
      sessionId,
      places: new Map(places.map((p) => [p.target, p])),
      originals,
      state,
      checkoutAtStart,
      ...(instructions ? { instructions } : {}),
    };
    const stopped = await runTargets(plan, totals, events);
    return await finishPlan(plan, totals, startedAt, stopped);
  } finally {
    await shared.dispose();
  }
}

/**
 * The targets, one at a time, until none is left: the open one (a resume's) first, from where
 * its run stood. Stops early, with why, when the run is cancelled or a spend limit is reached, and
 * at the first target that did not pass with `--plan-stop-on-fail`.
 */
async function runTargets(
  plan: PlanRun,
  totals: Totals,
  events: readonly EngineEvent[],
): Promise<RunResult['stopReason'] | undefined> {
  const { state, options } = plan;
  if (state.plan!.stopped) return 'cancelled';
  while (state.queue.length && !state.final) {
    const open = state.current;
    let target: string;
    let spentBefore: Totals;
    if (open) {
      target = open.start.target;
      spentBefore = tallied(events.slice(0, events.indexOf(open.start)));
    } else {
      target = state.queue[0]!;
      spentBefore = { ...totals };
      const why = state.waiting.get(target);
      options.emit({
        type: 'plan.target',
        target,
        index: state.ended.size + 1,
        total: state.plan!.order.length,
        ...(why ? { why } : {}),
      });
    }
    // The pilot's k-th target run: a recorded pilot (rerun, fork) decides as that run of the log did.
    options.pilot.startTarget?.(state.starts - 1);
    const segment = open
      ? foldEvents([...events.filter((e) => e.type === 'session.start'), ...open.events])
      : undefined;
    const end = await runPlanTarget(plan, target, segment, spentBefore);
    options.emit({ type: 'plan.target.end', ...end });
    if (options.signal?.aborted) return 'cancelled';
    const limit = limitReached(options.limits, totals);
    if (limit) return limit.limit === 'cost' ? 'cost-limit' : 'token-limit';
    if (end.stopReason === 'cost-limit' || end.stopReason === 'token-limit') return end.stopReason;
    if (!end.after && !end.pass && state.plan!.stopOnFail) return undefined;
  }
  return undefined;
}

/** The plan as the code shows it, decided by the pilot (the developer on the plan screen), recorded. */
async function proposePlan(options: RunOptions, shared: OpenTask, places: PlanPlace[], originals: Modules) {
  const { index } = await buildIndex(shared.workspace.root, { cacheKeyDir: shared.repoDir });
  const targets = planTargets(index, places);
  const { order, why } = proposeOrder(targets);
  const decision = (await options.pilot.approvePlan?.({ targets, order, why })) ?? {
    order,
    skipped: [],
    by: 'auto' as const,
  };
  const chosen = 'stop' in decision ? [] : decision.order.filter((t) => targets.some((p) => p.target === t));
  options.emit({
    type: 'plan',
    targets,
    proposed: order,
    order: chosen,
    skipped: 'stop' in decision ? order : order.filter((t) => !chosen.includes(t)),
    by: 'stop' in decision ? 'human' : decision.by,
    why,
    stopOnFail: !!options.planStopOnFail,
    ...('stop' in decision ? { stopped: true } : {}),
    files: [...originals].map(([path, source]) => ({ path, sha1: sha1(source.text) })),
  });
}

/** A resumed plan builds on its files as the run found them: a changed one is refused. */
function refuseChangedFiles(plan: EventOf<'plan'>, originals: Modules): void {
  for (const { path, sha1: recorded } of plan.files) {
    const now = originals.get(path);
    if (!now || sha1(now.text) !== recorded)
      throw new TenetError(
        `${path} changed in the checkout since the session started; resuming would build on different code.`,
        'restore the file, or start a new session with `tenet run`',
      );
  }
}
