import { readFileSync, writeFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ThmReport } from '../../source/engine/protocol/thm-report';
import { runCli } from '../helpers/cli';
import { copyFixture } from '../helpers/fixtures';

// Issue 44: `tenet index --reach` records which tests call which functions; `tenet thm` then runs
// only the tests that can fail (the same report as --no-reach), and a change to a function's body
// makes stale only the tests that called it, which a refresh records again.
const TARGET = 'flows/compute.py::weight';
let repo: { dir: string; cleanup: () => void };
const cache = mkdtempSync(join(tmpdir(), 'tenet-reach-cache-'));
const env = { TENET_CACHE_DIR: cache };

beforeAll(() => {
  repo = copyFixture('concurrent');
});
afterAll(() => {
  repo.cleanup();
  rmSync(cache, { recursive: true, force: true });
});

async function thm(...flags: string[]): Promise<ThmReport> {
  return thmWith({}, ...flags);
}

async function thmWith(extra: Record<string, string>, ...flags: string[]): Promise<ThmReport> {
  const run = await runCli(['thm', '--blank', '--json', '--repo', repo.dir, '--target', TARGET, ...flags], {
    env: { ...env, ...extra },
  });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as ThmReport;
}

async function index(...flags: string[]) {
  const run = await runCli(['index', '--reach', '--json', '--repo', repo.dir, ...flags], { env });
  expect(run.code, run.stderr).toBe(0);
  return JSON.parse(run.stdout) as { file: string; tests: number; testFiles: number; refreshed?: number; ran: number };
}

/** What two reports must share: the verdict, not how it was reached. */
const verdict = (report: ThmReport) => ({
  failing: report.failing.map((f) => [f.nodeid, f.chain, f.chainLines, f.caller]),
  clusters: report.clusters,
  selected: report.selected,
  counts: report.counts,
  alreadyFailing: report.alreadyFailing,
});

describe('the reach index', () => {
  it('is not there until recorded: THM says so and runs every test', async () => {
    const report = await thm();
    expect(report.reach).toEqual({ used: false, why: expect.stringContaining('tenet index --reach') });
  }, 120_000);

  it('once recorded, THM runs only the tests that call the target, with the report of the whole scope', async () => {
    const made = await index();
    expect(made).toMatchObject({ tests: 11, testFiles: 2, ran: 11 });
    const reached = await thm();
    // The original world is the index's record: only the blank world ran.
    expect(reached.reach).toEqual({ used: true, tests: 3, of: 11, stale: 0, recordedOriginals: 3 });
    expect(reached.timings.originalMs).toBe(0);
    expect([reached.twins, reached.worlds]).toEqual([false, undefined]);
    const whole = await thm('--no-reach');
    expect(whole.reach).toEqual({ used: false, why: '--no-reach' });
    expect(verdict(reached)).toEqual(verdict(whole));
    // --no-reach in each of its ways to observe the original world: a twin forked per test in
    // each lane, and both worlds from one collection (its tests start threads and event loops,
    // where a twin cannot fork: they run blank again).
    for (const worlds of ['0', '1']) {
      const chosen = await thmWith({ TENET_THM_WORLDS: worlds }, '--no-reach');
      expect(worlds === '1' ? chosen.worlds : chosen.twins).toBe(true);
      expect(verdict(chosen)).toEqual(verdict(whole));
    }
    expect(reached.failing.map((f) => f.nodeid)).toEqual([
      'tests/test_tasks.py::test_callback_from_the_loop',
      'tests/test_tasks.py::test_sorted_by_a_key_callback',
      'tests/test_threads.py::test_timer_callback',
    ]);
  }, 240_000);

  it('a changed body makes stale the tests that called it; a refresh records only those again', async () => {
    const file = join(repo.dir, 'flows', 'compute.py');
    writeFileSync(file, readFileSync(file, 'utf8').replace('amount += value', 'amount = amount + value'));
    // total() is called by 6 tests; weight's own 3 do not call it.
    expect((await thm()).reach).toEqual({ used: true, tests: 9, of: 11, stale: 6, recordedOriginals: 3 });
    expect(await index()).toMatchObject({ tests: 11, refreshed: 6, ran: 6 });
    expect((await thm()).reach).toEqual({ used: true, tests: 3, of: 11, stale: 0, recordedOriginals: 3 });
    // The target's own body changed: the records of its tests no longer hold, so the tests that
    // fail blank run again on the original code.
    writeFileSync(
      file,
      readFileSync(file, 'utf8')
        .replace('score += 2 if', 'score = score + 2 if')
        .replace(' else 1\n', ' else score + 1\n'),
    );
    const again = await thm();
    expect(again.reach).toEqual({ used: true, tests: 3, of: 11, stale: 3 });
    expect(again.timings.originalMs).toBeGreaterThan(0);
    expect(again.failing).toHaveLength(3);
    expect(await index()).toMatchObject({ tests: 11, refreshed: 3, ran: 3 });
  }, 240_000);

  it('a target no recorded test calls is said before THM runs, and in the report', async () => {
    // A module of its own that nothing imports: no record goes stale for it.
    writeFileSync(join(repo.dir, 'flows', 'spare.py'), 'def spare(n):\n    return n + 1\n');
    const run = await runCli(['thm', '--blank', '--repo', repo.dir, '--target', 'flows/spare.py::spare'], { env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stderr).toContain('warning: The reach index records no test that calls flows/spare.py::spare');
    expect(run.stdout).toContain('! The reach index records no test that calls flows/spare.py::spare');
  }, 120_000);
});
