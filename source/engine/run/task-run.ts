import type { EventSink } from '../events';
import type { SessionState } from '../session/fold';
import type { OpenTask } from '../task/open-task';
import type { ProjectInstructions } from '../protocol/settings';
import type { TestFile } from './desk';
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
}
