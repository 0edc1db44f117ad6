import { readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResults } from '../../source/engine/bench/run-dir';
import { Catalog } from '../../source/engine/session/catalog';
import { runCli } from '../helpers/cli';
import { treeHash } from '../helpers/fixtures';
import { ORACLE, WRONG, before, scratch, script, shop, tasks } from '../helpers/bench-run';

describe('tenet bench run', () => {
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
});
