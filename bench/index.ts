/**
 * bench/index: the repository index on sympy (copied from python3's site-packages): cold build,
 * warm load from the cache, the median time of each search tool, and peak memory.
 *
 *   npx tsx bench/index.ts [--repo DIR] [--runs N]
 */
import { execFileSync } from 'node:child_process';
import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildIndex } from '../source/engine/index/build-index';
import { callTool } from '../source/engine/tools/call-tool';
import type { ToolContext } from '../source/engine/tools/context';
import { resolveTarget } from '../source/engine/task/resolve-target';
import { prepareTarget } from '../source/engine/task/prepare-target';

const argv = process.argv.slice(2);
const option = (name: string) => (argv.includes(name) ? argv[argv.indexOf(name) + 1] : undefined);
const runs = Number(option('--runs') ?? 3);
const scratch = mkdtempSync(join(tmpdir(), 'tenet-bench-index-'));
let repo = option('--repo');
if (!repo) {
  const source = execFileSync('python3', ['-c', 'import sympy; print(sympy.__path__[0])'], { encoding: 'utf8' }).trim();
  repo = join(scratch, 'repo');
  cpSync(source, join(repo, 'sympy'), { recursive: true, filter: (path) => !path.includes('__pycache__') });
}
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
const ms = (value: number) => `${value.toFixed(value < 10 ? 2 : 0)} ms`;

try {
  const cacheFile = join(scratch, 'index.bin');
  const cold: number[] = [];
  for (let i = 0; i < runs; i++) {
    rmSync(cacheFile, { force: true });
    const started = performance.now();
    await buildIndex(repo, { cacheFile });
    cold.push(performance.now() - started);
  }
  const warm: number[] = [];
  let built!: Awaited<ReturnType<typeof buildIndex>>;
  for (let i = 0; i < runs + 2; i++) {
    const started = performance.now();
    built = await buildIndex(repo, { cacheFile });
    warm.push(performance.now() - started);
  }
  const { index, stats } = built;
  const functions = index.allFunctions().length;
  console.log(`repo ${repo}: ${stats.files} files, ${functions} functions; ${availableParallelism()} cores`);
  console.log(`cold build   median ${ms(median(cold))}  (runs ${cold.map((c) => c.toFixed(0)).join(', ')})`);
  console.log(`warm load    median ${ms(median(warm))}  (${stats.fromCache} files from the cache)`);

  const targetSpec = argv.includes('--repo') ? undefined : 'sympy/core/intfunc.py::igcd_lehmer';
  if (targetSpec) {
    const target = await prepareTarget(await resolveTarget(repo, targetSpec), 'stub');
    const ctx = { index, target } as unknown as ToolContext;
    const calls: [string, Record<string, unknown>][] = [
      ['search_class', { class_name: 'Rational' }],
      ['search_class_in_file', { class_name: 'Integer', file_name: 'sympy/core/numbers.py' }],
      ['search_method', { method_name: 'igcd' }],
      ['search_method_in_class', { method_name: '__add__', class_name: 'Rational' }],
      ['search_method_in_file', { method_name: 'igcd', file_name: 'sympy/core/intfunc.py' }],
      ['search_code', { code_str: 'igcd_lehmer(' }],
      ['search_code_in_file', { code_str: 'def __add__', file_name: 'sympy/core/numbers.py' }],
      ['get_code_around_line', { file_name: 'sympy/core/numbers.py', line_number: 400, window_size: 10 }],
      ['search_import_statement', { file_name: 'sympy/core/numbers.py' }],
      ['search_similar_method', { n: 3 }],
      ['search_target_usage', { n: 5 }],
    ];
    const all: number[] = [];
    for (const [name, args] of calls) {
      const times: number[] = [];
      for (let i = 0; i < 5; i++) {
        const started = performance.now();
        const outcome = await callTool(name, args, ctx);
        times.push(performance.now() - started);
        if (!outcome.ok) throw new Error(`${name}: ${outcome.text}`);
      }
      all.push(...times);
      console.log(`  ${name.padEnd(24)} median ${ms(median(times)).padStart(9)}  first ${ms(times[0]!)}`);
    }
    console.log(`search       median ${ms(median(all))} over ${all.length} calls`);
  }
  console.log(`peak memory  ${(process.resourceUsage().maxRSS / 1024).toFixed(0)} MB (resident, this process and its worker threads)`);
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
