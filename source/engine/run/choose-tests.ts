import { TenetError } from '../errors';
import type { TestStage } from '../protocol/settings';
import { brokenModules, thmTimeoutWords, type ThmReport } from '../protocol/thm-report';
import { hideTests, type HiddenTests } from '../task/hide-tests';
import { plural } from '../util/plural';
import { stoppedWords } from '../phrase-book';
import { shownArgs } from '../util/shown-args';
import { implementedWarning } from '../task/prepare-target';
import { selectWith } from '../thm/alt-selection';
import { entryFunctions } from '../thm/clustering';
import { proposeFor } from '../thm/propose';
import { runThm, THM_DEFAULTS } from '../thm/run-thm';
import type { TaskRun } from './run-context';
import type { TestDesk } from './test-desk';
import { WorkspaceTestDesk } from './workspace-test-desk';

/** Which tests the agent works with, and which it must not see yet. */
export interface TestPlan {
  report: ThmReport;
  /** Every failing test THM found: the evaluation runs them all. */
  failing: string[];
  /** The tests the session validates against. */
  selected: string[];
  /** What the agent sees before its first submission (the selected tests, none with `postgen`). */
  visibleFirst: string[];
  /** The TENET strategies' RQ5 setting; the TDD strategies always take part with every test. */
  stage: TestStage;
  /** The failing tests taken out of the workspace until the evaluation. */
  hidden: HiddenTests;
}

/** THM's report: run now, or the one the interrupted session recorded. */
async function thmReport(run: TaskRun): Promise<ThmReport> {
  if (run.resume?.thm) return run.resume.thm;
  const { options } = run;
  if (options.thmReport) {
    // A fork's parent ran THM on the same code: its report stands, and is recorded here too.
    run.emit({ type: 'thm.report', report: options.thmReport });
    return options.thmReport;
  }
  const report = await runThm(run.task, {
    ...THM_DEFAULTS,
    T: options.T,
    testArgs: options.testArgs,
    testTimeoutSec: options.testTimeoutSec,
    timeoutSec: options.thmTimeoutSec,
    jobs: options.jobs,
    onePass: options.onePass,
    caller: options.caller,
    reach: options.reach,
    emit: run.emit,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  run.emit({ type: 'thm.report', report });
  return report;
}

async function decide(
  run: TaskRun,
  report: ThmReport,
  desk: TestDesk,
): Promise<{ chosen: string[]; by: 'auto' | 'human' | 'ablation' | 'strategy'; T?: number | null }> {
  const { options } = run;
  // TDD-Agent: the repository's tests stay hidden until the evaluation, as in the paper.
  if (options.strategy === 'tdd') return { chosen: [], by: 'strategy' };
  if (options.ablations.noThm) return { chosen: report.failing.map((f) => f.nodeid), by: 'ablation' };
  if (options.testStage === 'none') return { chosen: [], by: 'ablation' };
  if (options.select !== 'thm')
    return {
      chosen: await selectWith(options.select, report, options.T, { workspaceRoot: run.task.workspace.root }),
      by: 'ablation',
    };
  return options.pilot.approveTests(report, desk);
}

/** The tests to validate against: the strategy's or an ablation's, else the pilot's answer to THM's proposal; or the interrupted session's. */
async function approvedTests(run: TaskRun, desk: TestDesk): Promise<string[]> {
  if (run.resume?.approval) return run.resume.approval.chosen;
  const decision = await decide(run, desk.report, desk);
  // Measured against THM's proposal (with the developer's tests in the pool) for the T the
  // developer settled on: a new T alone is no override.
  const T = decision.T ?? desk.report.T;
  run.emit({ type: 'thm.approval', proposed: proposeFor(desk.report, T), chosen: decision.chosen, by: decision.by, T });
  return decision.chosen;
}

/** THM, the approval of its proposal, and the workspace with the tests the agent must not see taken out. */
export async function chooseTests(run: TaskRun): Promise<TestPlan> {
  const { task } = run;
  const desk = new WorkspaceTestDesk(run, await thmReport(run));
  // The developer's tests: written ahead (--add-tests, a recorded session's), or, resuming, the
  // ones the session recorded (their outcome is in the recorded report already).
  if (run.resume) await desk.restore(run.resume.developerFiles);
  else await run.options.pilot.addTests?.(desk);
  if (!desk.report.failing.length) throw nothingToGenerateAgainst(task.target, desk.report);
  const selected = await approvedTests(run, desk);
  // With whatever the developer wrote in the review.
  const report = desk.report;
  const failing = report.failing.map((f) => f.nodeid);
  const stage: TestStage = run.options.strategy === 'tenet' ? run.options.testStage : 'all';
  if (!selected.length && run.options.strategy !== 'tdd' && stage !== 'none') throw noTestChosen(task.target, report);
  // Before the first submission the agent sees the selected tests unless the stage is postgen.
  const visibleFirst = stage === 'postgen' ? [] : selected;
  const hide = failing.filter((id) => !visibleFirst.includes(id));
  const hidden = await hideTests(task.workspace, task.sandbox, hide, visibleFirst, entryFunctions(report.failing));
  // What could not be taken out stays in view: its function serves a test the agent gets, or tenet could not find it.
  const visible = hide.length - hidden.hidden.length;
  // A resumed session recorded the hiding already.
  if ((hidden.hidden.length || visible) && !run.resume?.approval)
    run.emit({ type: 'tests.hidden', hidden: hidden.hidden, files: hidden.files, ...(visible ? { visible } : {}) });
  return { report, failing, selected, visibleFirst, stage, hidden };
}

/** `postgen`: the selected tests come back for validation and refinement; the others stay hidden. */
export async function revealSelected(run: TaskRun, plan: TestPlan): Promise<void> {
  await plan.hidden.restore();
  plan.hidden = await hideTests(
    run.task.workspace,
    run.task.sandbox,
    plan.failing.filter((id) => !plan.selected.includes(id)),
    plan.selected,
    entryFunctions(plan.report.failing),
  );
}

/**
 * No test to validate against: taken out by hand, or THM had none to propose, every failing test
 * failing without reaching the target. In stub mode on a real body that is the body passing the
 * tests that call it: the mode is what to change.
 */
function noTestChosen(target: TaskRun['task']['target'], report: ThmReport): TenetError {
  if (report.selected.length)
    return new TenetError('No test was chosen to validate against.', 'keep at least one test selected');
  // A test module that failed to import is no failing test: its tests never ran (THM's report names it).
  const broken = brokenModules(report);
  // Stub mode: the tests failing for another reason are failing tests that never reach it too.
  const failing =
    report.failing.filter((test) => !broken.has(test.nodeid)).length + (report.otherFailures?.length ?? 0);
  const what =
    failing === 0
      ? `no test in scope fails with ${target.id} as it is`
      : failing === 1
        ? `the one failing test never reaches ${target.id}`
        : `none of the ${failing} failing tests reaches ${target.id}`;
  const unrun = broken.size
    ? ` (${plural(broken.size, 'test module')} failed to import, so ${broken.size === 1 ? 'its tests' : 'their tests'} did not run)`
    : '';
  const none = `No test to validate against: ${what}${unrun}`;
  if (implementedWarning(target)) {
    return new TenetError(
      `${none}. ${target.qualname} already has a real body, not a stub, and stub mode ran the tests against it.`,
      'pass --blank (benchmark mode: tenet blanks the body and keeps it as ground truth), or stub its body (raise NotImplementedError) to generate it anew',
    );
  }
  return new TenetError(
    `${none}, so none can tell whether it works.`,
    'write a test that calls it (--add-tests FILE adds yours), or widen the scope with --tests',
  );
}

/**
 * THM found no failing test to generate the target against. In benchmark mode, tests that fail
 * blank but also fail on the original code are left out: when that is every test there was, say
 * so (another function of the repository is broken, or a stub), rather than ask for a wider scope.
 */
function nothingToGenerateAgainst(target: TaskRun['task']['target'], report: ThmReport): TenetError {
  // Stopped by its budget, THM saw only part of the suite: what it did not see is the news.
  const timedOut = thmTimeoutWords(report);
  if (timedOut) {
    return new TenetError(
      `${timedOut}, so there is no failing test to generate ${target.id} against.`,
      'give THM more time with --thm-timeout SECONDS (default 3600), or narrow the scope with --tests PATH',
    );
  }
  const already = report.alreadyFailing;
  if (target.mode === 'blank' && already.length) {
    const named = `${already.slice(0, 3).join(', ')}${already.length > 3 ? ` and ${already.length - 3} more` : ''}`;
    const which =
      already.length === 1
        ? 'the test that fails with it blanked fails'
        : `the ${already.length} tests that fail with it blanked fail`;
    return new TenetError(
      `No test fails against ${target.id} alone: ${which} on the original code too (${named}), so ${already.length === 1 ? 'it cannot' : 'they cannot'} tell a right implementation from a wrong one.`,
      'fix what makes them fail on the original code (another function of the repository may be a stub or broken; `tenet thm --blank` lists them), or choose another target',
    );
  }
  if (report.counts.collected === 0) {
    return new TenetError(
      `pytest collected no test in scope${report.testArgs.length ? ` (--tests ${shownArgs(report.testArgs)})` : ''}, so there is nothing to generate ${target.id} against.`,
      'point pytest at the tests: --tests PATH (everything after it goes to pytest), or testpaths in the pytest configuration; --add-tests FILE adds tests of yours',
    );
  }
  const others = report.otherFailures ?? [];
  if (target.mode === 'stub' && target.body === 'stub' && others.length) {
    const first = others[0]!;
    const which =
      others.length === 1
        ? `the one failing test, ${first.nodeid}, ${stoppedWords(first)}`
        : `the ${others.length} failing tests fail for another reason (${first.nodeid} ${stoppedWords(first)}${others.length > 1 ? `, and ${others.length - 1} more` : ''})`;
    return new TenetError(
      `No failing test reaches ${target.id}: ${which}. A test that never calls it cannot tell whether it works.`,
      'write a test that calls it (--add-tests FILE adds yours), or widen the scope with --tests; `tenet thm` lists where each failing test stops',
    );
  }
  if (target.mode === 'stub' && target.body === 'stub') {
    return new TenetError(
      `No test fails against the stub of ${target.id}: none in scope calls it, so there is nothing to generate it against.`,
      'write tests that call the function (--add-tests FILE adds yours), or widen the scope with --tests',
    );
  }
  if (target.mode === 'blank') {
    return new TenetError(
      `No test in scope fails with the body of ${target.id} blanked: none calls it, or none needs what it does, so there is nothing to generate it against.`,
      'widen the scope with --tests (tests that call it), or choose another target',
    );
  }
  // A real body in stub mode: say so, and that the mode is what to change.
  if (implementedWarning(target)) return noTestChosen(target, report);
  return new TenetError(
    `No test fails against ${target.id} as it is, so there is nothing to generate it against.`,
    'write tests that call the function (--add-tests FILE adds yours), or pass --blank if it already has a body',
  );
}
