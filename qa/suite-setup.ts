/**
 * A suite's set-up for qa/thm: its repository made, its functions scanned, bench make's reach
 * pass (which tests call which function) and, for reach mode, its reach index. On sympy's printers
 * that is about 13 CPU-seconds, the same for every part of the suite's share of CI's sample.
 *
 * With `shared` (a folder the parts' processes all see: CI's test files pass one, see
 * test/setup/qa-shared.ts), the first part to come makes it there and the others wait for it and
 * use it: the same repository, reach pass and index. The folder outlives them; whoever made it
 * removes it. Without it, each run makes its own and removes it at the end.
 */
import { existsSync, mkdirSync, mkdtempSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type ScannedFunction, scanFunctions } from '../source/engine/bench/make-functions';
import { runReachPass } from '../source/engine/bench/make-reach';
import type { Suite } from './suites';

export interface SuiteSetup {
  repo: string;
  eligible: ScannedFunction[];
  /** Function (index into `eligible`) -> the tests that call it. */
  reachedBy: Map<number, Set<string>>;
  /** Functions called outside any test (at import, in a session fixture). */
  outside: Set<number>;
  positional: string[];
  durationMs: number;
  /** tenet's cache folder for the suite: its reach index. */
  cache: string;
  /** Made here, removed by `tearDown`; not when another part made it. */
  own: boolean;
}

/** Records the suite's reach index in `cache`. */
export type RecordIndex = (repo: string, scope: readonly string[], cache: string) => void;

/** What a waiting part reads: the set-up without its Maps and Sets. */
interface Written {
  eligible: ScannedFunction[];
  reachedBy: [number, string[]][];
  outside: number[];
  positional: string[];
  durationMs: number;
  indexed: boolean;
}

const WAIT_MS = 40 * 60_000;

export async function setUp(
  suite: Suite,
  python: string,
  index: RecordIndex | undefined,
  shared: string | undefined,
): Promise<SuiteSetup> {
  if (!shared) {
    const repo = mkdtempSync(join(tmpdir(), 'tenet-qa-repo-'));
    const cache = mkdtempSync(join(tmpdir(), 'tenet-qa-reach-'));
    try {
      return { ...read(await make(suite, python, repo, cache, index)), repo, cache, own: true };
    } catch (error) {
      tearDown({ repo, cache, own: true });
      throw error;
    }
  }
  const dir = join(shared, suite.name);
  const repo = join(dir, 'repo');
  const cache = join(dir, 'cache');
  mkdirSync(shared, { recursive: true });
  let first = true;
  try {
    mkdirSync(dir); // one part makes it: the one whose mkdir comes first
  } catch {
    first = false;
  }
  if (first) {
    try {
      mkdirSync(repo);
      const written = await make(suite, python, repo, cache, index);
      writeAtomically(join(dir, 'setup.json'), written);
      return { ...read(written), repo, cache, own: false };
    } catch (error) {
      writeAtomically(join(dir, 'failed.json'), { message: String(error) });
      throw error;
    }
  }
  const written = await waitFor(dir);
  // A part that checks reach mode where the part that made it did not records the index itself.
  if (index && !written.indexed) index(repo, suite.reach, cache);
  return { ...read(written), repo, cache, own: false };
}

export function tearDown(setup: Pick<SuiteSetup, 'repo' | 'cache' | 'own'>): void {
  if (!setup.own) return;
  rmSync(setup.repo, { recursive: true, force: true });
  rmSync(setup.cache, { recursive: true, force: true });
}

async function make(
  suite: Suite,
  python: string,
  repo: string,
  cache: string,
  index: RecordIndex | undefined,
): Promise<Written> {
  const { scan, reach } = await madeAndReached(suite, repo, { python, minStatements: suite.minStatements });
  index?.(repo, suite.reach, cache);
  return {
    eligible: scan.eligible,
    reachedBy: [...reach.reachedBy].map(([id, tests]) => [id, [...tests]]),
    outside: [...reach.outside],
    positional: reach.positional,
    durationMs: reach.durationMs,
    indexed: !!index,
  };
}

/** The suite made in `repo`, its functions scanned, and bench make's reach pass over them. */
export async function madeAndReached(
  suite: Suite,
  repo: string,
  options: { python?: string; minStatements?: number } = {},
) {
  suite.make(repo);
  // Targets are drawn from `suite.files` only: functions elsewhere are neither parsed nor
  // instrumented for the reach pass (sympy's printers: 918 of the package's 10,374 functions, and
  // the modules the pass rewrites lose their bytecode), and the draw stays the same.
  const files = suite.files;
  const scan = await scanFunctions(repo, options.minStatements, files && ((file) => files.test(file)));
  const reach = await runReachPass({
    repoDir: repo,
    functions: scan.eligible,
    testArgs: suite.reach,
    jobs: 'auto',
    testTimeoutSec: 120,
    ...(options.python ? { python: options.python } : {}),
  });
  return { scan, reach };
}

function read(written: Written): Omit<SuiteSetup, 'repo' | 'cache' | 'own'> {
  return {
    eligible: written.eligible,
    reachedBy: new Map(written.reachedBy.map(([id, tests]) => [id, new Set(tests)])),
    outside: new Set(written.outside),
    positional: written.positional,
    durationMs: written.durationMs,
  };
}

async function waitFor(dir: string): Promise<Written> {
  const started = Date.now();
  for (;;) {
    if (existsSync(join(dir, 'setup.json')))
      return JSON.parse(readFileSync(join(dir, 'setup.json'), 'utf8')) as Written;
    if (existsSync(join(dir, 'failed.json')))
      throw new Error(
        `the part that made the suite's set-up in ${dir} failed: ${readFileSync(join(dir, 'failed.json'), 'utf8')}`,
      );
    if (Date.now() - started > WAIT_MS) throw new Error(`no set-up in ${dir} after ${WAIT_MS / 60_000} minutes`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

function writeAtomically(path: string, value: unknown): void {
  writeFileSync(`${path}.tmp`, JSON.stringify(value));
  renameSync(`${path}.tmp`, path);
}
