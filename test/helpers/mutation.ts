import { afterAll, beforeAll, vi } from 'vitest';
import { mutateCommand } from '../../source/commands/mutate';
import { measureCoverage } from '../../source/engine/quality/coverage';
import { generateMutants } from '../../source/engine/quality/mutants';
import { runMutation, type MutationOptions } from '../../source/engine/quality/mutation';
import { openTask, type OpenTask } from '../../source/engine/task/open-task';
import { copyFixture } from './fixtures';

/**
 * test/fixtures/quality is a src-layout package (src/grading/core.py) with tests of known strength.
 * The mutants of each function are listed and their fates counted by hand in the test files'
 * docstrings; the numbers below are those counts.
 */
export let fixture: ReturnType<typeof copyFixture>;
const tasks: OpenTask[] = [];

// Registered in each test file that imports this module (an e2e file gets its own copy of it).
beforeAll(() => {
  fixture = copyFixture('quality');
});
afterAll(async () => {
  for (const task of tasks) await task.dispose();
  fixture.cleanup();
});

export async function open(qualname: string): Promise<OpenTask> {
  const task = await openTask({ repo: fixture.dir, target: `src/grading/core.py::${qualname}`, blank: false });
  tasks.push(task);
  return task;
}

export async function mutate(task: OpenTask, testFile: string, extra: Partial<MutationOptions> = {}) {
  const mutants = await generateMutants(task.target.originalText, {
    qualname: task.target.qualname,
    startLine: task.target.startLine,
  });
  return runMutation({
    sandbox: task.sandbox,
    workspaceRoot: task.workspace.root,
    python: task.python.executable,
    target: { file: task.target.file, encoding: task.target.source.encoding },
    testFile,
    mutants,
    ...extra,
  });
}

export async function coverage(task: OpenTask, testFile: string) {
  const { file, qualname, startLine } = task.target;
  return measureCoverage({
    sandbox: task.sandbox,
    workspaceRoot: task.workspace.root,
    python: task.python.executable,
    target: { file, qualname, startLine },
    testFile,
  });
}

/**
 * A per-mutant limit no healthy run reaches even on a loaded machine: with the default (twice the
 * baseline plus 2 s) a slow run could turn "killed" or "survived" into "timeout" and the exact
 * counts below would flake.
 */
export const GENEROUS_MS = 30_000;

export const statuses = (report: { mutants: { id: string; status: string }[] }) =>
  Object.fromEntries(report.mutants.map((m) => [m.id, m.status]));

/** `tenet mutate` as the terminal shows it (no --json): what it printed and its exit code. */
export async function mutateText(options: { tests: string; max?: number }): Promise<{ code: number; text: string }> {
  const out: string[] = [];
  const write = vi
    .spyOn(process.stdout, 'write')
    .mockImplementation((chunk: string | Uint8Array) => (out.push(String(chunk)), true));
  try {
    const code = await mutateCommand({
      repo: fixture.dir,
      target: 'src/grading/core.py::final_score',
      jobs: 1,
      timeout: GENEROUS_MS / 1000,
      ...options,
    });
    return { code, text: out.join('') };
  } finally {
    write.mockRestore();
  }
}
