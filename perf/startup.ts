/**
 * perf/startup: the CPU time of the `tenet` process itself (not the pytest runs it starts) for a
 * short headless run on a scripted model, the kind of run a CI job or `tenet bench` starts by the
 * hundred. Baseline, in the same run and alternated with it: the same command with both providers'
 * SDKs loaded at start, as tenet did before it loaded a provider's SDK at the model's first call;
 * or, with `--against DIR`, the same command of another checkout (its dist built, e.g. a
 * `git worktree` of an earlier commit), to measure a change to what every run loads.
 *
 *   npm run perf:startup [-- --rounds 10] [--against ../tenet-before]
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { optionReader } from './common';

const option = optionReader(process.argv.slice(2));
const rounds = Number(option('--rounds') ?? 10);
const root = join(import.meta.dirname, '..');
const cli = join(root, 'dist', 'tenet.js');
const against = option('--against');
const baselineCli = against ? join(resolve(against), 'dist', 'tenet.js') : undefined;
if (baselineCli && !existsSync(baselineCli)) throw new Error(`${baselineCli} is missing: build that checkout first`);
const scratch = mkdtempSync(join(tmpdir(), 'tenet-perf-startup-'));

const usage = join(scratch, 'usage.cjs');
// The process's own CPU, said on stderr as it exits (its children's is not in it).
writeFileSync(
  usage,
  "process.on('exit', () => { const u = process.cpuUsage(); process.stderr.write(`CPU ${(u.user + u.system) / 1000}\\n`); });\n",
);
// The providers' modules of this build, with their SDKs, are what tenet loaded at start before.
const providers = readdirSync(join(root, 'dist', 'chunks')).filter((name) =>
  /^(openai|anthropic)-provider-.*\.js$/.test(name),
);
if (providers.length !== 2) throw new Error('dist/chunks has no provider chunks: run npm run build');
const eager = join(scratch, 'eager.mjs');
writeFileSync(
  eager,
  providers.map((name) => `await import(${JSON.stringify(join(root, 'dist', 'chunks', name))});\n`).join(''),
);
const script = join(scratch, 'script.json');
writeFileSync(
  script,
  JSON.stringify({
    turns: [
      {
        calls: [
          {
            name: 'submit_implementation',
            arguments: {
              code: 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n',
            },
          },
        ],
      },
    ],
  }),
);

/** CPU milliseconds of one `tenet run` process (of `program`) on a fresh copy of the shop fixture. */
function runOnce(i: number, preload: string[], program = cli): number {
  const repo = join(scratch, `shop-${i}-${preload.length}-${program === cli ? 'this' : 'baseline'}`, 'shop');
  cpSync(join(root, 'test', 'fixtures', 'shop'), repo, { recursive: true });
  const child = spawnSync(
    process.execPath,
    [
      ...['--require', usage, ...preload, program, 'run', '--repo', repo, '--script', script],
      ...'--target shop/cart.py::Cart.total --blank -T 1 --rrw-attempts 0 --provider scripted'.split(' '),
      ...'--json --tests tests/test_cart.py'.split(' '),
    ],
    { env: { ...process.env, TENET_SESSIONS_DIR: join(scratch, 'sessions') }, encoding: 'utf8' },
  );
  const cpu = /CPU ([\d.]+)/.exec(child.stderr);
  if (child.status !== 0 || !cpu)
    throw new Error(`tenet run failed (exit ${child.status}):\n${child.stderr.slice(-800)}`);
  return Number(cpu[1]);
}

try {
  const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
  const lazy: number[] = [];
  const baseline: number[] = [];
  for (let i = 0; i < rounds; i++) {
    baseline.push(baselineCli ? runOnce(i, [], baselineCli) : runOnce(i, ['--import', eager]));
    lazy.push(runOnce(i, []));
  }
  const [now, before] = [median(lazy), median(baseline)];
  const what = baselineCli ? `the same run of ${against}` : 'with both SDKs loaded at start (as before)';
  console.log(
    `startup  tenet run (scripted, shop, ${rounds} rounds), CPU of the tenet process, median: ${now.toFixed(0)} ms; ${what} ${before.toFixed(0)} ms; ${(before - now).toFixed(0)} ms less (${(before / now).toFixed(2)}x)`,
  );
} finally {
  rmSync(scratch, { recursive: true, force: true });
}
