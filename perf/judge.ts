/**
 * perf/judge: what tenet's judge (source/python/_tenet_judge/: the audit hook, the signed
 * channel, the harness check after each test) adds to an evaluation. The same pytest run of a
 * target's failing tests, in the same sandbox (bubblewrap), with and without the judge,
 * interleaved in pairs after one warm-up each; medians. Goal: at most 1.05×.
 *
 *   npm run perf:judge [-- --runs N]
 */
import { join } from 'node:path';
import { pythonEnv } from '../source/engine/python-source/pytest-env';
import { openTask, type OpenTask } from '../source/engine/task/open-task';
import { runPytestPass } from '../source/engine/thm/pytest-pass';
import { openJudge } from '../source/engine/tools/judge';
import { copyInstalledPackage, optionReader } from './common';

const option = optionReader(process.argv.slice(2));
const runs = Number(option('--runs') ?? 7);
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Case {
  name: string;
  repo: () => { repo: string; cleanup: () => void };
  target: string;
  /** The tests the evaluation runs (its scope, as pytest arguments). */
  tests: string[];
}

const fixture = (name: string) => () => ({
  repo: join(import.meta.dirname, '..', 'test', 'fixtures', name),
  cleanup: () => undefined,
});
const cases: Case[] = [
  {
    name: 'shop (4 unittest tests)',
    repo: fixture('shop'),
    target: 'shop/cart.py::Cart.total',
    tests: ['tests/test_cart.py'],
  },
  {
    name: 'jsonschema (484 tests)',
    repo: () => copyInstalledPackage('jsonschema', { preserveTimestamps: true, skipBytecode: true }),
    target: 'jsonschema/validators.py::validates',
    tests: ['jsonschema/tests'],
  },
  {
    name: 'sympy printing (test_str.py)',
    repo: () => copyInstalledPackage('sympy', { preserveTimestamps: true, skipBytecode: true }),
    target: 'sympy/printing/str.py::StrPrinter._print_Add',
    tests: ['sympy/printing/tests/test_str.py'],
  },
];

async function pass(task: OpenTask, tests: string[], judged: boolean): Promise<number> {
  const judge = judged
    ? await openJudge({ workspace: task.workspace, sandbox: task.sandbox, target: task.target }, 'perf')
    : undefined;
  const started = performance.now();
  const result = await runPytestPass({
    sandbox: task.sandbox,
    workspace: task.workspace,
    python: task.python.executable,
    env: {
      ...pythonEnv(task.sandbox, task.workspace.root, task.target.file),
      TENET_ROOT: task.sandbox.workdir,
      TENET_TARGET_FILE: join(task.sandbox.workdir, task.target.file),
    },
    testArgs: tests,
    shards: 1,
    testTimeoutSec: 120,
    label: judged ? 'judged' : 'plain',
    mode: 'record',
    ...(judge ? { judge } : {}),
  });
  if (result.tripped.length || result.forged)
    throw new Error(`the judge tripped on the original code: ${JSON.stringify(result.tripped[0] ?? result.forged)}`);
  return performance.now() - started;
}

console.log(
  `medians over ${runs} interleaved pairs, after one warm-up each; the target's original code, confined by bubblewrap`,
);
console.log(`${'evaluation'.padEnd(36)} ${'plain'.padStart(10)} ${'judged'.padStart(10)}   ${'ratio'.padStart(6)}`);
for (const c of cases) {
  const { repo, cleanup } = c.repo();
  const task = await openTask({ repo, target: c.target, blank: false, session: 'perf' });
  try {
    await pass(task, c.tests, false);
    await pass(task, c.tests, true);
    const plain: number[] = [];
    const judged: number[] = [];
    for (let i = 0; i < runs; i++) {
      plain.push(await pass(task, c.tests, false));
      judged.push(await pass(task, c.tests, true));
    }
    const [p, j] = [median(plain), median(judged)];
    console.log(
      `${c.name.padEnd(36)} ${`${(p / 1000).toFixed(2)} s`.padStart(10)} ${`${(j / 1000).toFixed(2)} s`.padStart(10)}   ${(j / p).toFixed(2).padStart(5)}×`,
    );
  } finally {
    await task.dispose();
    cleanup();
  }
}
