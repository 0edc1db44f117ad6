/**
 * perf/swarm: the same three tasks (`bench make` over the shop fixture, the ground-truth script)
 * run locally and on a one-node swarm of this machine's engine, both at --parallel 2: wall time
 * side by side, and what the swarm run adds (the runner image, the run's image, a service per task).
 * Needs a Docker engine with tenet-python:bookworm; a swarm is made for it and left when the
 * engine was in none.
 *
 *   npm run perf:swarm
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

const root = join(import.meta.dirname, '..');
const cli = join(root, 'dist', 'tenet.js');
const scratch = mkdtempSync(join(tmpdir(), 'tenet-perf-swarm-'));
const shop = join(scratch, 'shop');
cpSync(join(root, 'test', 'fixtures', 'shop'), shop, { recursive: true });

function timed(args: string[]): { seconds: number; stdout: string } {
  const started = performance.now();
  const result = spawnSync(process.execPath, [cli, ...args], {
    encoding: 'utf8',
    env: { ...process.env, TENET_SESSIONS_DIR: join(scratch, 'sessions') },
  });
  if (result.status !== 0) throw new Error(`tenet ${args.join(' ')} failed (${result.status}): ${result.stderr}`);
  return { seconds: (performance.now() - started) / 1000, stdout: result.stdout };
}

const state = execFileSync('docker', ['info', '--format', '{{.Swarm.LocalNodeState}}'], { encoding: 'utf8' }).trim();
if (state !== 'active') execFileSync('docker', ['swarm', 'init', '--advertise-addr', '127.0.0.1'], { stdio: 'ignore' });
const runner = `tenet-perf-swarm-${process.pid}:perf`;
try {
  const tasks = join(scratch, 'tasks.jsonl');
  timed(['bench', 'make', '--repo', shop, '--out', tasks, '--count', '3']);
  const script = join(scratch, 'oracle.json');
  writeFileSync(
    script,
    JSON.stringify({
      turns: [{ calls: [{ name: 'submit_implementation', arguments: { code: '{{full_function}}' } }] }],
    }),
  );
  const image = timed(['image', 'build', '--runner', '--tag', runner, '--quiet']);
  const common = ['--provider', 'scripted', '--script', script, '--parallel', '2', '--json'];
  const local = timed(['bench', 'run', tasks, '--out', join(scratch, 'local'), ...common]);
  const swarm = timed([
    'bench',
    'run',
    tasks,
    '--out',
    join(scratch, 'swarm'),
    '--on',
    'swarm',
    '--runner-image',
    runner,
    ...common,
  ]);
  const passed = (out: string) => JSON.parse(out).passed as number;
  const taskSeconds = (dir: string) =>
    readFileSync(join(scratch, dir, 'results.jsonl'), 'utf8')
      .trim()
      .split('\n')
      .map((l) => (JSON.parse(l) as { wallMs: number }).wallMs / 1000);
  const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
  console.log(`runner image build: ${image.seconds.toFixed(1)} s (once per tenet version)`);
  console.log('three shop tasks, ground-truth script, --parallel 2:');
  console.log(
    `  local:  ${local.seconds.toFixed(1)} s wall, ${passed(local.stdout)}/3 passed, tasks' own time ${sum(taskSeconds('local')).toFixed(1)} s`,
  );
  console.log(
    `  swarm:  ${swarm.seconds.toFixed(1)} s wall, ${passed(swarm.stdout)}/3 passed, tasks' own time ${sum(taskSeconds('swarm')).toFixed(1)} s (in their containers)`,
  );
  console.log(
    `  swarm / local: ${(swarm.seconds / local.seconds).toFixed(2)}×; the difference is the run's image, the services' scheduling and the container starts`,
  );
} finally {
  // Not forced (that would only untag an image a stopping container still uses): again until it goes.
  const exists = () => spawnSync('docker', ['image', 'inspect', runner], { stdio: 'ignore' }).status === 0;
  for (
    let i = 0;
    i < 40 && exists() && spawnSync('docker', ['image', 'rm', runner], { stdio: 'ignore' }).status !== 0;
    i++
  )
    spawnSync('sleep', ['0.5']);
  if (state !== 'active') spawnSync('docker', ['swarm', 'leave', '--force'], { stdio: 'ignore' });
  rmSync(scratch, { recursive: true, force: true });
}
