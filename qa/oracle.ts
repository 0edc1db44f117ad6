/**
 * The differential check's oracle: plain pytest on a copy of the repository, the target blanked
 * (as tenet blanks it) or left as it is, in one process, each test's outcome observed by
 * qa/oracle_plugin.py. Under Docker it runs in the same image as tenet's Docker sandbox, so both
 * sides meet the same Python and pytest.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import { prepareTarget } from '../source/engine/task/prepare-target';
import { resolveTarget } from '../source/engine/task/resolve-target';

export type Outcome = 'passed' | 'failed' | 'error' | 'skipped' | 'xfailed' | 'xpassed' | 'collection';

export interface OracleRun {
  outcomes: Map<string, Outcome>;
  exitstatus: number;
  /** With a mark (sentinelText): the tests and modules whose failure report holds it. */
  marked: Set<string>;
}

/** What the target says when the sentinel body runs (sentinelText). */
export const SENTINEL_MARK = 'tenet-qa-oracle: the target was called';

/** Where plain pytest runs: this machine's python3, or a container of the image. */
export type Runner = { kind: 'local'; python: string } | { kind: 'docker'; image: string };

/** The target's module text blanked as tenet blanks it in benchmark mode. */
export async function blankedText(repo: string, target: string): Promise<{ file: string; text: string }> {
  const resolved = await resolveTarget(repo, target);
  const prepared = await prepareTarget(resolved, 'blank');
  return { file: resolved.file, text: prepared.startText };
}

/**
 * The target's module with the target's body raising an exception of its own: a test whose
 * failure report holds SENTINEL_MARK failed because the target was called, by the test itself or
 * by a setup it depends on. (pytest's and unittest's reporting of a failed assertion swallow what
 * a repr raises: a call from there leaves no mark.) The body is the blank's, its
 * `raise NotImplementedError` made to say the mark.
 */
export async function sentinelText(repo: string, target: string): Promise<{ file: string; text: string }> {
  const resolved = await resolveTarget(repo, target);
  const blank = await prepareTarget(resolved, 'blank');
  const lines = blank.startText.split('\n');
  const at = lines.findIndex(
    (line, index) => index >= resolved.startLine - 1 && /^\s*raise NotImplementedError\b/.test(line),
  );
  if (at === -1) throw new Error(`qa: no blank body for ${target} in ${resolved.file}`);
  lines[at] = lines[at]!.replace(
    /raise NotImplementedError(\(\))?/,
    `raise RuntimeError(${JSON.stringify(SENTINEL_MARK)})`,
  );
  return { file: resolved.file, text: lines.join('\n') };
}

/**
 * A copy of the repository with one file's text replaced. Its bytecode stays valid, as the times
 * it is checked against are kept; the replaced file's own is removed (Python checks a source by its
 * time to the second and its size: a replacement written in the same second with the same size
 * would pass for the original).
 *
 * The copy's files are hard links to the repository's (`cp -al`): four copies a target, and a
 * real copy of sympy's files and bytecode cost 2 to 2.6 CPU-s each, a linked one 0.2. The
 * repository is qa's own copy of the suite (suites.ts), and nothing writes in place in a copy: the
 * replaced file and removed bytecode are unlinked first, the oracle's pytest writes no bytecode and
 * no cache, and tenet copies the repository it is given into a workspace of its own.
 */
export function copyWith(repo: string, replaced?: { file: string; text: string }): string {
  const copy = mkdtempSync(join(tmpdir(), 'tenet-qa-'));
  // cp and rm, not cpSync and rmSync: on sympy's files they take half the CPU.
  run('cp', ['-al', `${repo}/.`, copy]);
  run('find', [copy, '-name', '.pytest_cache', '-prune', '-exec', 'rm', '-rf', '{}', '+']);
  if (replaced) {
    // A new file, not the repository's written through its link.
    rmSync(join(copy, replaced.file), { force: true });
    writeFileSync(join(copy, replaced.file), replaced.text);
    const cache = join(copy, dirname(replaced.file), '__pycache__');
    const stem = `${basename(replaced.file, '.py')}.`;
    if (existsSync(cache))
      for (const name of readdirSync(cache))
        if (name.startsWith(stem) && name.endsWith('.pyc')) rmSync(join(cache, name), { force: true });
  }
  return copy;
}

/** Removes a copy copyWith made. */
export function removeCopy(copy: string): void {
  run('rm', ['-rf', copy]);
}

function run(command: string, args: string[]): void {
  const result = spawnSync(command, args, { encoding: 'utf8' });
  if (result.status !== 0) throw new Error(`qa: ${command} ${args.join(' ')}: ${result.error ?? result.stderr}`);
}

/** The folders a developer puts on PYTHONPATH for this layout: `src/` when it holds packages. */
export function layoutPath(repo: string): string[] {
  const src = join(repo, 'src');
  if (!existsSync(src) || !statSync(src).isDirectory()) return [];
  const packages = readdirSync(src, { withFileTypes: true }).some(
    (entry) => entry.isDirectory() && existsSync(join(src, entry.name, '__init__.py')),
  );
  return packages ? ['src'] : [];
}

const PLUGIN_DIR = import.meta.dirname;

/** Plain pytest over `testArgs` on a fresh copy of `repo` (with `replaced` written in), every test's outcome. */
export function oracleOn(
  repo: string,
  testArgs: readonly string[],
  runner: Runner,
  replaced?: { file: string; text: string },
  mark?: string,
): OracleRun {
  const copy = copyWith(repo, replaced);
  try {
    return runOracle(copy, testArgs, runner, mark);
  } finally {
    removeCopy(copy);
  }
}

/** Plain pytest over `testArgs` in `copy`, every test's outcome. */
function runOracle(copy: string, testArgs: readonly string[], runner: Runner, mark?: string): OracleRun {
  const timeoutMs = 900_000;
  const out = join(copy, '.qa-oracle.json');
  const roots = layoutPath(copy);
  // Every test, as tenet runs them: a module that fails to import (a target called as the test
  // module is imported: jsonschema's `from jsonschema import cli` goes through its module
  // __getattr__) would otherwise stop plain pytest before any test ran. Python's own traceback
  // (--tb=native): the outcomes do not depend on how a failure is drawn, the sentinel's mark is in
  // either drawing (`RuntimeError: MARK`, chained exceptions too), and pytest's long drawing, with
  // source around every frame of sympy's deep stacks, cost half the CPU of a run whose target is
  // blank (Printer.order, 68 failing tests: 8.1 CPU-s against 4.9, its sentinel run 9.2 against 3.4).
  const args = [
    '-m',
    'pytest',
    '-p',
    'oracle_plugin',
    '-p',
    'no:cacheprovider',
    '-q',
    '--tb=native',
    '--continue-on-collection-errors',
    ...testArgs,
  ];
  let result;
  if (runner.kind === 'local') {
    const env = {
      ...process.env,
      QA_ORACLE_OUT: out,
      QA_ORACLE_ROOT: copy,
      ...(mark ? { QA_ORACLE_MARK: mark } : {}),
      PYTHONPATH: [PLUGIN_DIR, ...roots.map((r) => join(copy, r))].join(':'),
      PYTHONDONTWRITEBYTECODE: '1',
    };
    result = spawnSync(runner.python, args, {
      cwd: copy,
      env,
      encoding: 'utf8',
      timeout: timeoutMs,
      maxBuffer: 64 << 20,
    });
  } else {
    const pythonPath = ['/qa', ...roots.map((r) => `/w/${r}`)].join(':');
    result = spawnSync(
      'docker',
      [
        'run',
        '--rm',
        '--network',
        'none',
        '-v',
        `${copy}:/w`,
        '-v',
        `${PLUGIN_DIR}:/qa:ro`,
        '-w',
        '/w',
        '-e',
        'QA_ORACLE_OUT=/w/.qa-oracle.json',
        '-e',
        'QA_ORACLE_ROOT=/w',
        ...(mark ? ['-e', `QA_ORACLE_MARK=${mark}`] : []),
        '-e',
        `PYTHONPATH=${pythonPath}`,
        '-e',
        'PYTHONDONTWRITEBYTECODE=1',
        runner.image,
        'python3',
        ...args,
      ],
      { encoding: 'utf8', timeout: timeoutMs, maxBuffer: 64 << 20 },
    );
  }
  if (!existsSync(out)) {
    throw new Error(
      `the oracle's pytest ended without a report (status ${result.status}${result.error ? `, ${result.error.message}` : ''}):\n${(result.stdout ?? '').slice(-2000)}${(result.stderr ?? '').slice(-2000)}`,
    );
  }
  const parsed = JSON.parse(readFileSync(out, 'utf8')) as {
    exitstatus: number;
    outcomes: Record<string, Outcome>;
    marked?: string[];
  };
  rmSync(out, { force: true });
  return {
    outcomes: new Map(Object.entries(parsed.outcomes)),
    exitstatus: parsed.exitstatus,
    marked: new Set(parsed.marked ?? []),
  };
}
