import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures';
import { thmOn, type ThmRun } from '../helpers/thm';

// A lane captures its tests' output in files of its own, behind the sys.stdout and sys.stderr its
// tests saw at import (colorama's tests keep them: `ORIGINAL = sys.stdout`). Lanes once started
// pytest's capture again, with new objects, and such a test failed only under THM.
const REPO = join(FIXTURES, 'lanecapture');
const TARGET = 'lanecapture/core.py::double';
const logs = mkdtempSync(join(tmpdir(), 'tenet-lane-capture-'));
afterAll(() => rmSync(logs, { recursive: true, force: true }));

type Method = 'fd' | 'sys' | 'tee-sys' | 'no';

/** THM on the fixture; `captured` holds what pytest captured of each test's call (tests/conftest.py). */
async function run(
  name: string,
  options: Parameters<typeof thmOn>[2],
  method: Method = 'fd',
): Promise<ThmRun & { captured: { test: string; outcome: string; out: string; err: string }[] }> {
  const log = join(logs, `${name}.jsonl`);
  const result = await thmOn(REPO, TARGET, {
    testTimeoutSec: 30,
    ...options,
    ...(method === 'fd' ? {} : { testArgs: [`--capture=${method}`] }),
    env: { ...process.env, LANECAPTURE_LOG: log },
    // The fixture's conftest writes that log outside the workspace, which the confined sandbox (the
    // default) forbids; thm-lanes.test.ts runs lanes confined.
    sandbox: { kind: 'local', unconfined: true },
  });
  const lines = existsSync(log) ? readFileSync(log, 'utf8').trim().split('\n') : [];
  return { ...result, captured: lines.map((line) => JSON.parse(line)).sort((a, b) => a.test.localeCompare(b.test)) };
}

/** What plain pytest captures of a printing test: fd capture takes fds 1 and 2 too, sys capture only sys.stdout and sys.stderr. */
function printed(name: string, method: Method): { out: string; err: string } {
  if (method === 'no') return { out: '', err: '' };
  if (method === 'fd')
    return { out: `${name} to sys.stdout\n${name} to fd 1\n`, err: `${name} to sys.stderr\n${name} to fd 2\n` };
  return { out: `${name} to sys.stdout\n`, err: `${name} to sys.stderr\n` };
}

const PRINTERS = ['test_a_prints', 'test_b_prints', 'test_c_prints_and_fails_blank', 'test_d_prints'];

describe('sys.stdout and captured output in lanes', () => {
  it.each<Method>(['fd', 'sys', 'tee-sys', 'no'])(
    'stub mode in two lanes, --capture=%s: a test sees the sys.stdout its module saw, and each test its own output',
    async (method) => {
      const { report, captured } = await run(`lanes-${method}`, { jobs: 2 }, method);
      expect(report.shards).toBe(2);
      expect(report.failing).toEqual([]);
      expect(report.counts).toMatchObject({ collected: 6, passed: 6 });
      // a and b printed at once, each in its lane, then c and d: every one captured just its own lines.
      expect(captured.filter((line) => PRINTERS.includes(line.test))).toEqual(
        PRINTERS.map((test) => ({ test, outcome: 'passed', ...printed(test.split('_')[1]!, method) })),
      );
    },
    120_000,
  );

  it("benchmark mode, both worlds from one collection in lanes: only the target's test fails, its blank output captured as in one process", async () => {
    const { report, captured } = await run('worlds', { blank: true, jobs: 2 });
    expect(report.worlds).toBe(true);
    expect(report.failing.map((f) => f.nodeid)).toEqual(['tests/test_apart.py::test_c_prints_and_fails_blank']);
    expect(report.alreadyFailing).toEqual([]);
    expect(report.counts).toMatchObject({ collected: 6, passed: 5, failing: 1, alreadyFailing: 0 });
    const c = captured.filter((line) => line.test === 'test_c_prints_and_fails_blank');
    // Failed blank, passed on the original code; both with what the test printed.
    expect(c.map((line) => line.outcome).sort()).toEqual(['failed', 'passed']);
    for (const line of c) expect(line).toMatchObject(printed('c', 'fd'));
  }, 120_000);

  it.each([
    ['stub mode', false],
    ['benchmark mode', true],
  ])(
    '--jobs 1, %s: the same outcome',
    async (_mode, blank) => {
      const { report } = await run(`one-${blank}`, { blank, jobs: 1 });
      expect(report.shards).toBe(1);
      expect(report.failing.map((f) => f.nodeid)).toEqual(
        blank ? ['tests/test_apart.py::test_c_prints_and_fails_blank'] : [],
      );
      expect(report.alreadyFailing ?? []).toEqual([]);
      expect(report.counts).toMatchObject({ collected: 6, passed: blank ? 5 : 6 });
    },
    120_000,
  );
});
