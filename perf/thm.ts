/**
 * perf/thm: wall time of `tenet thm --blank` against a plain `python -m pytest` of the same
 * scope, on three shapes of suite (issue 17: THM should cost at most a plain run on any of them):
 *
 *   many files     networkx (a mid-size scope of many test files)
 *   one big file   sympy's printing/tests/test_latex.py (170 tests, 76 failing blanked)
 *   unittest       jsonschema's tests (unittest.TestCase classes)
 *   hypothesis     attrs' tests (Hypothesis-heavy; two test modules fail to import blank), from a
 *                  checkout given with --attrs DIR (attrs ships no tests in its package)
 *
 * Each shape's THM runs the whole scope (--no-reach) and, in the "thm indexed" column, with the
 * reach index (issue 44): only the tests recorded as calling the target run. "index build" is
 * the index's own cost, `tenet index --reach --anew` (recorded whole each time, in a cache folder
 * of this script's own).
 *
 * The packages are copied from python3's site-packages. Every configuration runs once untimed
 * (bytecode and caches warm), then the runs are interleaved and repeated (--reps, default 3) and
 * the medians and their ratios printed: the machine is shared, and only ratios within one run of
 * this script mean anything.
 *
 *   npx tsx perf/thm.ts                       # the three shapes
 *   npx tsx perf/thm.ts --shape unittest      # one of them (many-files, one-big-file, unittest, hypothesis)
 *   npx tsx perf/thm.ts --attrs ~/src/attrs   # the hypothesis shape too (else it is left out)
 *   npx tsx perf/thm.ts --full                # networkx's whole suite as the many-files shape
 *   npx tsx perf/thm.ts --one-core            # also THM with --jobs 1 on the many-files shape
 *   npx tsx perf/thm.ts --modes               # also --two-pass, --jobs 1 and both, on every shape
 *   npx tsx perf/thm.ts --repo DIR --target FILE::QUALNAME [--reps N] [--tests ARGS...]
 *   npx tsx perf/thm.ts --cli OTHER/dist/tenet.js   # time another build
 *   npx tsx perf/thm.ts --compare OLD/dist/tenet.js # and another build beside this one, interleaved
 *   npx tsx perf/thm.ts --fresh-copy          # THM copies the repository afresh each run (TENET_FRESH_COPY=1)
 *   npx tsx perf/thm.ts --no-bytecode         # keep PYTHONDONTWRITEBYTECODE from the environment (default: unset)
 *
 * THM keeps its workspace for the next run of the repository (see workspace/parked-copy.ts), so
 * the timed runs, after the untimed one, find it there, as a developer's second run does. Where
 * `python3` on PATH is a version manager's shim, a second baseline is what a developer types,
 * `python3 -m pytest` through the shim: the first, the interpreter itself, is the stricter.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { availableParallelism, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { copyInstalledPackage, optionReader } from './common';

const argv = process.argv.slice(2);
const testsAt = argv.indexOf('--tests');
const own = testsAt === -1 ? argv : argv.slice(0, testsAt);
const option = optionReader(own);
// --cli: another build of tenet to time (say, one made from an earlier commit), for a before/after.
const cli = option('--cli') ?? join(import.meta.dirname, '..', 'dist', 'tenet.js');
// --compare: a second build timed in the same interleaved runs (its THM configurations again).
const compare = option('--compare');
const reps = Number(option('--reps') ?? 3);
const freshCopy = own.includes('--fresh-copy');
// A developer's machine writes bytecode: without it plain pytest compiles every module on every
// run while THM keeps its own, which flatters THM (issue 44). Measured that way only when asked.
const noBytecode = own.includes('--no-bytecode');
/** tenet's cache folder for this script alone: the reach indexes it builds and uses. */
const cacheDir = mkdtempSync(join(tmpdir(), 'tenet-perf-cache-'));

interface Shape {
  name: string;
  /** Installed package to copy, a repository given with --repo, or a checkout to copy (left out when not given). */
  source: { package: string } | { repo: string } | { checkout: string | undefined; hint: string };
  /** Folders of the repository the plain run imports from (default: its root); tenet finds its own. */
  pythonPath?: string[];
  target: string;
  tests: string[];
  /** The THM configurations to time: label and extra flags. */
  thm: [string, string[]][];
}

const SHAPES: Shape[] = [
  {
    name: 'many-files',
    source: { package: 'networkx' },
    target: 'networkx/classes/function.py::density',
    tests: own.includes('--full')
      ? ['networkx']
      : [
          'networkx/algorithms/minors',
          'networkx/algorithms/approximation',
          'networkx/classes',
          'networkx/algorithms/connectivity',
        ],
    // The default, --jobs auto: a lane per core (--one-core adds a --jobs 1 run).
    thm: [
      ['thm', []],
      ...(own.includes('--one-core') ? [['thm --jobs 1', ['--jobs', '1']] as [string, string[]]] : []),
    ],
  },
  {
    name: 'one-big-file',
    source: { package: 'sympy' },
    target: 'sympy/printing/latex.py::LatexPrinter.parenthesize',
    tests: ['sympy/printing/tests/test_latex.py'],
    thm: [['thm', []]],
  },
  {
    name: 'unittest',
    source: { package: 'jsonschema' },
    target: 'jsonschema/_utils.py::equal',
    // The official JSON-Schema test suite is not shipped with the package.
    tests: ['jsonschema/tests', '--ignore=jsonschema/tests/test_jsonschema_test_suite.py'],
    thm: [['thm', []]],
  },
  {
    // Hypothesis tests shrink every failing example: with the target blank, nearly all of them.
    name: 'hypothesis',
    source: {
      checkout: option('--attrs') ?? process.env.TENET_PERF_ATTRS,
      hint: 'give a checkout of https://github.com/python-attrs/attrs with --attrs DIR',
    },
    target: 'src/attr/_make.py::make_class',
    tests: ['tests'],
    pythonPath: ['src'],
    thm: [['thm', []]],
  },
];

function chosenShapes(): Shape[] {
  const repo = option('--repo');
  if (repo) {
    const target = option('--target');
    if (!target) throw new Error('--target is required with --repo');
    return [
      {
        name: 'custom',
        source: { repo },
        target,
        tests: testsAt === -1 ? [] : argv.slice(testsAt + 1),
        thm: [
          ['thm --jobs 1', ['--jobs', '1']],
          ['thm --jobs auto', ['--jobs', 'auto']],
        ],
      },
    ];
  }
  const wanted = option('--shape');
  const named = wanted ? SHAPES.filter((s) => s.name === wanted) : SHAPES;
  if (!named.length) throw new Error(`--shape is one of ${SHAPES.map((s) => s.name).join(', ')}`);
  const shapes = named.filter((shape) => {
    const missing = 'checkout' in shape.source && !shape.source.checkout;
    if (missing && 'hint' in shape.source) console.log(`shape ${shape.name} left out: ${shape.source.hint}`);
    return !missing;
  });
  if (!own.includes('--modes')) return shapes;
  const modes: [string, string[]][] = [
    ['thm --two-pass', ['--two-pass']],
    ['thm --jobs 1', ['--jobs', '1']],
    ['thm --two-pass --jobs 1', ['--two-pass', '--jobs', '1']],
  ];
  return shapes.map((shape) => ({
    ...shape,
    thm: [...shape.thm, ...modes.filter(([label]) => !shape.thm.some(([had]) => had === label))],
  }));
}

/**
 * CPU seconds (user + system) of the processes this one has waited for, and theirs (Linux): on a
 * shared machine the wall time of a run says as much about the neighbours as about the run.
 */
function childCpu(): number {
  try {
    const fields = readFileSync('/proc/self/stat', 'utf8').split(') ')[1]!.split(' ');
    return (Number(fields[13]) + Number(fields[14])) / 100; // cutime, cstime in clock ticks
  } catch {
    return NaN;
  }
}

function timed(
  label: string,
  command: string,
  args: string[],
  cwd: string,
  pythonPath = [''],
): { wall: number; cpu: number } {
  const started = process.hrtime.bigint();
  const cpuBefore = childCpu();
  const env: NodeJS.ProcessEnv = {
    ...process.env,
    TENET_CACHE_DIR: cacheDir,
    PYTHONPATH: pythonPath.map((entry) => join(cwd, entry)).join(':'),
    ...(freshCopy ? { TENET_FRESH_COPY: '1' } : {}),
  };
  if (!noBytecode) delete env.PYTHONDONTWRITEBYTECODE;
  const result = spawnSync(command, args, { cwd, encoding: 'utf8', maxBuffer: 1 << 30, env });
  const wall = Number(process.hrtime.bigint() - started) / 1e9;
  if (result.status !== 0 && result.status !== 1)
    throw new Error(`${label} failed (${result.status}):\n${result.stderr.slice(-2000)}`);
  sayWhatWentWrong(label, result.stdout);
  return { wall, cpu: childCpu() - cpuBefore };
}

/**
 * What a tenet run said went wrong (the index build's `problems`, a report's timed-out or crashed
 * tests and its problems): a run far slower than the others of its configuration is explained
 * here, or not by tenet's own account (the stalls docs/performance.md tells of).
 */
function sayWhatWentWrong(label: string, stdout: string): void {
  let said: { problems?: string[]; counts?: { timedOut?: number; crashed?: number } };
  try {
    said = JSON.parse(stdout);
  } catch {
    return; // plain pytest's own output
  }
  const lines = [
    ...(said.problems ?? []),
    ...(said.counts?.timedOut ? [`${said.counts.timedOut} tests timed out`] : []),
    ...(said.counts?.crashed ? [`${said.counts.crashed} tests crashed`] : []),
  ];
  for (const line of lines) console.log(`  (${label}: ${line.split('\n')[0]})`);
}

/** The machine's load averages (1, 5, 15 min): how shared it was while a figure was taken. */
const load = () =>
  loadavg()
    .map((l) => l.toFixed(1))
    .join(', ');

const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

interface Run {
  shape: Shape;
  repo: string;
  configs: [string, string, string[]][];
  times: number[][];
  cpu: number[][];
}

/** The interpreter behind `python3`, as tenet resolves it. */
const interpreter =
  spawnSync('python3', ['-c', 'import sys; print(sys.executable)'], { encoding: 'utf8' }).stdout.trim() || 'python3';
/** `python3` on PATH, when it is not that interpreter itself (a version manager's shim). */
const onPath = spawnSync('sh', ['-c', 'command -v python3'], { encoding: 'utf8' }).stdout.trim();
const shim = onPath && realpathSync(onPath) !== realpathSync(interpreter) ? onPath : undefined;

const cleanups: (() => void)[] = [];
try {
  const runs: Run[] = chosenShapes().map((shape) => {
    let repo: string;
    if ('repo' in shape.source) repo = shape.source.repo;
    else if ('checkout' in shape.source) {
      // A copy: the plain runs write bytecode and Hypothesis' database where they run.
      repo = mkdtempSync(join(tmpdir(), 'tenet-perf-checkout-'));
      cpSync(shape.source.checkout!, repo, {
        recursive: true,
        filter: (path) => !/(^|\/)(\.git|__pycache__|\.hypothesis|\.tox|\.venv)$/.test(path),
      });
      const made = repo;
      cleanups.push(() => rmSync(made, { recursive: true, force: true }));
    } else {
      const copy = copyInstalledPackage(shape.source.package, { preserveTimestamps: true });
      cleanups.push(copy.cleanup);
      repo = copy.repo;
    }
    const thmArgs = (build: string, extra: string[]) => [
      build,
      'thm',
      '--repo',
      repo,
      '--target',
      shape.target,
      '--blank',
      '--json',
      ...extra,
      '--tests',
      ...shape.tests,
    ];
    const configs: [string, string, string[]][] = [
      // What a developer runs: pytest with its defaults on the same scope, started by the
      // interpreter itself (a version manager's shim would add its own second to the baseline).
      ['plain pytest', interpreter, ['-m', 'pytest', '-q', ...shape.tests]],
      ...(shim
        ? [['pytest via the shim', shim, ['-m', 'pytest', '-q', ...shape.tests]] as [string, string, string[]]]
        : []),
      // Before THM's runs: the untimed round builds the index the indexed run uses.
      [
        'index build',
        process.execPath,
        [cli, 'index', '--reach', '--anew', '--json', '--repo', repo, '--tests', ...shape.tests],
      ],
      ...shape.thm.map(([label, extra]): [string, string, string[]] => [
        `${label} --no-reach`,
        process.execPath,
        thmArgs(cli, [...extra, '--no-reach']),
      ]),
      ['thm indexed', process.execPath, thmArgs(cli, [])],
      ...(compare
        ? shape.thm.map(([label, extra]): [string, string, string[]] => [
            `${label} (compared)`,
            process.execPath,
            thmArgs(compare, extra),
          ])
        : []),
    ];
    return { shape, repo, configs, times: configs.map(() => []), cpu: configs.map(() => []) };
  });
  console.log(
    `tenet ${cli}${compare ? `, compared with ${compare}` : ''}\ncores ${availableParallelism()}, ${reps} interleaved runs of each configuration after one untimed run`,
  );
  console.log(`plain pytest: ${interpreter} itself${shim ? `; pytest via the shim: ${shim}` : ''}`);
  console.log(
    `THM's workspace: ${freshCopy ? 'copied afresh each run (--fresh-copy)' : 'kept from the run before, brought up to date'}`,
  );
  // It decides much of a plain run's time: without bytecode written, pytest rewrites every test
  // module's asserts again each run (THM writes bytecode in its workspace whatever it says).
  console.log(
    `bytecode: ${noBytecode && process.env.PYTHONDONTWRITEBYTECODE ? 'PYTHONDONTWRITEBYTECODE is set (--no-bytecode), plain pytest compiles and rewrites every run' : 'written (plain pytest keeps it in the repository copy; --no-bytecode keeps PYTHONDONTWRITEBYTECODE)'}`,
  );
  console.log(`load average at the start: ${load()}\n`);
  for (const run of runs)
    for (const [label, command, args] of run.configs) timed(label, command, args, run.repo, run.shape.pythonPath);
  for (let rep = 0; rep < reps; rep++) {
    for (const run of runs) {
      run.configs.forEach(([label, command, args], index) => {
        const { wall, cpu } = timed(label, command, args, run.repo, run.shape.pythonPath);
        run.times[index]!.push(wall);
        run.cpu[index]!.push(cpu);
        // As it goes, so a long run that is stopped still says something.
        console.error(
          `run ${rep + 1}: ${run.shape.name} ${label} ${wall.toFixed(1)} s (CPU ${cpu.toFixed(1)} s, load ${load()})`,
        );
      });
    }
  }
  for (const { shape, configs, times, cpu } of runs) {
    console.log(`${shape.name}: ${shape.target}  --tests ${shape.tests.join(' ')}`);
    const plain = median(times[0]!);
    const plainCpu = median(cpu[0]!);
    const typed = shim ? median(times[1]!) : undefined;
    configs.forEach(([label], index) => {
      const value = median(times[index]!);
      const cpuValue = median(cpu[index]!);
      const baseline = index === 0 || (shim && index === 1);
      const ratio = baseline
        ? ''
        : `   ratio ${(value / plain).toFixed(2)}${typed ? ` (${(value / typed).toFixed(2)} against the shim's)` : ''}`;
      const cpuRatio = baseline ? '' : `   ratio ${(cpuValue / plainCpu).toFixed(2)}`;
      console.log(
        `  ${label.padEnd(20)} wall median ${value.toFixed(2).padStart(6)} s${ratio}   (runs ${times[index]!.map((t) => t.toFixed(1)).join(', ')})`,
      );
      console.log(`  ${''.padEnd(20)} CPU  median ${cpuValue.toFixed(2).padStart(6)} s${cpuRatio}`);
    });
    console.log('');
  }
  console.log(`load average at the end: ${load()}`);
} finally {
  rmSync(cacheDir, { recursive: true, force: true });
  for (const cleanup of cleanups) cleanup();
}
