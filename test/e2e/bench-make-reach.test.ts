import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { readTasks, type BenchTask } from '../../source/engine/bench/task';
import { loadReachIndex } from '../../source/engine/thm/reach-index';
import { runCli } from '../helpers/cli';
import { copyFixture } from '../helpers/fixtures';

// Issue 44, item 3: bench make reads who calls each function from the reach index, which it
// records when there is none (and refreshes when stale), so a second bench make runs no reach
// pass; the tasks are those of its own reach pass (--no-reach).
const stats = copyFixture('stats');
const cache = mkdtempSync(join(tmpdir(), 'tenet-make-reach-'));
const env = { TENET_CACHE_DIR: cache };
afterAll(() => {
  stats.cleanup();
  rmSync(cache, { recursive: true, force: true });
});

/**
 * The tasks without what differs from run to run (timings), says how THM chose its tests (reach)
 * or how it observed the original world (a twin per test, or the index's record).
 */
function verdicts(tasks: BenchTask[]): unknown[] {
  return tasks.map((task) => {
    const {
      timings: _t,
      durationMs: _d,
      reach: _r,
      twins: _w,
      worlds: _o,
      ...thm
    } = task.tenet!.thm as Record<string, unknown>;
    return { ...task, tenet: { ...task.tenet, thm } };
  });
}

async function make(name: string, ...flags: string[]) {
  const out = join(stats.dir, '..', `${name}.jsonl`);
  const run = await runCli(['bench', 'make', '--repo', stats.dir, '--out', out, '--count', '5', '--json', ...flags], {
    env,
  });
  // Two tasks where five were asked for: exit 1.
  expect(run.code, run.stderr).toBe(1);
  return { tasks: readTasks(out), summary: JSON.parse(run.stdout), stderr: run.stderr };
}

const indexFiles = () => {
  try {
    return readdirSync(join(cache, 'reach'));
  } catch {
    return [];
  }
};

describe('bench make and the reach index', () => {
  it('records the index when there is none, makes the tasks its own pass makes, and reads it as kept the next time', async () => {
    const own = await make('own', '--no-reach');
    expect(own.summary.reach.index).toBeUndefined();
    expect(indexFiles()).toEqual([]);

    const first = await make('first');
    expect(first.stderr.match(/^reach index: .*$/gm)).toEqual([
      'reach index: which tests call the 5 eligible functions',
      expect.stringMatching(/^reach index: none for this scope: recorded in [\d.]+ s, kept in /),
    ]);
    const [file] = indexFiles();
    const index = loadReachIndex(join(cache, 'reach', file!));
    expect(Object.keys(index!.tests)).toHaveLength(5);
    expect(first.summary.reach).toMatchObject({ tests: 5, reached: 4, outside: 1, index: { how: 'recorded', ran: 5 } });
    expect(first.tasks.map((t) => t.function_name).sort()).toEqual(['mean', 'spread']);
    expect(verdicts(first.tasks)).toEqual(verdicts(own.tasks));
    // THM itself ran only the tests the index says can fail.
    expect((first.tasks[0]!.tenet!.thm as { reach: { used: boolean } }).reach.used).toBe(true);

    const second = await make('second');
    expect(second.stderr).toContain('reach index: fresh, read as kept (no tests ran;');
    expect(second.summary.reach).toMatchObject({ tests: 5, index: { how: 'kept', ran: 0 } });
    expect(verdicts(second.tasks)).toEqual(verdicts(own.tasks));
    expect(loadReachIndex(join(cache, 'reach', file!))!.builtAt).toBe(index!.builtAt);
  }, 240_000);

  it('refreshes a stale index first: the tests that called a changed function run again', async () => {
    const core = join(stats.dir, 'stats', 'core.py');
    const text = readFileSync(core, 'utf8');
    const edited = text.replace('return total / len(values)', 'return (total + 0) / len(values)');
    expect(edited).not.toBe(text);
    writeFileSync(core, edited);
    const after = await make('after');
    expect(after.summary.reach.index).toMatchObject({ how: 'refreshed', ran: 2 });
    expect(after.stderr).toMatch(/reach index: refreshed, 2 tests recorded again \(the stale ones/);
    expect(after.tasks.map((t) => t.function_name).sort()).toEqual(['mean', 'spread']);
  }, 240_000);

  it('keeps a function a test module calls as it is imported a candidate, as its own pass does (shop: apply_discount)', async () => {
    // The index counts a test module's import, done while pytest collects, outside every test as
    // well as for its module: read as a package's import, it dropped apply_discount (CI caught it).
    const shop = copyFixture('shop');
    try {
      const tasksOf = async (name: string, ...flags: string[]) => {
        const out = join(shop.dir, '..', `${name}.jsonl`);
        const run = await runCli(['bench', 'make', '--repo', shop.dir, '--out', out, '--count', '3', ...flags], {
          env,
        });
        expect(run.code, run.stderr).toBe(0);
        return readTasks(out);
      };
      const own = await tasksOf('shop-own', '--no-reach');
      const indexed = await tasksOf('shop-indexed');
      expect(indexed.map((t) => t.function_name)).toContain('apply_discount');
      expect(verdicts(indexed)).toEqual(verdicts(own));
    } finally {
      shop.cleanup();
    }
  }, 240_000);
});
