import { existsSync, statSync } from 'node:fs';
import { isAbsolute, join, relative, sep } from 'node:path';
import { TenetError } from '../engine/errors';
import { measureCoverage } from '../engine/quality/coverage';
import { DEFAULT_MAX_MUTANTS, generateMutants, spread } from '../engine/quality/mutants';
import { runMutation } from '../engine/quality/mutation';
import { openTask } from '../engine/task/open-task';
import { formatMutate, mutateJson, type MutateResult } from './format-mutate';
import { EXIT } from '../engine/exit-codes';

export interface MutateCommandOptions {
  repo: string;
  target: string;
  /** The test file to judge, relative to the repository (or absolute inside it). */
  tests: string;
  python?: string;
  jobs?: number;
  max?: number;
  /** Per-mutant time limit in seconds (default: from the baseline run). */
  timeout?: number;
  json?: boolean;
}

/**
 * `tenet mutate`: how good is one test file at checking one function? The function as the
 * repository has it is the ground truth; the file's tests must pass on it, and then the score is
 * the share of small changes to the function (mutants) that make a test fail. Also prints line and
 * branch coverage of the function by the file. Exit code 0 when measured, 1 when the tests fail
 * on the ground truth (score 0), 2 for bad input.
 */
export async function mutateCommand(options: MutateCommandOptions): Promise<number> {
  const task = await openTask({
    repo: options.repo,
    target: options.target,
    blank: false,
    ...(options.python ? { python: options.python } : {}),
  });
  const progress = options.json || !process.stderr.isTTY ? undefined : process.stderr;
  try {
    const testFile = testFileIn(task.repoDir, options.tests);
    const { target } = task;
    const all = await generateMutants(
      target.originalText,
      { qualname: target.qualname, startLine: target.startLine },
      { max: Infinity },
    );
    const mutants = spread(all, options.max ?? DEFAULT_MAX_MUTANTS);
    const common = {
      sandbox: task.sandbox,
      workspaceRoot: task.workspace.root,
      python: task.python.executable,
      testFile,
    };
    progress?.write(`measuring coverage of ${target.id} by ${testFile}…`);
    const coverage = await measureCoverage({
      ...common,
      target: { file: target.file, qualname: target.qualname, startLine: target.startLine },
    });
    const mutation = await runMutation({
      ...common,
      target: { file: target.file, encoding: target.source.encoding },
      mutants,
      ...(options.jobs ? { jobs: options.jobs } : {}),
      ...(options.timeout ? { timeoutMs: options.timeout * 1000 } : {}),
      onResult: (_outcome, done, total) => progress?.write(`\r\x1b[2Kmutants ${done}/${total}`),
    });
    progress?.write('\r\x1b[2K');
    const result: MutateResult = { target: target.id, tests: testFile, generated: all.length, mutation, coverage };
    process.stdout.write(options.json ? `${JSON.stringify(mutateJson(result))}\n` : `${formatMutate(result)}\n`);
    return mutation.baselinePassed ? EXIT.pass : EXIT.fail;
  } finally {
    await task.dispose();
  }
}

/** The test file as a posix path relative to the repository root, which is also the workspace root. */
function testFileIn(repoDir: string, tests: string): string {
  const absolute = isAbsolute(tests) ? tests : join(repoDir, tests);
  const rel = relative(repoDir, absolute);
  if (rel.startsWith('..') || isAbsolute(rel)) {
    throw new TenetError(
      `Test file ${tests} is outside the repository ${repoDir}.`,
      'pass --tests with a file inside --repo',
    );
  }
  if (!existsSync(absolute) || !statSync(absolute).isFile()) {
    throw new TenetError(
      `Test file ${rel} does not exist in ${repoDir}.`,
      'pass --tests with the path of a pytest file relative to --repo',
    );
  }
  return rel.split(sep).join('/');
}
