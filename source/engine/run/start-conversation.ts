import { Conversation } from '../agent/conversation';
import { renderPrompt } from '../agent/prompts';
import { instructionsSection } from '../task/project-instructions';
import { moduleContext, testsSection } from '../agent/task-context';
import type { SteeringHooks } from '../agent/steering';
import type { AgentTools } from './agent-tools';
import type { TestPlan } from './choose-tests';
import { strategyTools } from './strategies';
import type { Pilot } from './pilot';
import type { TaskRun } from './run-context';

/** What the model reads for a debugger command that pdb was running when the session was interrupted. */
const PDB_GONE =
  'Not run again: the session was interrupted while pdb ran this command, and the debugger session did not survive the interruption. ' +
  'The shell is a new one (not in pdb); start the debugger again if you need it, e.g. python -m pytest TEST --pdb.';

/** The pilot's calls the conversation makes between the agent's steps. */
function steeringOf(pilot: Pilot): SteeringHooks {
  return {
    ...(pilot.stepping ? { stepping: (at) => pilot.stepping!(at) } : {}),
    ...(pilot.beforeRequest ? { beforeRequest: (preview) => pilot.beforeRequest!(preview) } : {}),
    ...(pilot.beforeToolCall ? { beforeToolCall: (call) => pilot.beforeToolCall!(call) } : {}),
  };
}

/**
 * The conversation with the model: the system prompt and the task with the tests the agent may
 * see. Resuming, the recorded conversation instead, and the tool calls the interruption cut off
 * run now (their results go with the next request).
 */
export async function startConversation(run: TaskRun, plan: TestPlan, tools: AgentTools): Promise<Conversation> {
  const { options, task, resume, tdd } = run;
  const pilot = options.pilot;
  // Prompts may only name tools the model is offered (an ablation takes some away).
  const offered = { tools: strategyTools(options.strategy, options.ablations.noApis).main };
  const conversation = new Conversation({
    model: options.model.model,
    // The repository's instructions close the system prompt (resuming: the recorded prompt has them as they were).
    system:
      resume?.system ??
      [
        renderPrompt(tdd ? 'tdd-system' : 'system', {}, offered),
        ...(run.instructions ? [instructionsSection(run.instructions)] : []),
      ].join('\n\n'),
    ctx: tools.ctx,
    emit: run.emit,
    price: options.model.price,
    temperature: options.model.settings.temperature,
    maxTokens: options.model.settings.maxTokens,
    ...(options.signal ? { signal: options.signal } : {}),
    ...(pilot.beforeModelCall ? { beforeModelCall: () => pilot.beforeModelCall!() } : {}),
    ...(pilot.callSignal ? { callSignal: () => pilot.callSignal!() } : {}),
    ...(pilot.afterCancelledCall ? { afterCancelledCall: () => pilot.afterCancelledCall!() } : {}),
    steering: steeringOf(pilot),
    limits: options.limits,
    ...(run.spentBefore ? { spentBefore: run.spentBefore } : {}),
    ...(options.model.settings.contextWindow
      ? { context: { window: options.model.settings.contextWindow, reserve: options.model.settings.maxTokens } }
      : {}),
    ...(options.model.windowUnknown ? { windowUnknown: options.model.settings.model } : {}),
  });
  if (resume?.messages.length) {
    conversation.restore(resume.messages, resume.totals);
    // A command pdb was running is not run again: its pdb session is gone, and the new shell would read it as a shell command.
    const gone = new Set(resume.cutInDebugger);
    if (resume.unansweredCalls.length)
      await conversation.runTools(resume.unansweredCalls, offered.tools, {
        refuse: (_name, _submitted, id) => (gone.has(id) ? PDB_GONE : undefined),
      });
    return conversation;
  }
  const shown = plan.report.failing.filter((f) => plan.visibleFirst.includes(f.nodeid));
  const testsText = shown.length
    ? renderPrompt('tests', { count: shown.length, tests: await testsSection(task.workspace.root, shown) })
    : tdd
      ? "The repository's tests for it are hidden until the end: your tests are the specification."
      : 'No tests are shown before your first submission.';
  conversation.say(
    renderPrompt(
      tdd ? 'tdd-task' : 'task',
      {
        qualname: task.target.qualname,
        file: task.target.file,
        signature: task.target.prompt.trimEnd(),
        context: moduleContext(task.target),
        tests: testsText,
        rounds: tdd ? options.tddBudget.setupRounds : options.budget.pregenRounds,
      },
      offered,
    ) + (run.planNote ? `\n\n${run.planNote}` : ''),
  );
  return conversation;
}
