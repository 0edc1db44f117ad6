import { appendFileSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { loadReachIndex } from '../../source/engine/thm/reach-index';
import { runCli } from '../helpers/cli';
import { copyFixture, ROOT } from '../helpers/fixtures';
import { KEY, startInPty } from '../helpers/pty';

// Issue 44, item 2: the start screen refreshes a stale reach index in the background, says so in a
// quiet line, and shows the new counts; leaving the screen meanwhile cancels the refresh, with no
// pytest process left behind and the index whole.
const SCRIPT = join(ROOT, 'examples', 'invoicing.demo.json');
const scratch: (() => void)[] = [];
afterEach(() => {
  for (const cleanup of scratch.splice(0)) cleanup();
});

/** The concurrent fixture with its reach index recorded, in a cache folder of its own. */
async function indexedRepo() {
  const repo = copyFixture('concurrent');
  const cache = mkdtempSync(join(tmpdir(), 'tenet-reach-refresh-'));
  scratch.push(repo.cleanup, () => rmSync(cache, { recursive: true, force: true }));
  // Every process of this test carries the mark: the ones left behind are found by it.
  const env = { TENET_CACHE_DIR: cache, TENET_E2E_MARK: `reach-refresh-${process.pid}-${Date.now()}` };
  const built = await runCli(['index', '--reach', '--repo', repo.dir], { env });
  expect(built.code, built.stderr).toBe(0);
  return { repo: repo.dir, cache, env };
}

/** The processes (other than this one) whose environment carries the mark. */
function marked(mark: string): number[] {
  const found: number[] = [];
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name) || Number(name) === process.pid) continue;
    try {
      if (readFileSync(`/proc/${name}/environ`, 'latin1').includes(`TENET_E2E_MARK=${mark}`)) found.push(Number(name));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

/** The reach index files of a cache folder, and what else is there (a temporary file left half written). */
function reachFiles(cache: string): { indexes: string[]; others: string[] } {
  const names = readdirSync(join(cache, 'reach'));
  return {
    indexes: names.filter((name) => name.endsWith('.bin')).map((name) => join(cache, 'reach', name)),
    others: names.filter((name) => !name.endsWith('.bin')),
  };
}

/** How many tests an index file records as calling a function. */
function testsReaching(file: string, path: string, qualname: string): number {
  const index = loadReachIndex(file)!;
  const fn = index.functions.findIndex((f) => f.file === path && f.qualname === qualname);
  return Object.values(index.tests).filter((test) => test.fns.includes(fn)).length;
}

describe('the start screen refreshes a stale reach index in the background (issue 44)', () => {
  it('says it is refreshing the stale tests, then shows the new counts', async () => {
    const { repo, cache, env } = await indexedRepo();
    // A new test of weight in a test file the index knows: that file's tests are stale, the new one unknown.
    appendFileSync(
      join(repo, 'tests', 'test_tasks.py'),
      '\n\ndef test_weight_of_a_vowel():\n    assert compute.weight("a") == 2\n',
    );
    // As kept: weight's 3 tests (the refresh adds the new one).
    expect(testsReaching(reachFiles(cache).indexes[0]!, 'flows/compute.py', 'weight')).toBe(3);
    const tui = startInPty(['--repo', repo, '--script', SCRIPT], env);
    const refreshing = await tui.waitFor('index: refreshing 5 stale tests…', 60_000);
    await tui.waitFor('flows/compute.py::weight · 4 tests reach it', 120_000, refreshing);
    await tui.waitFor('index: refreshed, 5 stale tests recorded again', 10_000, refreshing);
    // The search still answers.
    await tui.press('weight', /1 of \d+ functions/);
    // Esc clears the search, a second one leaves.
    tui.send(KEY.escape);
    await tui.settled();
    tui.send(KEY.escape);
    expect(await tui.exited).toBe(0);
  }, 300_000);

  it('quitting while it runs leaves no pytest process and a whole index', async () => {
    const { repo, cache, env } = await indexedRepo();
    const [file] = reachFiles(cache).indexes;
    const old = loadReachIndex(file!)!;
    // A stale test that takes its time: the refresh is still running when the developer leaves.
    appendFileSync(
      join(repo, 'tests', 'test_threads.py'),
      '\n\ndef test_weight_slowly():\n    import time\n    assert compute.weight("a") == 2\n    time.sleep(50)\n',
    );
    const tui = startInPty(['--repo', repo, '--script', SCRIPT], env);
    await tui.waitFor(/index: refreshing \d+ stale tests…/, 60_000);
    // The refresh's pytest runs under the mark (so the check below can see one).
    const started = Date.now();
    while (marked(env.TENET_E2E_MARK).filter((pid) => pid !== tui.pty.pid).length === 0) {
      if (Date.now() - started > 60_000) throw new Error('no process of the refresh was seen');
      await new Promise((r) => setTimeout(r, 100));
    }
    tui.send(KEY.escape);
    expect(await tui.exited).toBe(0);
    // A moment for the kernel to reap what was killed; a process left behind sleeps on for 50 s.
    for (let tries = 0; tries < 50 && marked(env.TENET_E2E_MARK).length; tries++)
      await new Promise((r) => setTimeout(r, 100));
    expect(marked(env.TENET_E2E_MARK)).toEqual([]);
    const after = reachFiles(cache);
    expect(after.others).toEqual([]);
    expect(after.indexes).toEqual([file]);
    const kept = loadReachIndex(file!);
    expect(kept).toBeDefined();
    // The old index, untouched: the refresh was cancelled before it could write.
    expect(kept!.builtAt).toBe(old.builtAt);
    expect(Object.keys(kept!.tests).sort()).toEqual(Object.keys(old.tests).sort());
  }, 300_000);
});
