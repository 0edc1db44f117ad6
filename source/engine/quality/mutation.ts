import { availableParallelism } from 'node:os';
import { posix } from 'node:path';
import { pythonEnv } from '../python-source/pytest-env';
import { encodeSource } from '../python-source/source-text';
import type { Sandbox } from '../sandbox/sandbox';
import type { Mutant, MutationOperator } from './mutants';
import { MutationWorker, type WorkerResult } from './mutation-worker';

/**
 * killed: a test failed (or the test process crashed); timeout: the mutant ran past the per-mutant
 * limit (an infinite loop), which counts as killed; survived: every test passed; invalid: Python
 * would not compile it (tree-sitter is more lenient); error: pytest itself could not run;
 * not run: the tests fail on the ground truth, so no mutant was tried.
 */
export type MutantStatus = 'killed' | 'survived' | 'timeout' | 'invalid' | 'error' | 'not run';

export interface MutantOutcome {
  id: string;
  operator: MutationOperator;
  line: number;
  description: string;
  status: MutantStatus;
  durationMs: number;
  /** Why a mutant is invalid or errored. */
  message?: string;
}

export interface MutationReport {
  killed: number;
  survived: number;
  timedOut: number;
  invalid: number;
  errors: number;
  /** Mutants that got a verdict: killed + survived + timedOut. */
  total: number;
  /** (killed + timedOut) / total; 0 when the baseline fails or there is nothing to score. */
  score: number;
  baselinePassed: boolean;
  baseline: { status: string; exitCode: number | null; durationMs: number; output: string };
  timeoutMs: number;
  jobs: number;
  warnings: string[];
  mutants: MutantOutcome[];
  durationMs: number;
}

export interface MutationOptions {
  sandbox: Sandbox;
  /** Host path of the workspace root (for the import roots on PYTHONPATH). */
  workspaceRoot: string;
  python: string;
  /** Target module, relative to the workspace, and its file encoding. */
  target: { file: string; encoding: 'utf8' | 'latin1' };
  /** Test file, relative to the workspace. */
  testFile: string;
  mutants: Mutant[];
  /** Worker processes (default: the number of cores). */
  jobs?: number;
  /** Per-mutant limit (default: twice the baseline run plus two seconds). */
  timeoutMs?: number;
  onResult?: (outcome: MutantOutcome, done: number, total: number) => void;
}

const BASELINE_TIMEOUT_SEC = 3600;
const TIMEOUT_FACTOR = 2;
const TIMEOUT_SLACK_MS = 2000;
/** pytest flags every run gets: no cache writes from parallel runs, quiet. */
const COMMON_ARGS = ['-q', '-p', 'no:cacheprovider'];
/** A mutant needs only the first failure to be killed, and no traceback. */
const MUTANT_ARGS = ['-x', '--tb=no'];

/**
 * Runs the test file against the target as the workspace has it (the baseline), then against
 * every mutant, in parallel worker processes. Each mutant is imported in place of the target
 * file inside its own forked test process (see source/python/_tenet_mutation.py): the workspace
 * is never written, so runs cannot see each other's mutants.
 */
export async function runMutation(options: MutationOptions): Promise<MutationReport> {
  const started = Date.now();
  const env = {
    ...pythonEnv(options.sandbox, options.workspaceRoot, options.target.file),
    // A worker dies with tenet even on SIGKILL (Linux), like THM's pytest processes.
    ...(options.sandbox.kind === 'local' ? { TENET_PARENT_PID: String(process.pid) } : {}),
  };
  const argv = [
    options.python,
    '-m',
    '_tenet_mutation',
    '--target',
    posix.join(options.sandbox.workdir, options.target.file),
  ];
  const jobs = Math.max(1, Math.min(options.jobs ?? availableParallelism(), Math.max(1, options.mutants.length)));
  const workers = Array.from({ length: jobs }, () => new MutationWorker(options.sandbox, argv, env));
  const warnings: string[] = [];
  try {
    const baseline = await workers[0]!.run({
      id: 'baseline',
      source: null,
      timeoutSec: BASELINE_TIMEOUT_SEC,
      args: [options.testFile, ...COMMON_ARGS, '--tb=short'],
      output: true,
    });
    const timeoutMs = options.timeoutMs ?? Math.round(baseline.durationMs * TIMEOUT_FACTOR + TIMEOUT_SLACK_MS);
    const report = (mutants: MutantOutcome[], baselinePassed: boolean): MutationReport =>
      summarize(mutants, baselinePassed, baseline, timeoutMs, jobs, warnings, Date.now() - started);

    if (baseline.status !== 'passed') {
      const outcomes = options.mutants.map((m) => outcome(m, 'not run', 0));
      return report(outcomes, false);
    }
    if (!baseline.loaded) {
      // A change to a file the test process never imports cannot change a test's outcome.
      warnings.push(
        `the tests never imported ${options.target.file} from the workspace (they may import an installed copy, or only use it in a subprocess): no mutant can be killed`,
      );
      return report(
        options.mutants.map((m) => outcome(m, 'survived', 0)),
        true,
      );
    }

    const outcomes: MutantOutcome[] = new Array(options.mutants.length);
    let next = 0;
    let done = 0;
    await Promise.all(
      workers.map(async (worker) => {
        for (let index = next++; index < options.mutants.length; index = next++) {
          const mutant = options.mutants[index]!;
          const result = await worker.run({
            id: mutant.id,
            source: encodeSource({ text: mutant.text, encoding: options.target.encoding }),
            timeoutSec: timeoutMs / 1000,
            args: [options.testFile, ...COMMON_ARGS, ...MUTANT_ARGS],
          });
          outcomes[index] = outcome(mutant, verdict(result), result.durationMs, result);
          options.onResult?.(outcomes[index]!, ++done, options.mutants.length);
        }
      }),
    );
    return report(outcomes, true);
  } finally {
    await Promise.all(workers.map((w) => w.close()));
  }
}

function verdict(result: WorkerResult): MutantStatus {
  switch (result.status) {
    case 'passed':
      return 'survived';
    case 'failed':
    case 'crashed':
      return 'killed';
    case 'timeout':
      return 'timeout';
    case 'invalid':
      return 'invalid';
    case 'error':
      return 'error';
  }
}

function outcome(mutant: Mutant, status: MutantStatus, durationMs: number, result?: WorkerResult): MutantOutcome {
  const message =
    status === 'invalid' || status === 'error' ? (result?.message ?? result?.output?.trim().slice(-1000)) : undefined;
  return {
    id: mutant.id,
    operator: mutant.operator,
    line: mutant.line,
    description: mutant.description,
    status,
    durationMs,
    ...(message ? { message } : {}),
  };
}

function summarize(
  mutants: MutantOutcome[],
  baselinePassed: boolean,
  baseline: WorkerResult,
  timeoutMs: number,
  jobs: number,
  warnings: string[],
  durationMs: number,
): MutationReport {
  const count = (status: MutantStatus) => mutants.filter((m) => m.status === status).length;
  const killed = count('killed');
  const timedOut = count('timeout');
  const survived = count('survived');
  const total = killed + timedOut + survived;
  return {
    killed,
    survived,
    timedOut,
    invalid: count('invalid'),
    errors: count('error'),
    total,
    score: baselinePassed && total ? (killed + timedOut) / total : 0,
    baselinePassed,
    baseline: {
      status: baseline.status,
      exitCode: baseline.exitCode ?? null,
      durationMs: baseline.durationMs,
      output: (baseline.output ?? baseline.message ?? '').trim(),
    },
    timeoutMs,
    jobs,
    warnings,
    mutants,
    durationMs,
  };
}
