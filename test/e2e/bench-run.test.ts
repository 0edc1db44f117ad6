import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { readResults } from '../../source/engine/bench/run-dir';
import { Catalog } from '../../source/engine/session/catalog';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { copyFixture, treeHash } from '../helpers/fixtures';
import { DOCKER_PROBLEM } from '../helpers/sandboxes';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-bench-run-'));
const shop = copyFixture('shop');
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  shop.cleanup();
});

/** The task set as a user makes it: `tenet bench make` over the shop fixture (three tasks). */
async function makeTasks(): Promise<string> {
  const file = join(scratch, 'tasks.jsonl');
  const made = await runCli(['bench', 'make', '--repo', shop.dir, '--out', file, '--count', '3']);
  expect(made.code, made.stderr).toBe(0);
  return file;
}

const script = (name: string, turns: unknown[]) => {
  const file = join(scratch, `${name}.json`);
  writeFileSync(file, JSON.stringify({ label: name, turns }));
  return file;
};
/** Plays the ground truth: the harness is what is measured. */
const ORACLE = script('oracle', [
  { calls: [{ name: 'submit_implementation', arguments: { code: '{{full_function}}' } }] },
]);
/** Waits two seconds in the shell first, so a run can be killed mid-way. */
const SLOW_ORACLE = script('slow', [
  { calls: [{ name: 'run_debugger_cmd', arguments: { cmd: 'sleep 2' } }] },
  { calls: [{ name: 'submit_implementation', arguments: { code: '{{full_function}}' } }] },
]);
/**
 * Returns None: every task fails by its budget (one attempt of one round). Twice: the first
 * submission and the refinement round's, since a script that runs out ends the task first.
 */
const WRONG_TURN = {
  calls: [{ name: 'submit_implementation', arguments: { code: 'def {{name}}(*args, **kwargs):\n    return None\n' } }],
};
const WRONG = script('wrong', [WRONG_TURN, WRONG_TURN]);

describe('tenet bench run', () => {
  const before = treeHash(shop.dir);
  let tasks = '';
  beforeAll(async () => {
    tasks = await makeTasks();
  }, 120_000);

  it('runs every task as a saved session, two at a time, and records one result each', async () => {
    const out = join(scratch, 'oracle');
    const result = await runCli([
      'bench',
      'run',
      tasks,
      '--out',
      out,
      '--provider',
      'scripted',
      '--script',
      ORACLE,
      '--parallel',
      '2',
      '--json',
    ]);
    expect(result.code).toBe(0);
    expect(JSON.parse(result.stdout)).toMatchObject({
      label: 'tenet/scripted',
      tasks: 3,
      finished: 3,
      passed: 3,
      passAt1: 1,
    });
    const results = readResults(out);
    expect(results.map((r) => [r.taskId, r.pass, r.stopReason, r.host]).sort()).toEqual([
      ['shop-0', true, 'passed', 'local'],
      ['shop-1', true, 'passed', 'local'],
      ['shop-2', true, 'passed', 'local'],
    ]);
    // Each is a normal session in the run's sessions folder.
    expect(
      new Catalog(join(out, 'sessions'))
        .list()
        .map((s) => [s.target, s.status])
        .sort(),
    ).toEqual([
      ['shop/pricing.py::apply_discount', 'passed'],
      ['shop/tree.py::category_total', 'passed'],
      ['shop/tree.py::count_leaves', 'passed'],
    ]);
    expect(treeHash(shop.dir)).toBe(before);
  }, 180_000);

  it('a wrong answer fails every task; a second configuration in the same folder is refused', async () => {
    const out = join(scratch, 'wrong');
    const result = await runCli([
      'bench',
      'run',
      tasks,
      '--out',
      out,
      '--provider',
      'scripted',
      '--script',
      WRONG,
      '--rrw-attempts',
      '1',
      '--rrw-rounds',
      '1',
      '--label',
      'wrong',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('wrong: 0/3 passed (Pass@1 0.0%)');
    expect(readResults(out).every((r) => !r.pass && r.stopReason === 'budget' && r.usage.modelCalls === 2)).toBe(true);
    const other = await runCli(['bench', 'run', tasks, '--out', out, '--provider', 'scripted', '--script', ORACLE]);
    expect(other.code).toBe(2);
    expect(other.stderr).toMatch(
      /holds a run with other settings \(wrong\); they differ in script: "[^"]*wrong[^"]*" there, "[^"]*oracle[^"]*" now; the script's content/,
    );
    // The same file with other content is another model too.
    const edited = join(scratch, 'edited.json');
    writeFileSync(edited, readFileSync(WRONG, 'utf8'));
    expect(
      (
        await runCli([
          'bench',
          'run',
          tasks,
          '--out',
          join(scratch, 'edited'),
          '--provider',
          'scripted',
          '--script',
          edited,
          '--rrw-attempts',
          '1',
          '--rrw-rounds',
          '1',
          '--limit',
          '1',
        ])
      ).code,
    ).toBe(0);
    writeFileSync(edited, readFileSync(ORACLE, 'utf8'));
    const changed = await runCli([
      'bench',
      'run',
      tasks,
      '--out',
      join(scratch, 'edited'),
      '--provider',
      'scripted',
      '--script',
      edited,
      '--rrw-attempts',
      '1',
      '--rrw-rounds',
      '1',
    ]);
    expect(changed.code).toBe(2);
    expect(changed.stderr).toMatch(/they differ in the script's content\./);
  }, 180_000);

  it('the report sets the two configurations side by side: 3/3 and 0/3, with the model calls each made', async () => {
    const json = await runCli(['bench', 'report', join(scratch, 'oracle'), join(scratch, 'wrong'), '--format', 'json']);
    expect(json.code).toBe(0);
    const report = JSON.parse(json.stdout) as {
      configurations: {
        label: string;
        overall: Record<string, unknown>;
        repositories: Record<string, { passAt1: number }>;
      }[];
    };
    expect(
      report.configurations.map((c) => [
        c.label,
        c.overall.tasks,
        c.overall.passed,
        c.overall.passAt1,
        c.overall.avgModelCalls,
        c.overall.costOfPass,
      ]),
    ).toEqual([
      ['tenet/scripted', 3, 3, 1, 1, 0],
      ['wrong', 3, 0, 0, 2, null],
    ]);
    expect(report.configurations.map((c) => c.repositories.shop!.passAt1)).toEqual([1, 0]);
    const html = await runCli([
      'bench',
      'report',
      join(scratch, 'oracle'),
      join(scratch, 'wrong'),
      '--format',
      'html',
      '--out',
      join(scratch, 'report.html'),
    ]);
    expect(html.code).toBe(0);
    expect(readFileSync(join(scratch, 'report.html'), 'utf8')).toMatch(
      /<svg[\s\S]*tenet\/scripted[\s\S]*wrong[\s\S]*<\/svg>/,
    );
  });

  it('a task whose verdict cannot be checked records why, and the report says it under Unverified tasks', async () => {
    // Unconfined, the model's shell reaches the checkout: a FIFO planted there makes the verdict unverified.
    const fifo = join(shop.dir, '.planted_fifo');
    const planter = script('planter', [
      { calls: [{ name: 'run_debugger_cmd', arguments: { cmd: `mkfifo ${fifo}` } }] },
      { calls: [{ name: 'submit_implementation', arguments: { code: '{{full_function}}' } }] },
    ]);
    const out = join(scratch, 'unverified');
    try {
      const result = await runCli([
        'bench',
        'run',
        tasks,
        '--out',
        out,
        '--provider',
        'scripted',
        '--script',
        planter,
        '--task',
        'shop-0',
        '--sandbox',
        'local-unconfined',
        '--label',
        'planter',
      ]);
      expect(result.code, result.stderr).toBe(0);
    } finally {
      rmSync(fifo, { force: true });
    }
    const [task] = readResults(out);
    expect(task).toMatchObject({ taskId: 'shop-0', pass: false, stopReason: 'unverified' });
    expect(task!.unverified).toMatch(/^the checkout changed while the agent worked \(\.planted_fifo\)/);
    const md = await runCli(['bench', 'report', out]);
    expect(md.stdout).toContain('## Unverified tasks (counted as failures)');
    expect(md.stdout).toContain(
      `- planter: shop-0 (shop): the checkout changed while the agent worked (.planted\\_fifo)`,
    );
    const json = JSON.parse((await runCli(['bench', 'report', out, '--format', 'json'])).stdout);
    expect(json.configurations[0].unverified).toEqual([
      { taskId: 'shop-0', repository: 'shop', reason: task!.unverified },
    ]);
    expect(treeHash(shop.dir)).toBe(before);
  }, 180_000);

  async function killedMidRun(name: 'local' | 'docker', sandboxArgs: readonly string[]): Promise<void> {
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
      const gc = await runCli(['gc']);
      expect(gc.code, gc.stderr).toBe(0);
    }
  }

  it('closing its terminal (SIGHUP) stops it as a shell reports a hang-up, 129, and says how to go on', async () => {
    const out = join(scratch, 'hung-up');
    const child = startCli([
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
    ]);
    const ended = finished(child);
    await waitFor(() => existsSync(join(out, 'results.jsonl')), 120_000, 'the run to start');
    child.kill('SIGHUP');
    const result = await ended;
    expect(result.code, result.stderr).toBe(129);
    expect(result.stderr).toContain('tenet: SIGHUP: stopping; `tenet bench run` with the same --out goes on from here');
    expect(treeHash(shop.dir)).toBe(before);
  }, 180_000);

  const killedTitle = (name: string) =>
    `killed mid-run (${name}), it goes on where it stopped: finished tasks are kept, not run again`;
  it(killedTitle('local'), () => killedMidRun('local', []), 240_000);
  it.skipIf(!!DOCKER_PROBLEM)(
    killedTitle('docker'),
    () => killedMidRun('docker', ['--sandbox', 'docker', '--parallel', '2']),
    240_000,
  );

  it('two --docker-host are refused: the round-robin over engines is gone (it had no health check or failover), a swarm spreads tasks', async () => {
    const result = await runCli([
      'bench',
      'run',
      tasks,
      '--out',
      join(scratch, 'two-engines'),
      '--provider',
      'scripted',
      '--script',
      ORACLE,
      '--sandbox',
      'docker',
      '--docker-host',
      'unix:///var/run/docker.sock',
      '--docker-host',
      'tcp://10.0.0.2:2375',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('--docker-host');
    expect(result.stderr).toContain(
      'given twice (unix:///var/run/docker.sock, tcp://10.0.0.2:2375): bench run uses one engine. To spread tasks over machines, join their engines into a swarm and pass --on swarm.',
    );
    expect(existsSync(join(scratch, 'two-engines'))).toBe(false);
  });

  it('the swarm flags without --on swarm, and --on swarm with --sandbox docker, are refused before anything runs', async () => {
    const alone = await runCli([
      'bench',
      'run',
      tasks,
      '--out',
      join(scratch, 'no-swarm'),
      '--provider',
      'scripted',
      '--script',
      ORACLE,
      '--network',
      'models',
      '--registry',
      'registry:5000',
    ]);
    expect(alone.code).toBe(2);
    expect(alone.stderr).toContain('--registry, --network go with --on swarm only.');
    const both = await runCli([
      'bench',
      'run',
      tasks,
      '--out',
      join(scratch, 'no-swarm'),
      '--provider',
      'scripted',
      '--script',
      ORACLE,
      '--on',
      'swarm',
      '--sandbox',
      'docker',
    ]);
    expect(both.code).toBe(2);
    expect(both.stderr).toContain('--on swarm runs each task in a container of its own already');
    expect(existsSync(join(scratch, 'no-swarm'))).toBe(false);
  });
});
