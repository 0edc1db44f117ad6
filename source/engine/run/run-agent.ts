import { AgentStop } from '../errors';
import type { Conversation } from '../agent/conversation';
import { judgedLanes } from '../thm/thm-options';
import { runTests, runTestsInLanes } from '../tools/run-tests';
import type { AgentTools } from './agent-tools';
import { revealSelected, type TestPlan } from './choose-tests';
import { newProgress, roundsOf, runStrategy, type StrategyResult } from './strategies';
import type { TaskRun } from './run-context';

/**
 * The agent's part: the strategy, from its start or from where the interrupted session stood
 * (nothing, when the evaluation had begun). A cancelled run ends here with what it has.
 */
export async function runAgent(
  run: TaskRun,
  plan: TestPlan,
  tools: AgentTools,
  conversation: Conversation,
): Promise<StrategyResult> {
  const { options, resume } = run;
  const { strategy } = options;
  const { ctx } = tools;
  const { selected, stage } = plan;
  // Validation runs the selected tests, and in tenet+tdd the agent's own as well.
  const ownFile = () => ctx.agentTestFile;
  const validate = async () => {
    const tests = [...selected, ...(strategy === 'tenet+tdd' && ownFile() ? [ownFile()!] : [])];
    // In lanes where the selection is large (THM's budget T unbounded): each lane its own shard
    // and scratch files in the agent's workspace, where validation has always run.
    const lanes = Array.from({ length: judgedLanes(options.jobs, tests.length) }, () => ctx);
    const testRun = await runTestsInLanes(lanes, tests, 'validate');
    tools.recordRun(testRun, 'validate');
    // A plan's target may wait for another here (its tests stopped in that one's stub).
    run.afterValidation?.(testRun);
    return testRun;
  };
  const runOwnTests = async () => {
    const testRun = await runTests(ctx, [...selected, ...(ownFile() ? [ownFile()!] : [])], 'agent');
    tools.recordRun(testRun, 'agent');
    return testRun;
  };
  const progress = newProgress(resume ? { position: resume.position, tdd: resume.tdd } : undefined);
  try {
    if (resume?.evaluating) {
      return {
        submitted: run.submissions.length > 0,
        stopReason: resume.agentStop ?? 'budget',
        rounds: roundsOf(strategy, progress, conversation),
      };
    }
    return await runStrategy({
      strategy,
      conversation,
      emit: run.emit,
      budget: options.budget,
      tddBudget: options.tddBudget,
      noApis: options.ablations.noApis,
      rrw: !options.ablations.noRrw,
      validate,
      runOwnTests,
      takeRun: tools.takeRun,
      testsPath: ownFile,
      selectedTests: selected,
      implemented: run.submissions.length > 0,
      ...(stage === 'none' || stage === 'pregen' ? { validation: false } : {}),
      ...(stage === 'postgen'
        ? {
            beforeValidation: async () => {
              await revealSelected(run, plan);
              ctx.selectedTests = selected;
            },
          }
        : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(resume ? { from: { position: resume.position, tdd: resume.tdd } } : {}),
      progress,
    });
  } catch (error) {
    // A spend limit, or the end of a scripted model's script, ends the agent's part like its budget
    // would: the evaluation and the patch go on with what it has.
    if (error instanceof AgentStop) {
      if (error.warning) run.emit({ type: 'warning', message: error.warning });
      return {
        submitted: run.submissions.length > 0,
        stopReason: error.stopReason,
        rounds: roundsOf(strategy, progress, conversation),
      };
    }
    if ((error as Error).name !== 'AbortError' && !options.signal?.aborted) throw error;
    return { submitted: false, stopReason: 'cancelled', rounds: roundsOf(strategy, progress, conversation) };
  } finally {
    tools.muteDebugger();
    noteUnread(run);
  }
}

/** What the developer is told of a message of theirs that no model call took. */
export const unreadWords = (text: string) =>
  `Your message was not sent: the agent finished before reading it ("${text}").`;

/** Messages the developer wrote that no model call took (the agent finished first): said and recorded, not lost without a word. */
function noteUnread(run: TaskRun): void {
  for (const message of run.options.pilot.unreadMessages?.() ?? [])
    run.emit({ type: 'warning', message: unreadWords(message.text) });
}
