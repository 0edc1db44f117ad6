/**
 * perf/make: what `tenet bench make` costs on a real repository, and where the time goes. The
 * reach pass (a probe in every candidate) is compared with the same scope run by plain pytest (one process each,
 * interleaved, --reps times, medians and their ratio), then whole `makeTasks` runs are timed
 * (scan, reach stage, and each candidate's THM run): with its own reach pass (`--no-reach`), then
 * twice with the reach index, which the first records and the second reads as kept (a cache
 * folder of its own, so the first finds none).
 *
 *   npx tsx perf/make.ts        # networkx (copied from python3's site-packages), scope networkx/algorithms
 *   npx tsx perf/make.ts --repo DIR --scope PYTEST_PATH [--count N] [--reps N]
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyInstalledPackage, optionReader } from './common';
import { scanFunctions } from '../source/engine/bench/make-functions';
import { runReachPass } from '../source/engine/bench/make-reach';
import { makeTasks } from '../source/engine/bench/make-tasks';

const argv = process.argv.slice(2);
const option = optionReader(argv);

let repo = option('--repo');
let cleanup: () => void = () => {};
if (!repo) ({ repo, cleanup } = copyInstalledPackage('networkx', { preserveTimestamps: true }));
const scope = option('--scope') ?? 'networkx/algorithms';
const reps = Number(option('--reps') ?? 2);
const count = Number(option('--count') ?? 5);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const s = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

async function main(): Promise<void> {
  const scanStarted = Date.now();
  const scan = await scanFunctions(repo!);
  console.log(
    `scan: ${scan.functions} functions in ${scan.files} modules, ${scan.eligible.length} eligible, ${s(Date.now() - scanStarted)}`,
  );

  const plain: number[] = [];
  const reached: number[] = [];
  let tests = 0;
  for (let rep = 0; rep < reps; rep++) {
    let started = Date.now();
    // What the scope costs without probes, in one process, with the same plugins tenet disables.
    try {
      execFileSync('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', '-x', '--no-header', scope], {
        cwd: repo,
        stdio: 'ignore',
      });
    } catch {
      // A failing test does not matter here: only the time does.
    }
    plain.push(Date.now() - started);
    started = Date.now();
    const reach = await runReachPass({
      repoDir: repo!,
      functions: scan.eligible,
      testArgs: [scope],
      jobs: 1,
      testTimeoutSec: 300,
    });
    reached.push(Date.now() - started);
    tests = reach.tests;
    console.log(
      `  rep ${rep + 1}: plain pytest ${s(plain.at(-1)!)}, reach pass ${s(reached.at(-1)!)} (${reach.tests} tests, ${reach.reachedBy.size} functions reached)`,
    );
  }
  console.log(
    `reach pass over ${scope} (${tests} tests, one process): median ${s(median(reached))} vs plain pytest ${s(median(plain))}: ${(median(reached) / median(plain)).toFixed(2)}×`,
  );

  const cache = mkdtempSync(join(tmpdir(), 'tenet-perf-make-'));
  process.env.TENET_CACHE_DIR = cache;
  try {
    for (const [label, reach] of [
      ['its own reach pass (--no-reach)', false],
      ['the reach index, none yet', true],
      ['the reach index, kept', true],
    ] as const)
      await timedMake(label, reach);
  } finally {
    rmSync(cache, { recursive: true, force: true });
  }
}

/** One whole makeTasks run, and how long its reach stage and THM runs took. */
async function timedMake(label: string, reach: boolean): Promise<void> {
  const thm: number[] = [];
  let reachMs = 0;
  let how = '';
  const summary = await makeTasks({
    repo: repo!,
    testArgs: [scope],
    count,
    minFailing: 1,
    seed: 0,
    reach,
    emit: (event) => {
      if (event.type === 'reach.done') reachMs = event.durationMs;
      if (event.type === 'reach.index') how = `, index ${event.how}`;
      if (event.type === 'thm.done') thm.push(event.durationMs);
    },
    onTask: () => undefined,
  });
  console.log(
    `makeTasks --count ${count} with ${label}: ${summary.tasks} tasks in ${s(summary.durationMs)}: reach stage ${s(reachMs)}${how}, ${thm.length} THM runs, median ${s(median(thm))}, longest ${s(Math.max(...thm))}`,
  );
}

main()
  .catch((error) => {
    console.error(error);
    process.exitCode = 1;
  })
  .finally(cleanup);
