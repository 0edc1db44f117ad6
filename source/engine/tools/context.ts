import type { TestRun } from '../events';
import type { RepoIndex } from '../index/repo-index';
import type { Sandbox } from '../sandbox/sandbox';
import type { PythonInfo } from '../task/interpreter';
import type { PreparedTarget } from '../task/prepare-target';
import type { CommandDecision } from '../protocol/decisions';
import type { Workspace } from '../workspace/workspace';
import type { DebuggerSession } from './debugger/session';

/** What a tool call can use. One per session; tools never reach outside the workspace. */
export interface ToolContext {
  workspace: Workspace;
  sandbox: Sandbox;
  index: RepoIndex;
  target: PreparedTarget;
  python: PythonInfo;
  /** The tests the session validates against (THM's selection, and the agent's own test file once written). */
  selectedTests: string[];
  /**
   * pytest's arguments for the scope THM ran (the user's --tests). Every run of tests passes them
   * again, so a test runs as THM saw it: under the same options (`-p`, `-o`, `-W`…), the same
   * rootdir, and found where THM found it (a scope outside the ini file's testpaths).
   */
  testArgs: string[];
  /** The persistent shell/pdb session, started on first use. */
  debugger(): DebuggerSession;
  /** Workspace path of the agent's own test file (TDD strategies), once submitted. */
  agentTestFile?: string;
  /** Asked before the model's shell commands run (local sandbox, `--approve ask`); absent means allowed. */
  approveCommand?: (command: string) => Promise<CommandDecision>;
  /** Told of every run the model's run_tests call makes (the session records it; TDD reads it). */
  onTestRun?: (run: TestRun) => void;
  /** Per-test timeout for run_tests, in seconds. */
  testTimeoutSec: number;
  signal?: AbortSignal;
}
