import type { EventSink, TestRun } from '../events';
import type { UsageSums } from '../model/usage-sums';
import type { SessionState } from '../session/fold';
import type { OpenTask } from '../task/open-task';
import type { ProjectInstructions } from '../protocol/settings';
import { developerFilesAfter } from '../thm/developer-tests';
import type { TestFile } from './test-desk';
import type { RunOptions } from './run-options';

/** What the steps of one run share (see run-task.ts). */
export interface TaskRun {
  options: RunOptions;
  task: OpenTask;
  sessionId: string;
  /** Every event of the run goes out through here. */
  emit: EventSink;
  /** tdd or tenet+tdd: the agent writes tests of its own. */
  tdd: boolean;
  /** The interrupted session this run goes on with: each step takes from it what the log shows as done. */
  resume?: SessionState;
  /** Each accepted version of the agent's tests, the recorded ones first (the failure analysis of a TDD session reads them). */
  ownTestVersions: string[];
  /** The repository's instructions that go into the system prompt (none: it has none, or they were left out). */
  instructions?: ProjectInstructions;
  /** The code of each accepted submission, the recorded ones first: the workspace on resume and the result are built from them (see submittedModule). */
  submissions: string[];
  /** The developer's test files as they count now (see developerFilesAfter): the evaluation's copy gets them too. */
  developerFiles: TestFile[];
  /** A plan's target: what the model is told of the plan's targets done so far (see run/plan-note.ts), after its task. */
  planNote?: string;
  /** A plan's target: what the plan's earlier targets spent on the model (the session's limits count it). */
  spentBefore?: UsageSums;
  /** A plan's target: told of every validation, which may end the agent's part by throwing (the target waits for another). */
  afterValidation?: (run: TestRun) => void;
}

/**
 * A run's shared state, from the options and the interrupted session it goes on with: what each
 * accepted submission, version of the agent's tests and test file of the developer's changes is
 * kept as the events go out.
 */
export function newTaskRun(options: RunOptions, task: OpenTask, sessionId: string, resume?: SessionState): TaskRun {
  const run: TaskRun = {
    options,
    task,
    sessionId,
    emit: (event) => {
      if (event.type === 'tests.submission' && event.ok) run.ownTestVersions.push(event.code);
      if (event.type === 'submission' && event.ok) run.submissions.push(event.code);
      if (event.type === 'tests.added') run.developerFiles = developerFilesAfter(run.developerFiles, event);
      options.emit(event);
    },
    tdd: options.strategy !== 'tenet',
    ...(resume ? { resume } : {}),
    ownTestVersions: [...(resume?.testVersions ?? [])],
    submissions: [...(resume?.submissions ?? [])],
    developerFiles: [...(resume?.developerFiles ?? [])],
  };
  return run;
}
