import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { FIXTURES } from '../helpers/fixtures';

const SHOP = join(FIXTURES, 'shop');

describe('tenet thm (the built CLI)', () => {
  it('--json prints one object with the documented fields', async () => {
    const result = await runCli([
      'thm',
      '--repo',
      SHOP,
      '--target',
      'shop/cart.py::Cart.total',
      '--blank',
      '-T',
      '2',
      '--json',
    ]);
    expect(result.code).toBe(0);
    const report = JSON.parse(result.stdout);
    expect(report.target).toBe('shop/cart.py::Cart.total');
    expect(report.failing).toHaveLength(3);
    for (const failing of report.failing) {
      expect(Object.keys(failing)).toEqual(
        expect.arrayContaining(['nodeid', 'reached', 'chain', 'depth', 'caller', 'entryKind']),
      );
    }
    expect(report.clusters[0]).toEqual({
      caller: 'tests/test_cart.py::CartTest.test_total',
      tests: ['tests/test_cart.py::CartTest::test_total'],
      representative: 'tests/test_cart.py::CartTest::test_total',
      depth: 1,
    });
    expect(report.selected).toEqual([
      'tests/test_cart.py::CartTest::test_total',
      'tests/test_cart.py::CartTest::test_summary',
    ]);
    expect(report.counts).toMatchObject({ collected: 23, passed: 19, failing: 3, unreached: 0 });
    expect(report.durationMs).toBeGreaterThan(0);
  });

  it('--json says a failure on stdout too, as one object, with the exit code of the error', async () => {
    const result = await runCli(['thm', '--repo', SHOP, '--target', 'shop/cart.py::nope', '--blank', '--json']);
    expect(result.code).toBe(2);
    const said = JSON.parse(result.stdout);
    expect(said.error.message).toMatch(/nope/);
    expect(typeof said.error.fix).toBe('string');
    expect(result.stderr).toMatch(/nope/);
  });

  it('text output shows clusters, chains and the selection', async () => {
    const result = await runCli(['thm', '--repo', SHOP, '--target', 'shop/pricing.py::loyalty_points', '--blank']);
    expect(result.code).toBe(0);
    expect(result.stdout).toContain("Clusters by the target's direct caller (2)"); // the decorator's wrapper holds the target: each test names its use
    expect(result.stdout).toContain(
      'chain: tests/test_loyalty.py::test_points → shop/decorators.py::non_negative.<locals>.wrapper → shop/pricing.py::loyalty_points',
    );
  });

  it('benchmark mode runs both worlds from one collection by default, however few the test files; --jobs 1 forks a twin per test, --two-pass (or its old name --no-fork) makes two passes', async () => {
    const args = ['thm', '--repo', SHOP, '--target', 'shop/cart.py::Cart.total', '--blank', '--json'];
    const plans = await Promise.all(
      [[], ['--jobs', '1'], ['--two-pass'], ['--no-fork']].map(async (extra) =>
        JSON.parse((await runCli([...args, ...extra])).stdout),
      ),
    );
    // (On one core there is no second lane: a blank twin per test.)
    const twoCores = availableParallelism() >= 2;
    expect(plans.map((r) => [r.worlds ?? false, r.twins])).toEqual([
      [twoCores, !twoCores],
      [false, true],
      [false, false],
      [false, false],
    ]);
    // The same decision, however it was reached.
    for (const report of plans.slice(1))
      expect([report.failing, report.selected, report.counts]).toEqual([
        plans[0].failing,
        plans[0].selected,
        plans[0].counts,
      ]);
    const text = await runCli(['thm', '--repo', SHOP, '--target', 'shop/cart.py::Cart.total', '--blank']);
    if (twoCores) expect(text.stdout).toMatch(/one collection, \d lanes? per world/);
  }, 120_000);

  it('everything after --tests goes to pytest', async () => {
    const result = await runCli([
      'thm',
      '--repo',
      SHOP,
      '--target',
      'shop/pricing.py::apply_discount',
      '--blank',
      '--json',
      '--tests',
      'tests/test_tree.py',
    ]);
    expect(JSON.parse(result.stdout).counts).toMatchObject({ collected: 2, failing: 1 });
  });

  it('bad input exits 2 with what to do', async () => {
    const target = await runCli(['thm', '--repo', SHOP, '--target', 'shop/pricing.py::apply_discont']);
    expect(target.code).toBe(2);
    expect(target.stderr).toContain('No function apply_discont in shop/pricing.py');
    expect(target.stderr).toContain('shop/pricing.py::apply_discount');

    // A test that does not exist (here, or in the sandbox's environment) is pytest's usage error, said plainly.
    const absent = await runCli([
      'thm',
      '--repo',
      SHOP,
      '--target',
      'shop/pricing.py::apply_discount',
      '--blank',
      '--tests',
      'tests/test_pricing.py::test_nope',
    ]);
    expect(absent.code).toBe(2);
    expect(absent.stderr).toContain('pytest stopped with exit code 4 (usage error)');
    expect(absent.stderr).toContain('not found');

    const repo = await runCli(['thm', '--repo', '/nonexistent/repo', '--target', 'a.py::f']);
    expect(repo.code).toBe(2);
    expect(repo.stderr).toContain('does not exist');

    const python = await runCli([
      'thm',
      '--repo',
      SHOP,
      '--target',
      'shop/pricing.py::apply_discount',
      '--python',
      '/no/such/python',
    ]);
    expect(python.code).toBe(2);
    expect(python.stderr).toContain('/no/such/python (from --python) was not found');
    expect(python.stderr).toContain('fix:');

    const missing = await runCli(['thm', '--repo', SHOP]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain("required option '--target");

    const pytestArgs = await runCli([
      'thm',
      '--repo',
      SHOP,
      '--target',
      'shop/pricing.py::apply_discount',
      '--tests',
      '--no-such-pytest-flag',
    ]);
    expect(pytestArgs.code).toBe(2);
    expect(pytestArgs.stderr).toContain('pytest could not run the tests');
    expect(pytestArgs.stderr).toContain('--no-such-pytest-flag');
    // Once, though each lane's shard met it.
    expect(pytestArgs.stderr.split('before reporting its results')).toHaveLength(2);
  });

  const venvParent = mkdtempSync(join(tmpdir(), 'tenet-nopytest-'));
  afterAll(() => rmSync(venvParent, { recursive: true, force: true }));

  it('an interpreter without pytest is a clear error with the install command', async () => {
    const venv = join(venvParent, 'venv');
    execFileSync('python3', ['-m', 'venv', '--without-pip', venv]);
    const python = join(venv, 'bin', 'python');
    const result = await runCli(['thm', '--repo', SHOP, '--target', 'shop/pricing.py::apply_discount'], {
      env: { TENET_PYTHON: python },
    });
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(`pytest is not installed for ${python} (from TENET_PYTHON)`);
    expect(result.stderr).toContain(`${python} -m pip install pytest`);
  });
});
