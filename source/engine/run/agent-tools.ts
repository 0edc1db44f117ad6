import { skippedWords } from '../index/parse-file';
import type { TestRun } from '../events';
import type { ToolContext } from '../tools/context';
import { applyTests, writeTarget } from '../tools/submit';
import { submittedModule } from '../eval/submitted-module';
import { openToolbox, type Toolbox } from '../tools/toolbox';
import type { TestPlan } from './choose-tests';
import { commandApproval } from './patch-decision';
import type { TaskRun } from './run-context';

/** The agent's tools over the workspace, wired to the session and the pilot. */
export interface AgentTools {
  ctx: ToolContext;
  /** Records a test run: the model's own (`agent`) or tenet's validation. */
  recordRun(run: TestRun, purpose: 'agent' | 'validate'): void;
  /** The model's latest run_tests not yet taken (TDD's loop reads it). */
  takeRun(): TestRun | undefined;
  /** The debugger's events stop going into the session (the agent's part is over). */
  muteDebugger(): void;
  dispose(): void;
}

/**
 * The toolbox (the index, the shell/pdb session), with every run_tests and every answer about a
 * shell command recorded, and the debugger handed to the pilot. Resuming, the workspace gets the
 * last accepted submission and the agent's last tests back.
 */
export async function openAgentTools(run: TaskRun, plan: TestPlan): Promise<AgentTools> {
  const toolbox = await openToolbox(run.task, {
    selectedTests: plan.visibleFirst,
    testArgs: run.options.testArgs,
    testTimeoutSec: run.options.testTimeoutSec,
  });
  try {
    return await wire(run, plan, toolbox);
  } catch (error) {
    // Until the run holds the tools, they are this step's to close.
    toolbox.dispose();
    throw error;
  }
}

async function wire(run: TaskRun, plan: TestPlan, toolbox: Toolbox): Promise<AgentTools> {
  const { options, task, emit, resume } = run;
  emit({
    type: 'index.ready',
    files: toolbox.indexStats.files,
    parsed: toolbox.indexStats.parsed,
    ms: toolbox.indexStats.ms,
  });
  // A file the parser cannot take is left out, and the run goes on: one warning names each.
  for (const skipped of toolbox.indexStats.skipped) emit({ type: 'warning', message: skippedWords(skipped) });
  const ctx = toolbox.ctx;
  let latest: TestRun | undefined;
  const recordRun = (testRun: TestRun, purpose: 'agent' | 'validate') =>
    emit({
      type: 'tests.run',
      purpose,
      report: testRun.report,
      outcomes: testRun.outcomes,
      passed: testRun.passed,
      total: testRun.total,
    });
  ctx.onTestRun = (testRun) => {
    latest = testRun;
    recordRun(testRun, 'agent');
  };
  const pilot = options.pilot;
  if (pilot.approveCommand && task.sandbox.kind === 'local') {
    // Every answer is recorded: replays and transcripts show who allowed or refused what.
    ctx.approveCommand = async (command) => {
      const decision = await pilot.approveCommand!(command);
      emit(commandApproval(command, decision));
      return decision;
    };
  }
  pilot.attach?.({ debugger: ctx.debugger(), selectedTests: plan.selected });
  if (run.submissions.length)
    await writeTarget(ctx, (await submittedModule(task.target.originalText, task.target, run.submissions))!);
  if (resume?.testVersions.length) await applyTests(ctx, resume.testVersions.at(-1)!);
  const muteDebugger = ctx.debugger().onEvent((event) => {
    if (event.type === 'input') emit({ type: 'debugger.input', who: event.who, input: event.input, mode: event.mode });
    else if (event.type === 'output') emit({ type: 'debugger.output', chunk: event.chunk });
    else if (event.type === 'entry') emit({ type: 'debugger.entry', entry: event.entry });
  });
  return {
    ctx,
    recordRun,
    takeRun: () => {
      const taken = latest;
      latest = undefined;
      return taken;
    },
    muteDebugger,
    dispose: () => toolbox.dispose(),
  };
}
