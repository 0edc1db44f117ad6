/**
 * qa/judge: the judge's false alarms (issue 43). The judge makes a run UNVERIFIED when the
 * submitted code reaches into the test harness; real code must not trip it. For each suite, real
 * functions that the suite's tests call (bench make's reach pass) are taken as if each were a
 * submission: the whole reach scope runs once under the judge with every chosen function's lines
 * counted as submitted code (stricter than one at a time: a trip can only come from more code
 * counted, never from less), and once without the judge, for the cost. A trip names the function
 * whose frame was on the stack.
 *
 *   npm run qa:judge                                  # 110 functions in each of networkx, sympy-printing, jsonschema
 *   npm run qa:judge -- --functions 200 --suite networkx
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { ScannedFunction } from '../source/engine/bench/make-functions';
import { spreadOrder } from '../source/engine/bench/make-order';
import { targetName } from '../source/engine/bench/make-row';
import { pythonEnv } from '../source/engine/python-source/pytest-env';
import { LOCAL, localConfinement } from '../source/engine/sandbox/create-sandbox';
import { LocalSandbox } from '../source/engine/sandbox/local-sandbox';
import { checkPython, choosePython, interpreterFolders } from '../source/engine/task/interpreter';
import type { PassResult } from '../source/engine/thm/pass-types';
import { runPytestPass } from '../source/engine/thm/pytest-pass';
import { Workspace } from '../source/engine/workspace/workspace';
import { madeAndReached } from './suite-setup';
import { SUITES } from './suites';

const argv = process.argv.slice(2);
const values = (flag: string) => argv.flatMap((arg, i) => (arg === flag && argv[i + 1] ? [argv[i + 1]!] : []));
const perSuite = Number(values('--functions')[0] ?? 110);
const seed = Number(values('--seed')[0] ?? 1);
const wanted = values('--suite');
const suites = SUITES.filter((suite) =>
  wanted.length ? wanted.includes(suite.name) : ['networkx', 'sympy-printing', 'jsonschema'].includes(suite.name),
);

interface SuiteResult {
  suite: string;
  functions: number;
  tests: number;
  trips: { function: string; event: string; where: string }[];
  forged?: string;
  plainMs: number;
  judgedMs: number;
}

const results: SuiteResult[] = [];
for (const suite of suites) {
  const repo = mkdtempSync(join(tmpdir(), 'tenet-qa-judge-'));
  try {
    const { scan, reach } = await madeAndReached(suite, repo);
    const reached = scan.eligible.filter(
      (fn, id) => reach.reachedBy.has(id) && !reach.outside.has(id) && (!suite.files || suite.files.test(fn.file)),
    );
    const chosen = spreadOrder(reached, seed).slice(0, perSuite);
    results.push(await judgeSuite(suite.name, repo, suite.reach, chosen));
  } finally {
    rmSync(repo, { recursive: true, force: true });
  }
}

async function judgeSuite(
  name: string,
  repo: string,
  scope: string[],
  chosen: ScannedFunction[],
): Promise<SuiteResult> {
  const confined = localConfinement(LOCAL);
  const workspace = await Workspace.create(repo, { reuse: false });
  const sandbox = new LocalSandbox(
    workspace.root,
    process.env,
    [],
    confined && { ...confined, hidden: [...confined.hidden, repo] },
  );
  try {
    const python = await checkPython(sandbox, choosePython(repo), repo);
    sandbox.show(interpreterFolders(python, repo));
    const anyFile = chosen[0]?.file ?? '';
    const pass = (judged: boolean) =>
      runPytestPass({
        sandbox,
        workspace,
        python: python.executable,
        env: {
          ...pythonEnv(sandbox, workspace.root, anyFile),
          TENET_ROOT: sandbox.workdir,
          TENET_TARGET_FILE: join(sandbox.workdir, '.tenet', 'none.py'),
        },
        testArgs: scope,
        shards: 1,
        testTimeoutSec: 120,
        mode: 'record',
        label: judged ? 'judged' : 'plain',
        reportText: false,
        ...(judged
          ? {
              judge: {
                lines: [0, 0] as [number, number],
                changedCopy: async () => undefined,
                spans: chosen.map((fn) => [fn.file, fn.startLine, fn.endLine] as [string, number, number]),
              },
            }
          : {}),
      });
    // Once each unmeasured (bytecode, caches), then measured.
    await pass(false);
    let started = Date.now();
    const plain = await pass(false);
    const plainMs = Date.now() - started;
    started = Date.now();
    const judged: PassResult = await pass(true);
    const judgedMs = Date.now() - started;
    const owner = (file: string, line: number) =>
      chosen.find((fn) => fn.file === file && fn.startLine <= line && line <= fn.endLine);
    const trips = judged.tripped.map((trip) => ({
      function: owner(trip.file, trip.line) ? targetName(owner(trip.file, trip.line)!) : '(none: the harness check)',
      event: `${trip.event}${trip.detail ? ` (${trip.detail})` : ''}`,
      where: `${trip.file}:${trip.line}`,
    }));
    const result: SuiteResult = {
      suite: name,
      functions: chosen.length,
      tests: judged.tests.size,
      trips,
      ...(judged.forged ? { forged: judged.forged } : {}),
      plainMs,
      judgedMs,
    };
    console.log(
      `${name}: ${chosen.length} functions as submissions over ${judged.tests.size} tests (${plain.tests.size} without the judge): ${new Set(trips.map((t) => t.function)).size} tripped${judged.forged ? `, report not trusted: ${judged.forged}` : ''}; ${(plainMs / 1000).toFixed(1)} s plain, ${(judgedMs / 1000).toFixed(1)} s judged (${(judgedMs / plainMs).toFixed(2)}×)`,
    );
    for (const trip of trips) console.log(`  ${trip.function}: ${trip.event} at ${trip.where}`);
    return result;
  } finally {
    await sandbox.dispose();
    await workspace.dispose();
  }
}

const functions = results.reduce((sum, r) => sum + r.functions, 0);
const unverified = results.reduce((sum, r) => sum + new Set(r.trips.map((t) => t.function)).size, 0);
const forged = results.filter((r) => r.forged).length;
console.log(
  `\nqa:judge · ${functions} real functions as submissions · ${unverified} UNVERIFIED by a trip · ${forged} suites whose report was not trusted`,
);
process.exitCode = unverified || forged ? 1 : 0;
