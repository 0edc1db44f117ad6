/**
 * perf/index: the repository index on sympy (copied from python3's site-packages): cold build
 * (where its time goes), warm load from the cache, each search tool's first call in a fresh
 * session and its median over varied arguments, and peak memory. Measure on a quiet machine: the
 * load average is printed first.
 *
 *   npx tsx perf/index.ts [--repo DIR] [--runs N] [--workers N]
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyInstalledPackage, optionReader } from './common';
import { buildIndex } from '../source/engine/index/build-index';
import { CALL_FIELDS } from '../source/engine/index/calls';
import { callTool } from '../source/engine/tools/call-tool';
import type { ToolContext } from '../source/engine/tools/context';
import { prepareTarget } from '../source/engine/task/prepare-target';
import { resolveTarget } from '../source/engine/task/resolve-target';
import { warmUpSteps } from '../source/engine/tools/warm-up';

const argv = process.argv.slice(2);
const option = optionReader(argv);
const runs = Number(option('--runs') ?? 3);
const workers = option('--workers') ? Number(option('--workers')) : undefined;
const scratch = mkdtempSync(join(tmpdir(), 'tenet-perf-index-'));
let repo = option('--repo');
if (!repo) {
  repo = copyInstalledPackage('sympy', { into: join(scratch, 'repo'), skipBytecode: true }).repo;
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(value < 10 ? 1 : 0)} ms`;
const cpuSeconds = () => {
  const usage = process.cpuUsage();
  return (usage.user + usage.system) / 1e6;
};

/** Varied arguments per tool: names of different kinds and sizes, so the median is not one lucky case. */
const CALLS: Record<string, Record<string, unknown>[]> = {
  search_class: ['Rational', 'Integer', 'Matrix', 'Symbol', 'Poly', 'FiniteSet', 'Derivative'].map((class_name) => ({
    class_name,
  })),
  search_class_in_file: [
    ['Integer', 'sympy/core/numbers.py'],
    ['Symbol', 'sympy/core/symbol.py'],
    ['Poly', 'sympy/polys/polytools.py'],
    ['Interval', 'sympy/sets/sets.py'],
    ['Derivative', 'sympy/core/function.py'],
  ].map(([class_name, file_name]) => ({ class_name, file_name })),
  search_method: ['igcd', 'simplify', 'doit', 'subs', 'expand', 'is_zero', 'factor_list'].map((method_name) => ({
    method_name,
  })),
  search_method_in_class: [
    ['__add__', 'Rational'],
    ['doit', 'Derivative'],
    ['degree', 'Poly'],
    ['inv', 'MatrixBase'],
    ['_eval_subs', 'Pow'],
  ].map(([method_name, class_name]) => ({ method_name, class_name })),
  search_method_in_file: [
    ['igcd', 'sympy/core/intfunc.py'],
    ['simplify', 'sympy/simplify/simplify.py'],
    ['degree', 'sympy/polys/polytools.py'],
    ['_eval_subs', 'sympy/core/power.py'],
    ['solve', 'sympy/solvers/solvers.py'],
  ].map(([method_name, file_name]) => ({ method_name, file_name })),
  search_code: [
    'igcd_lehmer(',
    'def _eval_is_zero',
    'raise NotImplementedError',
    'from sympy.core.cache import cacheit',
    'self.args[0]',
  ].map((code_str) => ({ code_str })),
  search_code_in_file: [
    ['def __add__', 'sympy/core/numbers.py'],
    ['return self', 'sympy/core/expr.py'],
    ['cacheit', 'sympy/core/function.py'],
    ['Poly(', 'sympy/polys/polytools.py'],
    ['raise ValueError', 'sympy/sets/sets.py'],
  ].map(([code_str, file_name]) => ({ code_str, file_name })),
  get_code_around_line: [
    ['sympy/core/numbers.py', 400],
    ['sympy/core/expr.py', 1200],
    ['sympy/polys/polytools.py', 3000],
    ['sympy/sets/sets.py', 50],
    ['sympy/core/function.py', 900],
  ].map(([file_name, line_number]) => ({ file_name, line_number, window_size: 10 })),
  search_import_statement: [
    'sympy/core/numbers.py',
    'sympy/polys/polytools.py',
    'sympy/simplify/simplify.py',
    'sympy/sets/sets.py',
    'sympy/core/expr.py',
  ].map((file_name) => ({ file_name })),
  read_file: [
    'sympy/core/numbers.py',
    'sympy/polys/polytools.py',
    'sympy/simplify/simplify.py',
    'sympy/sets/sets.py',
    'sympy/core/expr.py',
  ].map((file_name) => ({ file_name, start_line: 100, end_line: 160 })),
};
/** The two tools that depend on the target: varied by target instead. */
const TARGETS = [
  'sympy/core/intfunc.py::igcd_lehmer',
  'sympy/simplify/simplify.py::separatevars',
  'sympy/polys/polytools.py::Poly.degree',
  'sympy/core/numbers.py::Rational.__add__',
  'sympy/sets/sets.py::Set.contains',
  'sympy/core/function.py::diff',
];

try {
  console.log(
    `load average ${loadavg()
      .map((l) => l.toFixed(2))
      .join(' ')} on ${availableParallelism()} cores (measure when it is low)`,
  );
  const cacheFile = join(scratch, 'index.bin');
  const cold: number[] = [];
  let phases = '';
  for (let i = 0; i < runs; i++) {
    rmSync(cacheFile, { force: true });
    const started = performance.now();
    const cpu = cpuSeconds();
    const { stats } = await buildIndex(repo, { cacheFile, ...(workers ? { workers } : {}) });
    cold.push(performance.now() - started);
    phases = `${Object.entries(stats.phases)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')} ms; main-thread CPU ${(cpuSeconds() - cpu).toFixed(1)} s`;
  }
  const peakCold = process.resourceUsage().maxRSS / 1024;
  const warm: number[] = [];
  let built!: Awaited<ReturnType<typeof buildIndex>>;
  for (let i = 0; i < runs + 2; i++) {
    const started = performance.now();
    built = await buildIndex(repo, { cacheFile });
    warm.push(performance.now() - started);
  }
  const { index, stats } = built;
  const calls = index.files.reduce((n, f) => n + f.calls.data.length / CALL_FIELDS, 0);
  console.log(`repo ${repo}: ${stats.files} files, ${index.allFunctions().length} functions, ${calls} call sites`);
  console.log(
    `cold build   median ${ms(median(cold))}  (runs ${cold.map((c) => c.toFixed(0)).join(', ')}; last: ${phases})`,
  );
  console.log(
    `warm load    median ${ms(median(warm))}  (${stats.fromCache} files from the cache; ${Object.entries(stats.phases)
      .map(([k, v]) => `${k} ${v}`)
      .join(', ')} ms)`,
  );

  if (!argv.includes('--repo')) {
    const targets = await Promise.all(
      TARGETS.map(async (spec) => prepareTarget(await resolveTarget(repo!, spec), 'stub')),
    );
    const jobs: [string, Record<string, unknown>, number][] = [
      ...Object.entries(CALLS).flatMap(([name, list]) =>
        list.map((args): [string, Record<string, unknown>, number] => [name, args, 0]),
      ),
      ...['search_similar_method', 'search_target_usage'].flatMap((name) =>
        targets.map((_, t): [string, Record<string, unknown>, number] => [name, { n: 5 }, t]),
      ),
    ];
    const all: number[] = [];
    const firsts: number[] = [];
    console.log('tool                        first call   median (varied)  calls');
    for (const name of [...Object.keys(CALLS), 'search_similar_method', 'search_target_usage']) {
      // The first call of a session: a fresh index from the cache, nothing looked up yet.
      const fresh = (await buildIndex(repo, { cacheFile })).index;
      const mine = jobs.filter(([n]) => n === name);
      const times: number[] = [];
      for (const [i, [, args, t]] of mine.entries()) {
        const ctx = { index: fresh, target: targets[t]!, workspace: { root: repo } } as unknown as ToolContext;
        const started = performance.now();
        const outcome = await callTool(name, args, ctx);
        const took = performance.now() - started;
        if (!outcome.ok) throw new Error(`${name} ${JSON.stringify(args)}: ${outcome.text}`);
        if (i === 0) firsts.push(took);
        else times.push(took);
      }
      // Every argument once more, now that the session is warm.
      for (const [, args, t] of mine) {
        const ctx = { index: fresh, target: targets[t]!, workspace: { root: repo } } as unknown as ToolContext;
        const started = performance.now();
        await callTool(name, args, ctx);
        times.push(performance.now() - started);
      }
      all.push(...times);
      console.log(
        `  ${name.padEnd(24)} ${ms(firsts.at(-1)!).padStart(10)}   ${ms(median(times)).padStart(10)}      ${times.length + 1}`,
      );
    }
    console.log(
      `search       median ${ms(median(all))} over ${all.length} calls; first calls: median ${ms(median(firsts))}, worst ${ms(Math.max(...firsts))}`,
    );
    // A session warms the lookups up in the background while the model thinks (see tools/warm-up.ts).
    const session = (await buildIndex(repo, { cacheFile })).index;
    const ctx = { index: session, target: targets[0]!, workspace: { root: repo } } as unknown as ToolContext;
    let started = performance.now();
    for (const step of warmUpSteps(ctx)) step();
    const warmUp = performance.now() - started;
    const afterWarmUp: [string, number][] = [];
    for (const name of [...Object.keys(CALLS), 'search_similar_method', 'search_target_usage']) {
      const [, args] = jobs.find(([n]) => n === name)!;
      started = performance.now();
      await callTool(name, args, ctx);
      afterWarmUp.push([name, performance.now() - started]);
    }
    const worst = afterWarmUp.reduce((a, b) => (b[1] > a[1] ? b : a));
    console.log(
      `after the session's background warm-up (${ms(warmUp)}, once): first calls median ${ms(median(afterWarmUp.map(([, t]) => t)))}, worst ${ms(worst[1])} (${worst[0]})`,
    );
  }
  console.log(
    `peak memory  ${peakCold.toFixed(0)} MB during the cold builds, ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB at the end (resident, this process and its worker threads; the end holds this script's extra indexes)`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
