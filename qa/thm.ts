/**
 * qa/thm: the differential check of THM (issue 33). THM's failing set is what the agent sees and
 * what decides PASS, so every way THM can run must give what plain pytest gives:
 *
 *   for each suite, find the tests that call each function (bench make's reach pass), draw
 *   targets at random (seeded, printed), and for each target
 *     the oracle   plain pytest over the target's test files, on a copy with the target blanked
 *                  and on the original, one process each: failing = fails blanked, passes original
 *     the modes    tenet thm --blank in lanes (the default), --jobs 1, --two-pass, --sandbox docker,
 *                  stub mode on a copy whose target is blanked by hand, and reach: lanes again,
 *                  with the suite's reach index (tenet index --reach, recorded once per suite)
 *                  leaving out the tests it says cannot fail and standing for the original
 *                  world of those it still vouches for (every other mode runs --no-reach)
 *   Every mode must agree with the oracle on the failing set, the already-failing set, each
 *   failing test's outcome and the count of tests passing blank. Stub mode must also tell the
 *   target's failing tests from those failing for another reason as plain pytest does (see
 *   stubAgainstOracle: a third plain run has the target raise an exception that names it). The
 *   benchmark modes must agree
 *   with each other on reached flags, chains (lines included), callers, clusters and the T=3
 *   selection (stub mode on the tests both list, without lines). A disagreement prints the target,
 *   the mode and the first differing test; the exit code is 1.
 *
 *   npm run qa:thm                                   # the fixed sample CI runs (14 targets, seed 1)
 *   npm run qa:thm -- --targets 100 --seed 7         # wide: 100 targets over every built-in suite
 *   npm run qa:thm -- --suite networkx --suite jsonschema --targets 20
 *   npm run qa:thm -- --repo ~/src/click --targets 10 [--tests tests]   # any repository
 *   npm run qa:thm -- --modes lanes,jobs1            # some modes only (lanes, jobs1, twopass, docker, stub, reach)
 *   npm run qa:thm -- --out report.json              # every target's result as JSON
 *   npm run qa:thm -- --max-files 20                 # targets reached from up to 20 test files (default 6)
 *   npm run qa:thm -- --suite jsonschema --target jsonschema/__init__.py::__getattr__   # these targets, not a draw
 *   npm run qa:thm -- --suite stubs --targets 8 --seed 1   # stub mode beside other stubs, broken helpers, reported reprs
 *   npm run qa:thm -- --suite jsonschema --targets 4 --seed 1 --part 2/2   # every 2nd of the draw, from the 2nd
 *   npm run qa:thm -- --targets 200 --seed 44 --from 11   # each suite's draw from its 11th target (widen a run)
 *   npm run qa:thm -- --suite sympy-printing --targets 4 --seed 1 --part 1/2 --shared DIR   # parts run at once
 *                                                    # make each suite's set-up once in DIR (qa/suite-setup.ts)
 */
import { spawnSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { spreadOrder } from '../source/engine/bench/make-order';
import { targetName } from '../source/engine/bench/make-row';
import { optionArgs } from '../source/engine/bench/make-scope';
import { testFile } from '../source/engine/thm/node-ids';
import type { ThmReport } from '../source/engine/protocol/thm-report';
import { againstOracle, betweenModes, expectedBlank, stubAgainstOracle } from './compare';
import { blankedText, copyWith, oracleOn, removeCopy, SENTINEL_MARK, sentinelText, type Runner } from './oracle';
import { setUp, tearDown } from './suite-setup';
import { DOCKER_IMAGE, dockerReady, repositorySuite, SUITES, type Suite } from './suites';

const argv = process.argv.slice(2);
const testsAt = argv.indexOf('--tests');
const own = testsAt === -1 ? argv : argv.slice(0, testsAt);
const all = (name: string) => own.flatMap((arg, i) => (arg === name && own[i + 1] !== undefined ? [own[i + 1]!] : []));
const one = (name: string) => all(name).at(-1);

/** CI's fixed sample (no --targets, --suite or --repo): 14 targets, seed 1, over the suites marked for it. */
const sample = !one('--targets') && !all('--target').length && !all('--suite').length && !all('--repo').length;
/** --target FILE::QUALNAME (repeatable): check these, in whichever suite has them, instead of a draw. */
const named = all('--target');
const targets = named.length || Number(one('--targets') ?? 14);
const seed = Number(one('--seed') ?? (one('--targets') ? Math.floor(Math.random() * 1e6) : 1));
const repos = all('--repo');
const suites: Suite[] = repos.length
  ? repos.map((repo) => repositorySuite(repo, testsAt === -1 ? [] : argv.slice(testsAt + 1)))
  : all('--suite').length
    ? all('--suite').map(
        (name) =>
          SUITES.find((s) => s.name === name) ??
          fail(`no suite ${name} (known: ${SUITES.map((s) => s.name).join(', ')})`),
      )
    : SUITES.filter((suite) => !sample || suite.ci);
const ALL_MODES = ['lanes', 'jobs1', 'twopass', 'docker', 'stub', 'reach'] as const;
type Mode = (typeof ALL_MODES)[number];
const modes = (one('--modes')?.split(',') ?? [...ALL_MODES]) as Mode[];
const docker = modes.includes('docker') && dockerReady();
const cli = join(import.meta.dirname, '..', 'dist', 'tenet.js');
const defaultPython = process.env.TENET_PYTHON ?? 'python3';
/** The interpreter of the suite being checked (a suite may need one with its plugins). */
let python = defaultPython;
const maxFiles = Number(one('--max-files') ?? 6);
/**
 * --part K/N: of the targets drawn, check every Nth from the Kth only. The draw stays the same:
 * CI's test files spread the fixed sample over several files this way (test/e2e/qa-thm-*.test.ts).
 */
const partMatch = /^(\d+)\/(\d+)$/.exec(one('--part') ?? '1/1');
const [partK, partN] = partMatch ? [Number(partMatch[1]), Number(partMatch[2])] : [0, 0];
if (partK < 1 || partK > partN) fail(`--part takes K/N with 1 ≤ K ≤ N, as 2/4; not ${one('--part')}`);
/** --from K: of each suite's draw, check the Kth target on (the draw stays the same: a wider run need not repeat a narrower one). */
const from = Number(one('--from') ?? 1);
if (!Number.isInteger(from) || from < 1) fail(`--from takes a whole number of at least 1; not ${one('--from')}`);

function fail(message: string): never {
  console.error(`qa:thm: ${message}`);
  process.exit(2);
}

const MODE_FLAGS: Record<Exclude<Mode, 'stub'>, string[]> = {
  lanes: ['--no-reach'],
  jobs1: ['--jobs', '1', '--no-reach'],
  twopass: ['--two-pass', '--no-reach'],
  docker: ['--sandbox', 'docker', '--image', DOCKER_IMAGE],
  reach: [],
};
/** Where reach mode's index of the suite being checked is kept (tenet's cache folder for it alone). */
let reachCache = '';
/**
 * --shared DIR: the parts of a suite's share of the sample, run at once by CI's test files, make
 * the suite's set-up once in DIR (see suite-setup.ts).
 */
const shared = one('--shared');

/** The suite's reach index, recorded once for all its targets (reach mode). */
function recordIndex(repo: string, scope: readonly string[], cache: string): void {
  const run = spawnSync('node', [cli, 'index', '--reach', '--repo', repo, '--json', '--tests', ...scope], {
    encoding: 'utf8',
    timeout: 3_600_000,
    env: { ...process.env, TENET_PYTHON: python, TENET_CACHE_DIR: cache },
  });
  if (run.status !== 0) throw new Error(`tenet index --reach failed (exit ${run.status}): ${run.stderr.slice(-1500)}`);
  const made = JSON.parse(run.stdout) as { tests: number; seconds: number };
  console.log(`  reach index: ${made.tests} tests recorded in ${made.seconds} s`);
}

function thm(repo: string, target: string, scope: string[], flags: string[], blank: boolean): ThmReport {
  const args = [
    cli,
    'thm',
    '--repo',
    repo,
    '--target',
    target,
    '--json',
    ...(blank ? ['--blank'] : []),
    ...flags,
    '--tests',
    ...scope,
  ];
  const run = spawnSync('node', args, {
    encoding: 'utf8',
    maxBuffer: 256 << 20,
    timeout: 1_800_000,
    env: { ...process.env, TENET_PYTHON: python, TENET_CACHE_DIR: reachCache },
  });
  let parsed: Partial<ThmReport> | undefined;
  try {
    parsed = JSON.parse(run.stdout) as Partial<ThmReport>;
  } catch {
    parsed = undefined;
  }
  // An error is JSON too under --json: say it, with the mode's flags, rather than fail on its shape.
  if (!parsed || !Array.isArray(parsed.failing))
    throw new Error(
      `tenet thm ${flags.join(' ')} on ${target} gave no report (exit ${run.status ?? run.signal}): ${run.stdout.slice(-800)}${run.stderr.slice(-1500)}`,
    );
  return parsed as ThmReport;
}

interface TargetResult {
  suite: string;
  target: string;
  scope: string[];
  failing: number;
  alreadyFailing: number;
  disagreements: { mode: string; difference: string }[];
  seconds: number;
}

console.log(
  `qa:thm · seed ${seed}${partN > 1 ? ` · part ${partK}/${partN}` : ''} · ${targets} targets over ${suites.map((s) => s.name).join(', ')} · modes ${modes.filter((m) => m !== 'docker' || docker).join(', ')}${modes.includes('docker') && !docker ? ' (docker: no engine or no image, skipped)' : ''}`,
);
const results: TargetResult[] = [];
const started = Date.now();
const perSuite = Math.ceil(targets / suites.length);
/** Targets drawn so far (all parts'): what is left to draw does not depend on --part. */
let drawn = 0;

/** A small stable number from a name (FNV-1a). */
function nameHash(name: string): number {
  let hash = 0x811c9dc5;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash % 100_000;
}

for (const suite of suites) {
  const want = named.length ? named.length : Math.min(perSuite, targets - drawn);
  if (want <= 0) break;
  const wanted = suite.python ? suite.python() : defaultPython;
  if (!wanted) {
    console.log(`\n${suite.name}: left out (${suite.pythonHint ?? 'no interpreter for it'})`);
    continue;
  }
  python = wanted;
  const withIndex = modes.includes('reach');
  const reach = await setUp(suite, python, withIndex ? recordIndex : undefined, shared);
  const { repo } = reach;
  reachCache = reach.cache;
  try {
    const options = optionArgs(suite.reach, reach.positional);
    // A target reached from more test files than --max-files is left out: its every mode would run a large part of the suite.
    const fileCount = (tests: Set<string>) => new Set([...tests].map(testFile)).size;
    const candidates = reach.eligible.flatMap((fn, id) => {
      const tests = reach.reachedBy.get(id);
      return tests &&
        !reach.outside.has(id) &&
        fileCount(tests) <= maxFiles &&
        (!suite.files || suite.files.test(fn.file))
        ? [{ fn, file: fn.file, tests }]
        : [];
    });
    console.log(
      `\n${suite.name}: ${suite.shape}\n  ${reach.eligible.length} functions, ${candidates.length} reached by tests of at most ${maxFiles} files in the reach pass (${(reach.durationMs / 1000).toFixed(1)} s)`,
    );
    // Seeded by the suite's name too, so a suite draws the same targets alone as in the sample.
    const chosen = named.length
      ? candidates.filter(({ fn }) => named.includes(targetName(fn)))
      : spreadOrder(candidates, seed + nameHash(suite.name)).slice(0, want);
    drawn += chosen.length;
    for (const { fn, tests } of chosen.filter((_, i) => i % partN === partK - 1 && i >= from - 1)) {
      const files = suite.wholeScope ? reach.positional : [...new Set([...tests].map(testFile))].sort();
      results.push(await checkTarget(suite, repo, targetName(fn), [...options, ...files]));
    }
  } finally {
    tearDown(reach);
  }
}

async function checkTarget(suite: Suite, repo: string, target: string, scope: string[]): Promise<TargetResult> {
  const t0 = Date.now();
  const blanked = await blankedText(repo, target);
  const disagreements: { mode: string; difference: string }[] = [];
  const note = (mode: string, difference: string | null) => difference && disagreements.push({ mode, difference });
  const local: Runner = { kind: 'local', python };
  const original = oracleOn(repo, scope, local);
  // The repository with the target blank is also stub mode's repository: one plain run serves both.
  const blank = oracleOn(repo, scope, local, blanked);
  const expected = expectedBlank(blank, original);
  {
    const reports: [string, ThmReport][] = [];
    for (const mode of modes) {
      if (mode === 'stub' || (mode === 'docker' && !(docker && suite.docker))) continue;
      const report = thm(repo, target, scope, MODE_FLAGS[mode], true);
      let want = expected;
      if (mode === 'docker') {
        const image: Runner = { kind: 'docker', image: DOCKER_IMAGE };
        want = expectedBlank(oracleOn(repo, scope, image, blanked), oracleOn(repo, scope, image));
      }
      note(mode, againstOracle(report, want));
      if (mode === 'reach')
        console.log(
          report.reach?.used
            ? `    (reach: ${report.reach.tests} of ${report.reach.of} tests ran; ${report.reach.recordedOriginals ?? 0} original outcomes from the index)`
            : `    (reach: not used: ${report.reach?.why ?? 'no report'})`,
        );
      // The image's Python has other packages (a test skipped there for want of scipy): where its
      // plain pytest fails other tests, the image's run is held to that oracle alone, not to the
      // other modes' chains and clusters.
      if (sameFailing(want, expected)) reports.push([mode, report]);
      else
        console.log(`    (${mode}: plain pytest fails other tests there than here; compared with its own oracle only)`);
    }
    const [first, ...others] = reports;
    // The image has other versions of the libraries (pytest's `raises` lives in another file
    // there, and its pytest rewrites a multi-line assert onto another line): its chains are
    // compared on the repository's frames and generated code only, without lines.
    const ownFrame = (name: string) => name.startsWith('<') || existsSync(join(repo, name.split('::')[0]!));
    if (first)
      for (const [mode, report] of others)
        note(
          `${mode} vs ${first[0]}`,
          betweenModes(first[1], report, true, mode === 'docker' ? ownFrame : undefined, mode !== 'docker'),
        );
    if (modes.includes('stub')) {
      const stubbed = copyWith(repo, blanked);
      try {
        const report = thm(stubbed, target, scope, ['--no-reach'], false);
        const sentinel = oracleOn(repo, scope, local, await sentinelText(repo, target), SENTINEL_MARK);
        const oracle = { stub: blank, original, sentinel };
        note('stub', stubAgainstOracle(report, oracle, suite.exactStubSplit));
        if (first) note(`stub vs ${first[0]}`, betweenModes(first[1], report, false));
      } finally {
        removeCopy(stubbed);
      }
    }
    const result = {
      suite: suite.name,
      target,
      scope,
      failing: expected.failing.size,
      alreadyFailing: expected.alreadyFailing.size,
      disagreements,
      seconds: (Date.now() - t0) / 1000,
    };
    const verdict = disagreements.length
      ? `DISAGREE\n${disagreements.map((d) => `    ${d.mode}: ${d.difference}`).join('\n')}`
      : 'agree';
    console.log(
      `  ${target}  (${result.failing} failing, ${result.alreadyFailing} already failing, ${scope.length} scope args, ${result.seconds.toFixed(0)} s)  ${verdict}`,
    );
    return result;
  }
}

const missing = named.filter((target) => !results.some((r) => r.target === target));
if (missing.length)
  console.log(
    `\nnot checked (no suite reaches them from at most ${maxFiles} test files in its reach pass): ${missing.join(', ')}`,
  );
const disagreeing = results.filter((r) => r.disagreements.length);
console.log(
  `\n${results.length} targets (${results.filter((r) => r.failing > 0).length} with failing tests), ${disagreeing.length} with a disagreement · seed ${seed} · ${((Date.now() - started) / 1000).toFixed(0)} s`,
);
const out = one('--out');
if (out) writeFileSync(out, JSON.stringify({ seed, modes, suites: suites.map((s) => s.name), results }, null, 2));
process.exitCode = disagreeing.length ? 1 : 0;

function sameFailing(a: { failing: Map<string, unknown> }, b: { failing: Map<string, unknown> }): boolean {
  return a.failing.size === b.failing.size && [...a.failing.keys()].every((nodeid) => b.failing.has(nodeid));
}
