/**
 * perf/eval-lanes: the final evaluation in one process against the same evaluation in lanes
 * (issue 44, item 6), on a real suite: a copy of networkx from python3's site-packages, the target's
 * original code judged on every test of a scope (default networkx/generators, about 620 tests).
 * Each evaluation is the real one (evaluatePristine: a fresh copy of the checkout per lane, the
 * judge in each, confined by bubblewrap); one warm-up each, then interleaved pairs; medians. Every
 * pair must agree test for test, or the script says where and exits 1. The machine's load average
 * is printed before and after: on a shared machine it moves the figures.
 *
 *   npm run perf:eval-lanes [-- --runs N] [--jobs N] [--scope networkx/generators]
 */
import { execFileSync } from 'node:child_process';
import { loadavg } from 'node:os';
import { evaluatePristine, lookAtCheckout } from '../source/engine/eval/pristine-evaluation';
import type { TestRun } from '../source/engine/events';
import { openTask } from '../source/engine/task/open-task';
import { judgedLanes } from '../source/engine/thm/thm-options';
import { copyInstalledPackage, optionReader } from './common';

const option = optionReader(process.argv.slice(2));
const runs = Number(option('--runs') ?? 3);
const scope = option('--scope') ?? 'networkx/generators';
const jobs = option('--jobs') ? Number(option('--jobs')) : ('auto' as const);
const target = option('--target') ?? 'networkx/generators/classic.py::path_graph';
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const load = () =>
  loadavg()
    .map((l) => l.toFixed(2))
    .join(' ');

const { repo, cleanup } = copyInstalledPackage('networkx', { preserveTimestamps: true, skipBytecode: true });
const task = await openTask({ repo, target, blank: false, session: 'perf-eval-lanes' });
try {
  const tests = execFileSync('python3', ['-m', 'pytest', '--collect-only', '-q', '-p', 'no:cacheprovider', scope], {
    cwd: repo,
    encoding: 'utf8',
    env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
  })
    .split('\n')
    .filter((line) => line.includes('::'));
  const lanes = judgedLanes(jobs, tests.length);
  const checkoutAtStart = await lookAtCheckout(task);
  const evaluate = async (count: number): Promise<{ ms: number; run: TestRun }> => {
    const started = performance.now();
    const judged = await evaluatePristine({
      task,
      moduleText: task.target.originalText,
      tests,
      testArgs: [],
      testTimeoutSec: 60,
      jobs: count,
      session: 'perf-eval-lanes',
      checkoutAtStart,
    });
    if (!('run' in judged)) throw new Error(`the evaluation was unverified: ${judged.unverified}`);
    return { ms: performance.now() - started, run: judged.run };
  };
  const disagreements = (a: TestRun, b: TestRun) =>
    Object.keys({ ...a.outcomes, ...b.outcomes }).filter((id) => a.outcomes[id] !== b.outcomes[id]);

  console.log(`${scope}: ${tests.length} tests, target ${target}; load average before: ${load()}`);
  console.log(`medians over ${runs} interleaved pairs after one warm-up each; bubblewrap, the judge in every lane`);
  await evaluate(1);
  await evaluate(lanes);
  const one: number[] = [];
  const many: number[] = [];
  let passed = '';
  for (let i = 0; i < runs; i++) {
    const a = await evaluate(1);
    const b = await evaluate(lanes);
    const differ = disagreements(a.run, b.run);
    if (differ.length) {
      console.error(
        `one process and ${lanes} lanes disagree on ${differ.length} tests: ${differ.slice(0, 5).join(', ')}`,
      );
      process.exitCode = 1;
    }
    one.push(a.ms);
    many.push(b.ms);
    passed = `${a.run.passed}/${a.run.total} passed in both`;
  }
  const [o, m] = [median(one), median(many)];
  const width = Math.max(24, scope.length);
  console.log(
    `${'evaluation'.padEnd(width)} ${'one lane'.padStart(10)} ${`${lanes} lanes`.padStart(10)}   ${'ratio'.padStart(6)}`,
  );
  console.log(
    `${scope.padEnd(width)} ${`${(o / 1000).toFixed(1)} s`.padStart(10)} ${`${(m / 1000).toFixed(1)} s`.padStart(10)}   ${(m / o).toFixed(2).padStart(5)}×`,
  );
  console.log(`${passed}; load average after: ${load()}`);
} finally {
  await task.dispose();
  cleanup();
}
