import { posix } from 'node:path';
import { TenetError } from '../errors';
import { pythonEnv } from '../python-source/pytest-env';
import type { Sandbox } from '../sandbox/sandbox';

export interface BranchOutcome {
  /** The branch point's line, its kind and the outcome's name (true/false, iteration/exhausted, matched/not matched). */
  line: number;
  kind: string;
  label: string;
  /** The outcome's first line; null for "any other line" (no else: the code after, or leaving the function). */
  to: number | null;
}

export interface TestCounts {
  passed: number;
  failed: number;
  errors: number;
  skipped: number;
  xfailed: number;
  xpassed: number;
}

/** How much of one function a test file runs. Definitions: source/python/_tenet_coverage.py. */
export interface FunctionCoverage {
  lines: { covered: number; total: number };
  /** Branch outcomes (two per branch point) taken, of all. */
  branches: { covered: number; total: number };
  missingLines: number[];
  missingBranches: BranchOutcome[];
  tests: TestCounts;
  /** pytest's exit code for the measured run. */
  exitCode: number;
  warnings: string[];
}

export interface CoverageOptions {
  sandbox: Sandbox;
  /** Host path of the workspace root (for the import roots on PYTHONPATH). */
  workspaceRoot: string;
  python: string;
  /** The function: its module relative to the workspace, qualname and first line (decorators included). */
  target: { file: string; qualname: string; startLine: number };
  /** Test file, relative to the workspace. */
  testFile: string;
  timeoutMs?: number;
}

interface HelperResult {
  error?: string;
  lines: number[];
  hit: number[];
  branches: { line: number; kind: string; outcomes: { label: string; to: number | null; taken: boolean }[] }[];
  tests: TestCounts;
  exitCode: number;
  warnings: string[];
}

const DEFAULT_TIMEOUT_MS = 3_600_000;
const MARK = '\x1etenet:';

/**
 * Line and branch coverage of the target function by one test file, measured by the helper
 * `python -m _tenet_coverage` running pytest in the sandbox (no coverage.py needed). The result
 * comes back as the last marked line of its stdout, so nothing has to be read back from the
 * sandbox's disk.
 */
export async function measureCoverage(options: CoverageOptions): Promise<FunctionCoverage> {
  const { sandbox, target } = options;
  const argv = [
    options.python,
    '-m',
    '_tenet_coverage',
    '--file',
    posix.join(sandbox.workdir, target.file),
    '--qualname',
    target.qualname,
    '--line',
    String(target.startLine),
    '--out',
    '-',
    '--',
    options.testFile,
    '-q',
    '-p',
    'no:cacheprovider',
  ];
  const run = await sandbox.run(argv, {
    env: pythonEnv(sandbox, options.workspaceRoot, target.file),
    timeoutMs: options.timeoutMs ?? DEFAULT_TIMEOUT_MS,
  });
  const at = run.stdout.lastIndexOf(MARK);
  if (at === -1) {
    const why = run.timedOut ? 'timed out' : (run.error ?? `exited with code ${run.exitCode}`);
    throw new TenetError(
      `Measuring coverage of ${target.file}::${target.qualname} failed: the helper ${why}.\n${(run.stderr || run.stdout).trim().slice(-3000)}`,
    );
  }
  const result = JSON.parse(run.stdout.slice(at + MARK.length).split('\n')[0]!) as HelperResult;
  if (result.error) throw new TenetError(`Measuring coverage failed: ${result.error}.`);
  return summarizeCoverage(result);
}

function summarizeCoverage(result: HelperResult): FunctionCoverage {
  const hit = new Set(result.hit);
  const outcomes = result.branches.flatMap((b) =>
    b.outcomes.map((o) => ({ line: b.line, kind: b.kind, label: o.label, to: o.to, taken: o.taken })),
  );
  return {
    lines: { covered: result.hit.length, total: result.lines.length },
    branches: { covered: outcomes.filter((o) => o.taken).length, total: outcomes.length },
    missingLines: result.lines.filter((line) => !hit.has(line)),
    missingBranches: outcomes.filter((o) => !o.taken).map(({ taken: _taken, ...rest }) => rest),
    tests: result.tests,
    exitCode: result.exitCode,
    warnings: result.warnings,
  };
}
