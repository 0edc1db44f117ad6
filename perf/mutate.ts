/**
 * perf/mutate: how fast tenet makes mutants, and how fast it runs a test file against them on one
 * worker and on two. Generation covers every function of a few large real modules; the full runs
 * (baseline included) are interleaved and repeated (--reps, default 2), and the medians and their
 * ratio are printed. For scale, the same test file is first run with plain `python -m pytest`, one
 * process at a time and two side by side: what one mutant would cost without tenet's forking
 * worker, and how much two busy cores of this machine really give.
 *
 *   npx tsx perf/mutate.ts        # networkx (copied from python3's site-packages): bipartite color(),
 *                                  # its own tests/test_basic.py
 *   npx tsx perf/mutate.ts --repo DIR --target FILE::QUALNAME --tests FILE [--reps N] [--modules A.py,B.py]
 */
import { readFileSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { join } from 'node:path';
import { copyInstalledPackage, optionReader } from './common';
import { listDefinitions } from '../source/engine/python-source/definitions';
import { parsePython } from '../source/engine/python-source/parser';
import { generateMutants } from '../source/engine/quality/mutants';
import { runMutation } from '../source/engine/quality/mutation';
import { pythonEnv } from '../source/engine/python-source/pytest-env';
import { openTask, type OpenTask } from '../source/engine/task/open-task';

const argv = process.argv.slice(2);
const option = optionReader(argv);

let repo = option('--repo');
let target = option('--target');
let tests = option('--tests');
let modules = option('--modules')?.split(',');
let cleanup: () => void = () => {};
if (!repo) {
  ({ repo, cleanup } = copyInstalledPackage('networkx', { preserveTimestamps: true }));
  target ??= 'networkx/algorithms/bipartite/basic.py::color';
  tests ??= 'networkx/algorithms/bipartite/tests/test_basic.py';
  modules ??= [
    'algorithms/dag.py',
    'classes/graph.py',
    'algorithms/shortest_paths/weighted.py',
    'algorithms/cycles.py',
    'readwrite/gml.py',
  ].map((m) => `networkx/${m}`);
}
if (!target || !tests) throw new Error('--target and --tests are required with --repo');
const reps = Number(option('--reps') ?? 2);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function generation(): Promise<void> {
  const files = (modules ?? [target!.split('::')[0]!]).map((m) => ({
    name: m,
    text: readFileSync(join(repo!, m), 'utf8'),
  }));
  const functions = await Promise.all(
    files.map(async (f) => {
      const tree = await parsePython(f.text);
      const defs = listDefinitions(tree)
        .filter((d) => d.kind === 'function')
        .map((d) => ({ qualname: d.qualname, startLine: d.startLine }));
      tree.delete();
      return defs.map((d) => ({ ...d, text: f.text }));
    }),
  );
  const all = functions.flat();
  await generateMutants(all[0]!.text, all[0]!); // warm: the grammar loads once per process
  const started = process.hrtime.bigint();
  let count = 0;
  for (const fn of all) count += (await generateMutants(fn.text, fn, { max: Infinity })).length;
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const lines = files.reduce((n, f) => n + f.text.split('\n').length, 0);
  console.log(
    `generation  ${files.length} modules (${lines} lines), ${all.length} functions, ${count} mutants in ${seconds.toFixed(2)} s`,
  );
  console.log(
    `            ${(count / seconds).toFixed(0)} mutants/s · ${(all.length / seconds).toFixed(0)} functions/s (every mutant parse-checked)\n`,
  );
}

/** Plain pytest on the test file: `runs` one after the other, then the same number in two lanes. */
async function plainPytest(task: OpenTask, runs: number): Promise<void> {
  const env = pythonEnv(task.sandbox, task.workspace.root, task.target.file);
  const once = () =>
    task.sandbox.run(
      [task.python.executable, '-m', 'pytest', tests!, '-q', '-x', '--tb=no', '-p', 'no:cacheprovider'],
      { env },
    );
  const lane = async (n: number) => {
    for (let i = 0; i < n; i++) await once();
  };
  let started = Date.now();
  await lane(runs);
  const serial = (Date.now() - started) / 1000;
  started = Date.now();
  await Promise.all([lane(runs / 2), lane(runs / 2)]);
  const parallel = (Date.now() - started) / 1000;
  console.log(
    `plain pytest  ${(serial / runs).toFixed(2)} s per run (a fresh interpreter each) · ${runs} runs ${serial.toFixed(1)} s one at a time, ${parallel.toFixed(1)} s two side by side: ${(serial / parallel).toFixed(2)}× from the second core\n`,
  );
}

async function fullRuns(): Promise<void> {
  const task = await openTask({ repo: repo!, target: target!, blank: false });
  try {
    await plainPytest(task, 8);
    const mutants = await generateMutants(task.target.originalText, {
      qualname: task.target.qualname,
      startLine: task.target.startLine,
    });
    const run = async (jobs: number) => {
      const started = Date.now();
      const report = await runMutation({
        sandbox: task.sandbox,
        workspaceRoot: task.workspace.root,
        python: task.python.executable,
        target: { file: task.target.file, encoding: task.target.source.encoding },
        testFile: tests!,
        mutants,
        jobs,
      });
      return { seconds: (Date.now() - started) / 1000, report };
    };
    console.log(
      `full runs   ${task.target.id} · ${tests} · ${mutants.length} mutants · ${availableParallelism()} cores · ${reps} interleaved runs each`,
    );
    const times: Record<number, number[]> = { 1: [], 2: [] };
    let last: Awaited<ReturnType<typeof run>>['report'] | undefined;
    for (let rep = 0; rep < reps; rep++) {
      for (const jobs of [1, 2]) {
        const { seconds, report } = await run(jobs);
        times[jobs]!.push(seconds);
        last = report;
      }
    }
    const r = last!;
    console.log(
      `            score ${(100 * r.score).toFixed(1)} % (${r.killed} killed, ${r.timedOut} timed out, ${r.survived} survived) · baseline ${(r.baseline.durationMs / 1000).toFixed(2)} s`,
    );
    for (const jobs of [1, 2]) {
      const m = median(times[jobs]!);
      console.log(
        `  jobs=${jobs}   median ${m.toFixed(2).padStart(6)} s   ${(mutants.length / m).toFixed(2)} mutants/s   ${((1000 * m) / mutants.length).toFixed(0)} ms/mutant   runs ${times[jobs]!.map((t) => t.toFixed(1)).join(', ')}`,
      );
    }
    console.log(`  speed-up jobs=2 / jobs=1: ${(median(times[1]!) / median(times[2]!)).toFixed(2)}×`);
  } finally {
    await task.dispose();
  }
}

try {
  console.log(`repo ${repo}\n`);
  await generation();
  await fullRuns();
} finally {
  cleanup();
}
