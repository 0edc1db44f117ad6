import { randomBytes } from 'node:crypto';
import type { RunResult } from '../events';
import { openTask } from '../task/open-task';
import { readProjectInstructions } from '../task/project-instructions';
import type { ProjectInstructions } from '../protocol/settings';
import { implementedWarning } from '../task/prepare-target';
import { openAgentTools, type AgentTools } from './agent-tools';
import { chooseTests } from './choose-tests';
import { lookAtCheckout } from '../eval/pristine-evaluation';
import { finishRun } from './finish-run';
import { recordStart } from './record-start';
import { runAgent } from './run-agent';
import type { RunOptions } from './run-options';
import { startConversation } from './start-conversation';
import { newTaskRun } from './run-context';

/** The instructions a run gives the model: a resumed session's recorded ones, the given ones, none when left out, else the repository's files. */
export function projectInstructions(
  options: RunOptions,
  repo: string,
  resume: RunOptions['resume'],
): ProjectInstructions | undefined {
  const given = resume?.start ? (resume.start.config.instructions ?? 'off') : options.instructions;
  if (given === 'off') return undefined;
  return given ?? readProjectInstructions(repo);
}

export function newSessionId(): string {
  const stamp = new Date().toISOString().replace(/[-:]/g, '').replace(/\..*$/, '').replace('T', '-');
  return `${stamp}-${randomBytes(3).toString('hex')}`;
}

/**
 * One task end to end: THM, the developer's approval of the tests, the agent with its tools, and
 * the evaluation on every failing test THM found, the ones the agent never saw included. With
 * `resume`, each step takes what the log shows as done from it: the start and its settings, THM's
 * report and the approval, the workspace's submissions, the conversation, the strategy's place.
 */
export async function runTask(options: RunOptions): Promise<RunResult> {
  const startedAt = Date.now();
  const resume = options.resume;
  const sessionId = options.sessionId ?? resume?.start?.sessionId ?? newSessionId();
  const task = await openTask({
    repo: options.repo,
    target: options.target,
    blank: options.blank,
    session: sessionId,
    ...(options.python ? { python: options.python } : {}),
    ...(options.sandbox ? { sandbox: options.sandbox } : {}),
  });
  const run = newTaskRun(options, task, sessionId, resume);
  const instructions = projectInstructions(options, task.repoDir, resume);
  if (instructions) run.instructions = instructions;
  let tools: AgentTools | undefined;
  try {
    recordStart(run);
    // Before THM (minutes, on a large suite): stub mode on a real body is likely a forgotten --blank.
    const implemented = implementedWarning(task.target);
    if (implemented && !resume) run.emit({ type: 'warning', message: implemented });
    const plan = await chooseTests(run);
    tools = await openAgentTools(run, plan);
    // The checkout as the agent starts: the evaluation, in a fresh copy of it, checks it is still so.
    const checkoutAtStart = await lookAtCheckout(
      task,
      options.sessionsRoot ? new Set([options.sessionsRoot]) : undefined,
    );
    // From here on the agent's code runs in the workspace: it is not kept for the next run.
    task.workspace.ranAgentCode();
    const conversation = await startConversation(run, plan, tools);
    const outcome = await runAgent(run, plan, tools, conversation);
    return await finishRun(run, plan, tools, conversation, outcome, startedAt, checkoutAtStart);
  } finally {
    tools?.dispose();
    await task.dispose();
  }
}
