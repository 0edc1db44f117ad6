/**
 * perf/thm: wall time of a plain pytest run of a real suite against `tenet thm` on the same scope,
 * on one core (--jobs 1, fork and two-pass) and sharded over the machine's cores (--jobs auto).
 * Runs are interleaved and repeated (--reps, default 3); the medians and their ratios are printed,
 * because a 2-core machine's timings wander by ±10 % from one run to the next.
 *
 *   npx tsx perf/thm.ts                      # networkx (from python3's site-packages), a mid-size scope
 *   npx tsx perf/thm.ts --full               # the whole networkx suite (about 2 minutes per run)
 *   npx tsx perf/thm.ts --repo DIR --target FILE::QUALNAME [--reps N] [--tests ARGS...]
 */
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { copyInstalledPackage, optionReader } from './common';

const argv = process.argv.slice(2);
const testsAt = argv.indexOf('--tests');
const own = testsAt === -1 ? argv : argv.slice(0, testsAt);
const option = optionReader(own);
const cli = join(import.meta.dirname, '..', 'dist', 'tenet.js');

let repo = option('--repo');
let target = option('--target');
let tests = testsAt === -1 ? undefined : argv.slice(testsAt + 1);
let cleanup = () => undefined as void;
if (!repo) {
  ({ repo, cleanup } = copyInstalledPackage('networkx'));
  target ??= 'networkx/classes/function.py::density';
  tests ??= own.includes('--full') ? ['networkx'] : ['networkx/algorithms/minors', 'networkx/algorithms/approximation', 'networkx/classes', 'networkx/algorithms/connectivity'];
}
if (!target) throw new Error('--target is required with --repo');
tests ??= [];

function timed(label: string, command: string, args: string[], cwd: string): number {
  const started = process.hrtime.bigint();
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30, env: { ...process.env, PYTHONPATH: repo } });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0 && result.status !== 1) throw new Error(`${label} failed (${result.status}):\n${result.stderr.slice(-2000)}`);
  return seconds;
}

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const reps = Number(option('--reps') ?? 3);
const thmArgs = (...extra: string[]) => [cli, 'thm', '--repo', repo!, '--target', target!, '--blank', '--json', ...extra, '--tests', ...tests!];
const configs: [string, string, string[]][] = [
  // What a developer runs: pytest with its defaults on the same scope.
  ['plain pytest', 'python3', ['-m', 'pytest', '-q', ...tests]],
  ['tenet thm --jobs 1 (fork)', process.execPath, thmArgs('--jobs', '1')],
  ['tenet thm --jobs 1 --no-fork', process.execPath, thmArgs('--jobs', '1', '--no-fork')],
  ['tenet thm --jobs auto (fork)', process.execPath, thmArgs('--jobs', 'auto')],
];

try {
  console.log(`repo ${repo}\ntarget ${target}\nscope ${tests.join(' ') || '(pytest configuration)'}\ncores ${availableParallelism()}, ${reps} interleaved runs each\n`);
  const times = configs.map(() => [] as number[]);
  for (let rep = 0; rep < reps; rep++) {
    configs.forEach(([label, command, args], index) => times[index]!.push(timed(label, command, args, repo!)));
  }
  const medians = times.map(median);
  configs.forEach(([label], index) => {
    console.log(`${label.padEnd(32)} median ${medians[index]!.toFixed(2).padStart(7)} s   runs ${times[index]!.map((t) => t.toFixed(1)).join(', ')}`);
  });
  console.log('');
  configs.slice(1).forEach(([label], index) => console.log(`ratio ${label.padEnd(32)} / plain: ${(medians[index + 1]! / medians[0]!).toFixed(2)}`));
} finally {
  cleanup();
}
