import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TenetError } from '../../source/engine/errors';
import { copyFixture, FIXTURES } from '../helpers/fixtures';
import { chains, thmOn } from '../helpers/thm';

const SRC = join(FIXTURES, 'srclayout');
const TARGET = 'src/inventory/stock.py::Inventory.reserve';

describe('THM in stub mode on a src/ layout', () => {
  it('finds the failing tests, including a module that calls the target at import time', async () => {
    const { report } = await thmOn(SRC, TARGET);
    expect(report.mode).toBe('stub');
    expect(chains(report)).toEqual({
      'tests/test_defaults.py': [
        'tests/test_defaults.py::<module>',
        'src/inventory/stock.py::default_inventory',
        TARGET,
      ],
      'tests/test_stock.py::test_reserve_all': [
        'tests/test_stock.py::test_reserve_all',
        'src/inventory/stock.py::Inventory.reserve_all',
        'src/inventory/stock.py::Inventory.reserve_all.<locals>.<dictcomp>',
        TARGET,
      ],
      'tests/test_stock.py::test_reserve_returns_remaining': [
        'tests/test_stock.py::test_reserve_returns_remaining',
        TARGET,
      ],
      'tests/test_stock.py::test_reserve_too_many': ['tests/test_stock.py::test_reserve_too_many', TARGET],
    });
    const module = report.failing.find((f) => f.nodeid === 'tests/test_defaults.py')!;
    expect(module).toMatchObject({
      outcome: 'collection',
      entryKind: 'module',
      caller: 'src/inventory/stock.py::default_inventory',
    });
    expect(report.counts).toMatchObject({
      collected: 4,
      passed: 1,
      failing: 4,
      collectionErrors: 1,
      alreadyFailing: 0,
    });
    // The module's chain (depth 2) is shorter than reserve_all's (depth 3, through the dict comprehension).
    expect(report.selected).toEqual([
      'tests/test_stock.py::test_reserve_returns_remaining',
      'tests/test_stock.py::test_reserve_too_many',
      'tests/test_defaults.py',
    ]);
  });

  it('runs the workspace copy even when PYTHONPATH points at the checkout (the environment still reaches pytest)', async () => {
    const env = { ...process.env, PYTHONPATH: join(SRC, 'src'), INVENTORY_MARKER: 'x' };
    const { report } = await thmOn(SRC, TARGET, { env });
    expect(report.failing.filter((f) => f.reached)).toHaveLength(4);
    expect(report.warnings).toEqual([]);
  });

  it('keeps the confined tests from importing the target out of the checkout, which they cannot see', async () => {
    const env = { ...process.env, INVENTORY_HOME: join(SRC, 'src') };
    const { report } = await thmOn(SRC, TARGET, { env });
    expect(report.failing.filter((f) => f.reached)).toHaveLength(4);
  });

  it('says plainly, unconfined, when the tests import the target from outside the workspace', async () => {
    const env = { ...process.env, INVENTORY_HOME: join(SRC, 'src') };
    const error = await thmOn(SRC, TARGET, { env, sandbox: { kind: 'local', unconfined: true } }).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(TenetError);
    expect((error as TenetError).message).toContain(`from ${join(SRC, 'src', 'inventory', 'stock.py')}`);
    expect((error as TenetError).message).toContain("outside tenet's workspace");
  });
});

describe("a module of another package whose path ends as the target's", () => {
  it('is no copy of the target: its name is not one the target is imported under', async () => {
    const repo = copyFixture('srclayout');
    try {
      // otherpkg/inventory/stock.py, installed beside the repository, ends as src/inventory/stock.py does.
      const other = join(repo.dir, '..', `other-${process.pid}`);
      mkdirSync(join(other, 'otherpkg', 'inventory'), { recursive: true });
      writeFileSync(join(other, 'otherpkg', '__init__.py'), '');
      writeFileSync(join(other, 'otherpkg', 'inventory', '__init__.py'), '');
      writeFileSync(join(other, 'otherpkg', 'inventory', 'stock.py'), 'LEVEL = 1\n');
      writeFileSync(
        join(repo.dir, 'tests', 'test_other.py'),
        'import otherpkg.inventory.stock\n\n\ndef test_level():\n    assert otherpkg.inventory.stock.LEVEL == 1\n',
      );
      const { report } = await thmOn(repo.dir, TARGET, { env: { ...process.env, PYTHONPATH: other } });
      expect(report.failing.filter((f) => f.reached)).toHaveLength(4);
      expect(report.warnings).toEqual([]);
    } finally {
      repo.cleanup();
    }
  });
});

describe("the repository's virtual environment", () => {
  let repo: ReturnType<typeof copyFixture>;
  beforeAll(() => {
    repo = copyFixture('srclayout');
    // A venv that sees the machine's pytest, with an editable-style .pth pointing at the checkout.
    execFileSync('python3', ['-m', 'venv', '--system-site-packages', join(repo.dir, '.venv')]);
    const site = execFileSync(
      join(repo.dir, '.venv', 'bin', 'python'),
      ['-c', 'import sysconfig; print(sysconfig.get_paths()["purelib"])'],
      { encoding: 'utf8' },
    ).trim();
    writeFileSync(join(site, '_inventory_editable.pth'), `${join(repo.dir, 'src')}\n`);
  }, 120_000);
  afterAll(() => repo.cleanup());

  it('is used by default, and an editable install of the checkout does not shadow the workspace', async () => {
    const { report } = await thmOn(repo.dir, TARGET);
    expect(report.python.executable).toBe(join(repo.dir, '.venv', 'bin', 'python'));
    expect(report.failing.filter((f) => f.reached)).toHaveLength(4);
    expect(report.warnings).toEqual([]);
  });
});
