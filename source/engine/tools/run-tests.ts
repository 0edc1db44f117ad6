import * as z from 'zod';
import { pythonEnv } from '../python-source/pytest-env';
import { posix } from 'node:path';
import type { PluginTestEvent } from '../thm/plugin-lines';
import { mergePasses } from '../thm/merge-passes';
import type { PassResult } from '../thm/pass-types';
import { runPytestPass } from '../thm/pytest-pass';
import type { TestRun } from '../events';
import { settleEach } from '../util/settle-each';
import type { ToolContext } from './context';
import { defineTool } from './tool';
import { judgedProblem, openJudge } from './judge';

const FAILURE_LINES = 60;
const REPORT_CAP = 12_000;

function indentFailure(text: string): string {
  const lines = text.split('\n');
  const kept =
    lines.length > FAILURE_LINES
      ? [
          ...lines.slice(0, 15),
          `[... ${lines.length - FAILURE_LINES} lines cut ...]`,
          ...lines.slice(-(FAILURE_LINES - 15)),
        ]
      : lines;
  return kept.map((l) => `    ${l}`).join('\n');
}

/** What a run of tests needs: a workspace, the sandbox over it, the interpreter and the scope's options. */
export type TestRunContext = Pick<
  ToolContext,
  'workspace' | 'sandbox' | 'python' | 'target' | 'testArgs' | 'testTimeoutSec' | 'signal'
>;

/**
 * Runs the given tests in the workspace as it is now and reports them compactly: one line per
 * test, then each failure's assertion and traceback (from the test down), capped. Every run of
 * submitted code is judged (see judge.ts): one in which it reached into the harness is said to be
 * unverified, and none of its tests counts as passed.
 */
export async function runTests(ctx: TestRunContext, nodeids: string[], label = 'tests'): Promise<TestRun> {
  return runTestsInLanes([ctx], nodeids, label);
}

/**
 * runTests over lanes: each lane a context of its own (the evaluation's: a fresh copy of the
 * checkout and a sandbox over it; validation's: the agent's workspace, with the lane's own scratch
 * files and judge's mark) runs its shard of the tests (THM's balanced split of the collected
 * scope: the plugin's TENET_SHARD) in pytest processes of its own, each judged with its own key.
 * The lanes' outcomes merge into the run one process would report (see mergePasses): a trip or a
 * forgery in any lane makes the whole run unverified, and a lane that died leaves its tests
 * crashed or not run, never passed.
 */
export async function runTestsInLanes(lanes: TestRunContext[], nodeids: string[], label: string): Promise<TestRun> {
  const started = Date.now();
  const count = lanes.length;
  if (count === 1) return testRunOf(await judgedPass(lanes[0]!, nodeids, label), nodeids, started);
  // A lane that cannot run stops the others; every lane has ended before its failure is thrown.
  const stop = new AbortController();
  const passes = await settleEach(
    lanes.map((ctx, index) => {
      const signal = ctx.signal ? AbortSignal.any([ctx.signal, stop.signal]) : stop.signal;
      return judgedPass({ ...ctx, signal }, nodeids, `${label}-lane${index}`, { index, count }).catch((error) => {
        stop.abort();
        throw error;
      });
    }),
  );
  return { ...testRunOf(mergePasses(passes), nodeids, started), lanes: count };
}

/** One judged pytest pass over the tests in the context's workspace: all of them, or one shard. */
async function judgedPass(
  ctx: TestRunContext,
  nodeids: string[],
  label: string,
  shard?: { index: number; count: number },
): Promise<PassResult> {
  const judge = await openJudge(ctx, label);
  return runPytestPass({
    sandbox: ctx.sandbox,
    workspace: ctx.workspace,
    python: ctx.python.executable,
    env: {
      ...pythonEnv(ctx.sandbox, ctx.workspace.root, ctx.target.file),
      TENET_ROOT: ctx.sandbox.workdir,
      TENET_TARGET_FILE: posix.join(ctx.sandbox.workdir, ctx.target.file),
    },
    testArgs: ctx.testArgs,
    shards: 1,
    ...(shard ? { shard } : {}),
    testTimeoutSec: ctx.testTimeoutSec,
    label,
    mode: 'record',
    only: nodeids,
    judge,
    ...(ctx.signal ? { signal: ctx.signal } : {}),
  });
}

/** The report of a judged pass over `nodeids` (a file path stands for all of its tests), in their order. */
function testRunOf(result: PassResult, nodeids: string[], started: number): TestRun {
  const unverified = judgedProblem(result);
  const outcomes: Record<string, string> = {};
  const stops: Record<string, string> = {};
  const lines: string[] = [];
  const failures: string[] = [];
  const byFile = new Map<string, PluginTestEvent[]>();
  for (const test of result.tests.values()) {
    const file = test.nodeid.split('::')[0]!;
    byFile.set(file, [...(byFile.get(file) ?? []), test]);
  }
  for (const nodeid of nodeids) {
    // A file path stands for every test in it (the agent's own test file).
    const tests = nodeid.includes('::')
      ? [result.tests.get(nodeid)].filter((t): t is PluginTestEvent => !!t)
      : (byFile.get(nodeid) ?? []);
    const collectError = result.collectErrors.find((c) => c.nodeid === nodeid || nodeid.startsWith(`${c.nodeid}::`));
    if (!tests.length) {
      outcomes[nodeid] = collectError ? 'error' : 'not run';
      lines.push(
        `${collectError ? 'ERROR' : 'NOT RUN'} ${nodeid}${collectError ? ' (the module failed to import)' : ' (pytest did not find it)'}`,
      );
      if (collectError)
        failures.push(
          `ERROR collecting ${collectError.nodeid}: ${collectError.message}\n${indentFailure(collectError.longrepr)}`,
        );
      continue;
    }
    for (const test of tests) {
      outcomes[test.nodeid] = test.crashed ? 'crashed' : test.outcome;
      if (test.stoppedAt && (test.outcome === 'failed' || test.outcome === 'error'))
        stops[test.nodeid] = test.stoppedAt.name;
      lines.push(`${test.outcome.toUpperCase()} ${test.nodeid}${test.timedOut ? ' (timed out)' : ''}`);
      if (test.outcome === 'failed' || test.outcome === 'error')
        failures.push(`${test.outcome.toUpperCase()} ${test.nodeid}\n${indentFailure(test.longrepr || test.message)}`);
    }
  }
  const total = Object.keys(outcomes).length;
  const passed = unverified ? 0 : Object.values(outcomes).filter((o) => o === 'passed' || o === 'xfailed').length;
  let report = `Ran ${total} test${total === 1 ? '' : 's'}: ${passed} passed, ${total - passed} not passing.\n${lines.join('\n')}`;
  if (unverified) report = `UNVERIFIED: ${unverified}. No test of this run counts as passed.\n${report}`;
  if (failures.length) report += `\n\n${failures.join('\n\n')}`;
  if (result.problems.length) report += `\n\n${result.problems.join('\n')}`;
  if (report.length > REPORT_CAP)
    report = `${report.slice(0, REPORT_CAP)}\n[... report cut at ${REPORT_CAP} characters ...]`;
  return {
    outcomes,
    passed,
    total,
    report,
    durationMs: Date.now() - started,
    ...(unverified ? { unverified } : {}),
    ...(Object.keys(stops).length ? { stops } : {}),
  };
}

export const runTestsTool = defineTool({
  name: 'run_tests',
  changesFiles: true,
  description:
    'Run the tests this session validates against on the current implementation; returns pass/fail per test and the failures.',
  schema: z.object({}),
  async run(_args, ctx) {
    const tests = [...ctx.selectedTests, ...(ctx.agentTestFile ? [ctx.agentTestFile] : [])];
    if (!tests.length) return 'There are no tests to run yet.';
    const run = await runTests(ctx, tests, 'agent');
    ctx.onTestRun?.(run);
    return run.report;
  },
});
