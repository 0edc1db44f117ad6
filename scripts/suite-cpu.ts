// `npm run suite-cpu`: where a test run's CPU goes, file by file. The whole machine's busy time says
// how much a run cost, not which file: a file's own worker misses what its pytest, bubblewrap and
// Docker processes spend. Process accounting (`accton`) lists every process that ends, with its
// parent and start; the e2e files say which worker ran them when (test/setup/file-times.ts); the two
// together give each file the processes it started (scripts/suite-cpu-attribution.ts).
//
//   npm run suite-cpu                                  # the whole suite (vitest run)
//   npm run suite-cpu -- --top 60 -- npx vitest run --project e2e test/e2e/thm-*.test.ts
//
// Needs root and the `acct` package (accton, dump-acct). Run it on a quiet machine: accounting
// lists every process of the machine, not only the suite's.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { attribute, parseAccounting, parseFileLog, type Share } from './suite-cpu-attribution';

const root = fileURLToPath(new URL('..', import.meta.url));
const argv = process.argv.slice(2);
const dashes = argv.indexOf('--');
const own = dashes === -1 ? argv : argv.slice(0, dashes);
const command = dashes === -1 ? ['npx', 'vitest', 'run'] : argv.slice(dashes + 1);
const topAt = own.indexOf('--top');
const top = topAt === -1 ? 40 : Number(own[topAt + 1]);
if (!Number.isInteger(top) || top < 1 || !command.length) fail('usage: npm run suite-cpu [-- --top N] [-- command…]');

function fail(message: string): never {
  console.error(`suite-cpu: ${message}`);
  process.exit(2);
}

if (process.getuid?.() !== 0) fail('process accounting needs root.');
for (const tool of ['accton', 'dump-acct'])
  if (spawnSync('sh', ['-c', `command -v ${tool}`], { stdio: 'ignore' }).status !== 0)
    fail(`${tool} is missing: apt-get install acct`);

/** CPU-seconds the whole machine has been busy (user, nice, system, irq, softirq). */
function machineBusy(): number {
  const fields = readFileSync('/proc/stat', 'utf8').split('\n')[0]!.trim().split(/\s+/).map(Number);
  return [1, 2, 3, 6, 7].reduce((sum, i) => sum + (fields[i] ?? 0), 0) / 100;
}

const dir = mkdtempSync(join(tmpdir(), 'tenet-suite-cpu-'));
const accounting = join(dir, 'acct');
const fileLog = join(dir, 'files.log');
writeFileSync(accounting, '');
writeFileSync(fileLog, '');
const on = spawnSync('accton', [accounting], { encoding: 'utf8' });
if (on.status !== 0) fail(`accton could not start: ${on.stderr.trim()}`);
const busyBefore = machineBusy();
const started = Date.now();
// Ctrl-C reaches the command too: this process waits for it to end, then turns accounting off.
for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) process.on(signal, () => undefined);
let ended: ReturnType<typeof spawnSync>;
try {
  ended = spawnSync(command[0]!, command.slice(1), {
    cwd: root,
    stdio: 'inherit',
    env: { ...process.env, TENET_TEST_FILE_LOG: fileLog },
  });
} finally {
  // Accounting is the machine's: never left on, whatever the run did.
  spawnSync('accton', ['off'], { stdio: 'ignore' });
}
if (ended.error) {
  rmSync(dir, { recursive: true, force: true });
  fail(`could not run ${command[0]}: ${ended.error.message}`);
}
const wall = (Date.now() - started) / 1000;
const busy = machineBusy() - busyBefore;
const dumped = spawnSync('dump-acct', [accounting], { encoding: 'utf8', maxBuffer: 1 << 30 });
const records = parseAccounting(dumped.stdout ?? '');
const spans = parseFileLog(readFileSync(fileLog, 'utf8'), root.replace(/\/$/, ''));
rmSync(dir, { recursive: true, force: true });

const { files, outside } = attribute(records, spans);
const listed = records.reduce((sum, r) => sum + r.cpu, 0);
const n = (value: number, digits = 0) =>
  value.toLocaleString('en-US', { minimumFractionDigits: digits, maximumFractionDigits: digits });
const line = (key: string, share: Share) => {
  const commands = [...share.commands]
    .sort((a, b) => b[1] - a[1])
    .slice(0, 4)
    .map(([name, cpu]) => `${name} ${n(cpu)}`)
    .join(', ');
  return `${n(share.cpu, 1).padStart(8)} ${String(share.processes).padStart(6)}  ${key}  [${commands}]`;
};
const sorted = (shares: Map<string, Share>) => [...shares].sort((a, b) => b[1].cpu - a[1].cpu);

console.log(
  `\n\`${command.join(' ')}\` ${ended.signal ? `stopped by ${ended.signal}` : `exit ${ended.status}`}, ${n(wall)} s, the machine busy ${n(busy)} CPU-s; accounting lists ${n(records.length)} processes, ${n(listed)} CPU-s`,
);
console.log(
  '(a process shorter than a clock tick counts 0; dockerd and other daemons that outlive the run are not listed)',
);
console.log(`\nby test file (CPU-s, processes, the commands that spent most), ${spans.length} files:`);
for (const [key, share] of sorted(files).slice(0, top)) console.log(line(key, share));
console.log('\noutside the test files (by the command at the top of what is known of their ancestry):');
for (const [key, share] of sorted(outside).slice(0, 12)) console.log(line(key, share));
process.exitCode = ended.status ?? 1;
