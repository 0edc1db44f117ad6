import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { spreadOrder } from '../../source/engine/bench/make-order';
import { taskRow } from '../../source/engine/bench/make-row';
import { prepareTarget } from '../../source/engine/task/prepare-target';
import { resolveTarget } from '../../source/engine/task/resolve-target';
import type { ThmReport } from '../../source/engine/protocol/thm-report';
import { FIXTURES } from '../helpers/fixtures';
import { optionArgs, relevantTestPath, scopeArgs } from '../../source/engine/bench/make-scope';
import { readTasks, taskRepo, taskTarget, taskTestArgs } from '../../source/engine/bench/task';
import { modelsForTasks } from '../../source/engine/bench/task-model';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-bench-task-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A row as RepoCod's dataset has it: its test list lives in its Docker image, at /usr/src/app/target_test_cases/. */
const repocodRow = {
  repository: 'astropy',
  repo_id: 17,
  target_module_path: 'astropy/io/fits/diff.py',
  prompt: 'def _report(self):\n    """Report."""\n',
  full_function: 'def _report(self):\n    return 1\n',
  function_name: 'FITSDiff._report',
  relavent_test_path: '/usr/src/app/target_test_cases/failed_tests_FITSDiff._report.txt',
};

describe('tasks files', () => {
  it("reads RepoCod's rows: the target, the checkout under --repos, and the test list from the checkout", () => {
    const file = join(scratch, 'repocod.jsonl');
    writeFileSync(
      file,
      `${JSON.stringify(repocodRow)}\n\n${JSON.stringify({ ...repocodRow, repo_id: 18, relavent_test_path: 'astropy/io/fits/tests' })}\n`,
    );
    const [first, second] = readTasks(file);
    expect(first!.repo_id).toBe('17');
    expect(taskTarget(first!)).toBe('astropy/io/fits/diff.py::FITSDiff._report');
    expect(taskRepo(first!, join(scratch, 'repos'))).toBe(join(scratch, 'repos', 'astropy'));
    expect(() => taskRepo(first!)).toThrow(
      expect.objectContaining({
        message: expect.stringContaining('does not say where astropy is checked out'),
        fix: expect.stringContaining('pass --repos DIR'),
      }),
    );

    const checkout = join(scratch, 'repos', 'astropy');
    // Not there yet: the project's own configuration is the scope.
    expect(taskTestArgs(first!, checkout)).toEqual([]);
    mkdirSync(join(checkout, 'target_test_cases'), { recursive: true });
    writeFileSync(
      join(checkout, 'target_test_cases', 'failed_tests_FITSDiff._report.txt'),
      '# the tests\nastropy/io/fits/tests/test_diff.py::TestDiff::test_a\n\nastropy/io/fits/tests/test_diff.py::test_b[1]\n',
    );
    expect(taskTestArgs(first!, checkout)).toEqual([
      'astropy/io/fits/tests/test_diff.py::TestDiff::test_a',
      'astropy/io/fits/tests/test_diff.py::test_b[1]',
    ]);
    // A folder or file path is a pytest argument as it is.
    expect(taskTestArgs(second!, checkout)).toEqual(['astropy/io/fits/tests']);
  });

  it('names the line of a bad row, and refuses two tasks with one id', () => {
    const file = join(scratch, 'bad.jsonl');
    writeFileSync(file, `${JSON.stringify(repocodRow)}\n{"repository": "astropy", "repo_id": 2}\n`);
    expect(() => readTasks(file)).toThrow(/bad\.jsonl:2: the task has no target_module_path, function_name/);
    writeFileSync(file, `${JSON.stringify(repocodRow)}\n{not json\n`);
    expect(() => readTasks(file)).toThrow(/bad\.jsonl:2 is not valid JSON/);
    writeFileSync(file, JSON.stringify([repocodRow, repocodRow]));
    expect(() => readTasks(file)).toThrow(/two tasks are astropy-17/);
  });
});

describe('bench make: order and scope', () => {
  const items = ['a.py', 'a.py', 'a.py', 'b.py', 'c.py'].map((file, i) => ({ file, i }));

  it('spreads candidates over files, and the same seed gives the same order', () => {
    const order = spreadOrder(items, 7);
    expect(order).toHaveLength(5);
    expect(new Set(order.map((x) => x.i))).toEqual(new Set([0, 1, 2, 3, 4]));
    // One from each file before a second from any.
    expect(new Set(order.slice(0, 3).map((x) => x.file))).toEqual(new Set(['a.py', 'b.py', 'c.py']));
    expect(spreadOrder(items, 7)).toEqual(order);
    const orders = new Set([1, 2, 3, 4, 5, 6].map((seed) => JSON.stringify(spreadOrder(items, seed))));
    expect(orders.size).toBeGreaterThan(1);
  });

  it('keeps options, lists single tests in run order, and lets a file stand whole only when that is no wider', () => {
    const runs = {
      perFile: new Map([
        ['t/test_a.py', 2],
        ['t/test_b.py', 3],
      ]),
      order: new Map([
        ['t/test_b.py::y', 4],
        ['t/test_b.py::x', 3],
        ['t/test_a.py::p', 0],
        ['t/test_a.py::q', 1],
      ]),
    };
    const user = ['-k', 'not slow', 't'];
    const options = optionArgs(user, ['t']);
    expect(options).toEqual(['-k', 'not slow']);
    const reached = ['t/test_b.py::y', 't/test_a.py::q', 't/test_a.py::p', 't/test_b.py::x'];
    expect(scopeArgs(options, reached, runs, ['t'])).toEqual([
      '-k',
      'not slow',
      't/test_a.py',
      't/test_b.py::x',
      't/test_b.py::y',
    ]);
    // The user named one test: the pass did not run all of t/test_a.py.
    expect(scopeArgs([], ['t/test_a.py::p', 't/test_a.py::q'], runs, ['t/test_a.py::p', 't/test_a.py::q'])).toEqual([
      't/test_a.py::p',
      't/test_a.py::q',
    ]);
    // A module that called the function while being imported: the whole file.
    expect(scopeArgs([], ['t/test_b.py'], runs)).toEqual(['t/test_b.py']);
  });

  it("gives RepoCod's test path: the one file, else the deepest common folder", () => {
    expect(relevantTestPath(['t/a/test_x.py::f', 't/a/test_x.py::g'])).toBe('t/a/test_x.py');
    expect(relevantTestPath(['t/a/test_x.py::f', 't/b/test_y.py::g'])).toBe('t');
    expect(relevantTestPath(['test_x.py::f', 'pkg/tests/test_y.py::g'])).toBe('.');
    expect(relevantTestPath([])).toBe('');
  });
});

describe('bench make: task rows', () => {
  it("indents a method's full_function as the file does, like its prompt", async () => {
    const repoDir = join(FIXTURES, 'shop');
    const target = await prepareTarget(await resolveTarget(repoDir, 'shop/cart.py::Cart.total'), 'blank');
    const fn = {
      file: 'shop/cart.py',
      qualname: 'Cart.total',
      name: 'total',
      startLine: target.startLine,
      defLine: target.startLine,
      endLine: target.startLine + 1,
      statements: 1,
      ambiguous: false,
    };
    const report = { failing: [{ nodeid: 'tests/test_cart.py::CartTest::test_total' }] } as unknown as ThmReport;
    const row = taskRow({
      repository: 'shop',
      index: 0,
      repoDir,
      fn,
      target,
      testArgs: ['tests/test_cart.py'],
      report,
    });
    expect(row.full_function.split('\n')[0]).toBe('    def total(self):');
    expect(row.prompt.split('\n')[0]).toBe('    def total(self):');
    expect(readFileSync(join(repoDir, 'shop/cart.py'), 'utf8')).toContain(row.full_function);
    expect(row.relavent_test_path).toBe('tests/test_cart.py');
  });
});

describe("bench run: a scripted model's script", () => {
  const [task] = (() => {
    const file = join(scratch, 'one.jsonl');
    writeFileSync(file, `${JSON.stringify(repocodRow)}\n`);
    return readTasks(file);
  })();
  const modelFor = (script: string) => {
    const file = join(scratch, 'script.json');
    writeFileSync(file, script);
    return () => modelsForTasks({}, { provider: 'scripted', script: file })(task!);
  };

  it('plays each task with its values filled in', () => {
    const model = modelFor(
      JSON.stringify({
        turns: [{ say: 'x', calls: [{ name: 'submit_implementation', arguments: { code: '{{full_function}}' } }] }],
      }),
    );
    expect(model().settings.model).toBe('scripted');
  });

  it('a script that is not JSON, or calls a tool tenet lacks, is refused naming its file', () => {
    const broken = modelFor('{"turns": [');
    expect(broken).toThrow(
      expect.objectContaining({
        message: expect.stringMatching(
          /^Model script .*script\.json is not JSON \(with task astropy-17's values filled in\)/,
        ),
        fix: expect.stringContaining('pass --script with'),
      }),
    );
    const wrongTool = modelFor(JSON.stringify({ turns: [{ calls: [{ name: 'submit_code', arguments: {} }] }] }));
    expect(wrongTool).toThrow(
      /^Model script .*script\.json, turn 1: no tool submit_code \(closest: submit_implementation/,
    );
  });
});
