/**
 * perf/confinement: what bubblewrap (the local sandbox's default) costs against
 * `--sandbox local-unconfined`: one exec round trip, a THM run, and a pytest run of the target's
 * tests as the validation and the evaluation run them, on the demo repository and on toolz (a real
 * suite of about a thousand tests, when /tmp/repos/toolz is there).
 *
 *   npm run perf:confinement [-- --runs N]
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import type { SandboxSpec } from '../source/engine/sandbox/create-sandbox';
import { pythonEnv } from '../source/engine/python-source/pytest-env';
import { openTask } from '../source/engine/task/open-task';
import { runThm, THM_DEFAULTS } from '../source/engine/thm/run-thm';

const argv = process.argv.slice(2);
const runs = argv.includes('--runs') ? Number(argv[argv.indexOf('--runs') + 1]) : 5;
const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

async function time(fn: () => Promise<unknown>, n: number): Promise<number> {
  const samples: number[] = [];
  for (let i = 0; i < n; i++) {
    const started = performance.now();
    await fn();
    samples.push(performance.now() - started);
  }
  return median(samples);
}

interface Case {
  name: string;
  repo: string;
  target: string;
  /** The tests a validation runs. */
  tests: string;
}

const cases: Case[] = [
  {
    name: 'demo (invoicing)',
    repo: join(import.meta.dirname, '..', 'examples', 'invoicing'),
    target: 'invoicing/tax.py::tax_for',
    tests: 'tests',
  },
  ...(existsSync('/tmp/repos/toolz')
    ? [
        {
          name: 'toolz',
          repo: '/tmp/repos/toolz',
          target: 'toolz/itertoolz.py::frequencies',
          tests: 'toolz/tests/test_itertoolz.py',
        },
      ]
    : []),
];

async function measure(c: Case, spec: SandboxSpec) {
  const task = await openTask({ repo: c.repo, target: c.target, blank: true, sandbox: spec, session: 'perf' });
  try {
    const env = pythonEnv(task.sandbox, task.workspace.root, task.target.file);
    const exec = await time(() => task.sandbox.run(['true']), runs * 4);
    const thm = await time(() => runThm(task, { ...THM_DEFAULTS, testArgs: [] }), runs);
    const validate = await time(
      () =>
        task.sandbox.run([task.python.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', c.tests], { env }),
      runs,
    );
    return { exec, thm, validate };
  } finally {
    await task.dispose();
  }
}

const row = (name: string, u: number, c: number) =>
  console.log(
    `${name.padEnd(40)} ${u.toFixed(1).padStart(9)} ms ${c.toFixed(1).padStart(9)} ms   ${(c / u).toFixed(2).padStart(6)}×   ${c - u >= 0 ? '+' : ''}${(c - u).toFixed(1)} ms`,
  );
console.log(
  `medians over ${runs} runs (exec: ${runs * 4}); unconfined = --sandbox local-unconfined, confined = bubblewrap`,
);
console.log(
  `${'operation'.padEnd(40)} ${'unconfined'.padStart(12)} ${'confined'.padStart(12)}   ${'ratio'.padStart(7)}   overhead`,
);
for (const c of cases) {
  const unconfined = await measure(c, { kind: 'local', unconfined: true });
  const confined = await measure(c, { kind: 'local' });
  row(`${c.name}: exec round trip (true)`, unconfined.exec, confined.exec);
  row(`${c.name}: THM`, unconfined.thm, confined.thm);
  row(`${c.name}: pytest ${c.tests}`, unconfined.validate, confined.validate);
}
