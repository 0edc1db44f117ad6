import type { CheckoutAtStart } from '../eval/pristine-evaluation';
import { TenetError } from '../errors';
import type { EventOf, TestRun } from '../events';
import type { UsageSums } from '../model/usage-sums';
import type { ProjectInstructions } from '../protocol/settings';
import type { SessionState } from '../session/fold';
import { keptTargets, type PlanState } from '../session/plan-state';
import type { OpenTask } from '../task/open-task';
import { locateTarget, type PlanPlace } from '../task/plan-targets';
import { prepareTarget } from '../task/prepare-target';
import { openAgentTools, type AgentTools } from './agent-tools';
import { chooseTests, type TestPlan } from './choose-tests';
import { judgeSubmissions, verdictReason } from './finish-run';
import { composeModules, placesIn, writeModules, type Modules } from './plan-code';
import { planNote } from './plan-note';
import { planTargetName } from '../phrase-book';
import { runAgent } from './run-agent';
import type { RunOptions } from './run-options';
import { startConversation } from './start-conversation';
import { newTaskRun } from './run-context';

/** What every target of a plan shares: the run's options and pilot, one workspace, the plan's place. */
export interface PlanRun {
  options: RunOptions;
  shared: OpenTask;
  sessionId: string;
  places: ReadonlyMap<string, PlanPlace>;
  /** The plan's files as the checkout has them. */
  originals: Modules;
  state: PlanState;
  checkoutAtStart: CheckoutAtStart;
  instructions?: ProjectInstructions;
}

export type TargetEnd = Omit<EventOf<'plan.target.end'>, 'type'>;

/** Thrown from a validation whose tests stopped in another target's stub: this one goes again after it. */
class TargetWaits extends Error {
  override name = 'TargetWaits';
  constructor(
    readonly waitsFor: string[],
    readonly after: string,
    readonly why: string,
  ) {
    super(why);
  }
}

/** The kept targets' code, in the order they finished. */
export function keptCode(plan: Pick<PlanRun, 'state' | 'places'>) {
  return keptTargets(plan.state).map((target) => ({
    place: plan.places.get(target)!,
    submissions: plan.state.submissions.get(target) ?? [],
  }));
}

/**
 * One target of a plan, run as a single run is (THM on its own scope, the review, the agent with a
 * fresh conversation, refinement, the evaluation), in the plan's one workspace: the kept targets'
 * code in place first. Its code stays there only if it passed; otherwise its stub is put back.
 * A validation whose tests stop in another target's stub, one still to come, ends it at once: it
 * goes again after that one (each pair once). `resume`: its interrupted run, from the log;
 * `spentBefore`: what the plan's earlier targets spent (the session's limits count it).
 */
export async function runPlanTarget(
  plan: PlanRun,
  target: string,
  resume: SessionState | undefined,
  spentBefore: UsageSums,
): Promise<TargetEnd> {
  const place = plan.places.get(target)!;
  const kept = keptCode(plan);
  const modules = await composeModules(plan.originals, kept);
  await writeModules(plan.shared.workspace, plan.shared.sandbox, modules);
  const source = modules.get(place.file)!;
  const lines = await locateTarget(source.text, place);
  const prepared = await prepareTarget(
    { file: place.file, qualname: place.qualname, id: target, source, ...lines },
    'stub',
  );
  const alsoSubmitted = await placesIn(
    modules,
    kept.map((k) => k.place),
  );
  if (alsoSubmitted.length) prepared.alsoSubmitted = alsoSubmitted;
  const task: OpenTask = { ...plan.shared, target: prepared, dispose: async () => undefined };
  const run = newTaskRun({ ...plan.options, target }, task, plan.sessionId, resume);
  if (plan.instructions) run.instructions = plan.instructions;
  run.spentBefore = spentBefore;
  const note = planNote(plan.state, plan.places, target);
  if (note) run.planNote = note;
  run.afterValidation = (testRun) => {
    const waits = waitsFor(plan, place, testRun, run.submissions.at(-1));
    if (waits) throw waits;
  };
  let tests: TestPlan | undefined;
  let tools: AgentTools | undefined;
  const putBack = () => writeModules(plan.shared.workspace, plan.shared.sandbox, new Map([[place.file, source]]));
  try {
    try {
      tests = await chooseTests(run);
    } catch (error) {
      // No test to generate it against (or THM could not run on it): this target fails, the plan goes on.
      if (!(error instanceof TenetError) || plan.options.signal?.aborted) throw error;
      return noRun(target, error.message);
    }
    tools = await openAgentTools(run, tests);
    const conversation = await startConversation(run, tests, tools);
    let outcome: Awaited<ReturnType<typeof runAgent>>;
    try {
      outcome = await runAgent(run, tests, tools, conversation);
    } catch (error) {
      if (!(error instanceof TargetWaits)) throw error;
      await tests.hidden.restore();
      await putBack();
      return {
        ...noRun(target, undefined, 'deferred'),
        waitsFor: error.waitsFor,
        after: error.after,
        why: error.why,
      };
    }
    const others = [...modules].filter(([file]) => file !== place.file).map(([file, text]) => ({ file, source: text }));
    const judgement = await judgeSubmissions(run, tests, tools, outcome, plan.checkoutAtStart, others);
    const stopReason = verdictReason(judgement, outcome.stopReason);
    if (!judgement.pass) await putBack();
    return {
      target,
      pass: judgement.pass,
      stopReason,
      ...(judgement.evaluation ? {} : { message: 'unverified' in judgement.judged ? judgement.judged.unverified : '' }),
      selectedTests: judgement.selectedTests,
      hiddenTests: judgement.hiddenTests,
      attempts: outcome.rounds.rrwAttempts,
      kept: judgement.pass,
      failing: tests.failing,
      selected: tests.selected,
      rounds: outcome.rounds,
    };
  } finally {
    tools?.dispose();
    await tests?.hidden.restore();
  }
}

/** A target's end without an evaluation: no test to run it against, or deferred. */
function noRun(target: string, message: string | undefined, stopReason = 'no-tests'): TargetEnd {
  return {
    target,
    pass: false,
    stopReason,
    ...(message ? { message } : {}),
    selectedTests: { passed: 0, total: 0 },
    hiddenTests: { passed: 0, total: 0 },
    attempts: 0,
    kept: false,
    failing: [],
    selected: [],
  };
}

/**
 * Whether a failed validation makes the target wait: one of its tests stopped in the stub of a
 * target still to come that it has not waited for yet (the traceback's innermost frame of the
 * repository's code is that stub). It then waits for those, and for the targets to come that its
 * last submission calls too (still stubs: they would stop it next), and goes again after the last.
 */
function waitsFor(
  plan: PlanRun,
  place: PlanPlace,
  testRun: TestRun,
  submission: string | undefined,
): TargetWaits | undefined {
  if (testRun.passed === testRun.total || testRun.unverified) return undefined;
  const stops = new Set(Object.values(testRun.stops ?? {}));
  const later = plan.state.queue.filter(
    (t) => t !== place.target && !plan.state.waited.has(`${place.target}>${t}`) && plan.places.has(t),
  );
  const stoppedIn = later.filter((t) => stops.has(`${plan.places.get(t)!.file}::${plan.places.get(t)!.qualname}`));
  if (!stoppedIn.length) return undefined;
  const called = later.filter((t) => !stoppedIn.includes(t) && calls(submission ?? '', plan.places.get(t)!));
  const waits = [...stoppedIn, ...called];
  const after = later.filter((t) => waits.includes(t)).at(-1)!;
  const names = (targets: string[]) => targets.map(planTargetName).join(' and ');
  const why =
    `${planTargetName(place.target)} waits for ${names(waits)}: its tests stop in ${names(stoppedIn)}'s stub` +
    (called.length ? `, and it calls ${names(called)}, a stub too` : '');
  return new TargetWaits(waits, after, why);
}

/** Whether code calls a target by its name (`area(`, `self.area(`, `shapes.area(`). */
function calls(code: string, place: PlanPlace): boolean {
  const name = place.qualname.split('.').pop()!;
  return new RegExp(`(^|[^\\w])${name}\\s*\\(`, 'm').test(code.replace(/^\s*(async\s+)?def\s+\w+/gm, ''));
}
