import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { readResults } from '../../source/engine/bench/run-dir';
import { finished, runCli, startCli, waitFor } from './cli';
import { withEngineGcLock } from './engine-lock';
import { copyFixture, treeHash } from './fixtures';

// `tenet bench run` on the shop fixture's tasks: shared by test/e2e/bench-run*.test.ts.
export const scratch = mkdtempSync(join(tmpdir(), 'tenet-bench-run-'));
export const shop = copyFixture('shop');
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  shop.cleanup();
});

/** The task set as a user makes it: `tenet bench make` over the shop fixture (three tasks). */
export async function makeTasks(): Promise<string> {
  const file = join(scratch, 'tasks.jsonl');
  const made = await runCli(['bench', 'make', '--repo', shop.dir, '--out', file, '--count', '3']);
  expect(made.code, made.stderr).toBe(0);
  return file;
}

export const script = (name: string, turns: unknown[]) => {
  const file = join(scratch, `${name}.json`);
  writeFileSync(file, JSON.stringify({ label: name, turns }));
  return file;
};
/** Plays the ground truth: the harness is what is measured. */
export const ORACLE = script('oracle', [
  { calls: [{ name: 'submit_implementation', arguments: { code: '{{full_function}}' } }] },
]);
/** Waits two seconds in the shell first, so a run can be killed mid-way. */
export const SLOW_ORACLE = script('slow', [
  { calls: [{ name: 'run_debugger_cmd', arguments: { cmd: 'sleep 2' } }] },
  { calls: [{ name: 'submit_implementation', arguments: { code: '{{full_function}}' } }] },
]);
/**
 * Returns None: every task fails by its budget (one attempt of one round). Twice: the first
 * submission and the refinement round's, since a script that runs out ends the task first.
 */
export const WRONG_TURN = {
  calls: [{ name: 'submit_implementation', arguments: { code: 'def {{name}}(*args, **kwargs):\n    return None\n' } }],
};
export const WRONG = script('wrong', [WRONG_TURN, WRONG_TURN]);

/** The checkout as it was: no run may change it. */
export const before = treeHash(shop.dir);
/** The task set, made once per test file. */
export let tasks = '';
beforeAll(async () => {
  tasks = await makeTasks();
}, 120_000);

export async function killedMidRun(name: 'local' | 'docker', sandboxArgs: readonly string[]): Promise<void> {
  const out = join(scratch, `killed-${name}`);
  const args = [
    'bench',
    'run',
    tasks,
    '--out',
    out,
    '--provider',
    'scripted',
    '--script',
    SLOW_ORACLE,
    '--parallel',
    '1',
    ...sandboxArgs,
  ];
  const child = startCli(args);
  await waitFor(
    () =>
      existsSync(join(out, 'results.jsonl')) &&
      // Lines, not the empty file a run may open before its first result.
      readFileSync(join(out, 'results.jsonl'), 'utf8').trim().split('\n').filter(Boolean).length >= 1,
    120_000,
    'the first task to finish',
  );
  child.kill('SIGKILL');
  await finished(child);
  const first = readResults(out);
  expect(first.length).toBeGreaterThanOrEqual(1);
  expect(first.length).toBeLessThan(3);
  const again = await runCli(args);
  expect(again.code).toBe(0);
  const lines = readFileSync(join(out, 'results.jsonl'), 'utf8')
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as { taskId: string; sessionId: string });
  // One line per task: the ones finished before the kill were not run again.
  expect(lines.map((l) => l.taskId).sort()).toEqual(['shop-0', 'shop-1', 'shop-2']);
  for (const kept of first) expect(lines.find((l) => l.taskId === kept.taskId)!.sessionId).toBe(kept.sessionId);
  expect(readResults(out).every((r) => r.pass)).toBe(true);
  expect(treeHash(shop.dir)).toBe(before);
  // SIGKILL gives tenet no chance to remove its containers: `tenet gc` does.
  if (name === 'docker') {
    const gc = await withEngineGcLock(() => runCli(['gc']));
    expect(gc.code, gc.stderr).toBe(0);
  }
}

export const killedTitle = (name: string) =>
  `killed mid-run (${name}), it goes on where it stopped: finished tasks are kept, not run again`;
