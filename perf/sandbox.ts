/**
 * perf/sandbox: what running in a Docker container costs per operation, against the local
 * sandbox in the same run: opening the task (copy, container, upload), one exec round trip, a
 * pytest run of a fixture's test file, and one pdb command in a live debugger session.
 *
 *   npm run perf:sandbox [-- --runs N]
 */
import { join } from 'node:path';
import { LOCAL, type SandboxSpec } from '../source/engine/sandbox/create-sandbox';
import { containerLimits } from '../source/engine/sandbox/docker/limits';
import { DEFAULT_IMAGE } from '../source/engine/sandbox/docker/names';
import { pythonEnv } from '../source/engine/python-source/pytest-env';
import { openTask } from '../source/engine/task/open-task';
import { DebuggerSession } from '../source/engine/tools/debugger/session';

const argv = process.argv.slice(2);
const runs = argv.includes('--runs') ? Number(argv[argv.indexOf('--runs') + 1]) : 20;
const repo = join(import.meta.dirname, '..', 'test', 'fixtures', 'shop');
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

async function measure(spec: SandboxSpec) {
  const open = await time(
    async () =>
      (
        await openTask({
          repo,
          target: 'shop/pricing.py::apply_discount',
          blank: true,
          sandbox: spec,
          session: 'bench',
        })
      ).dispose(),
    Math.max(3, Math.floor(runs / 4)),
  );
  const task = await openTask({
    repo,
    target: 'shop/pricing.py::apply_discount',
    blank: true,
    sandbox: spec,
    session: 'bench',
  });
  try {
    const env = pythonEnv(task.sandbox, task.workspace.root, task.target.file);
    const exec = await time(() => task.sandbox.run(['true']), runs);
    const pytest = await time(
      () =>
        task.sandbox.run(
          [task.python.executable, '-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests/test_pricing.py'],
          { env },
        ),
      Math.max(5, Math.floor(runs / 2)),
    );
    const session = new DebuggerSession(task.sandbox, { env, timeoutMs: 20_000, maxOutput: 12_000 });
    await session.run(
      `${task.python.executable} -m pytest -q -p no:cacheprovider --trace tests/test_pricing.py::test_apply_discount_basic`,
    );
    const pdb = await time(() => session.run('p 6 * 7'), runs);
    session.close();
    return { open, exec, pytest, pdb };
  } finally {
    await task.dispose();
  }
}

const local = await measure(LOCAL);
const docker = await measure({ kind: 'docker', image: DEFAULT_IMAGE, limits: containerLimits() });
const row = (name: string, l: number, d: number) =>
  console.log(
    `${name.padEnd(34)} ${l.toFixed(1).padStart(8)} ms ${d.toFixed(1).padStart(8)} ms   ${(d / l).toFixed(2).padStart(6)}×   +${(d - l).toFixed(1)} ms`,
  );
console.log(`medians over ${runs} runs (the shop fixture; Docker: ${DEFAULT_IMAGE})`);
console.log(
  `${'operation'.padEnd(34)} ${'local'.padStart(11)} ${'docker'.padStart(11)}   ${'ratio'.padStart(7)}   overhead`,
);
row('open the task (copy, container)', local.open, docker.open);
row('exec round trip (true)', local.exec, docker.exec);
row('pytest tests/test_pricing.py', local.pytest, docker.pytest);
row('one pdb command (p 6 * 7)', local.pdb, docker.pdb);
