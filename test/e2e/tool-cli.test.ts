import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { FIXTURES } from '../helpers/fixtures';

const TOOLBOX = join(FIXTURES, 'toolbox');

describe('tenet tool (the built CLI)', () => {
  it('prints exactly what the model receives', async () => {
    const result = await runCli([
      'tool',
      'search_import_statement',
      '--repo',
      TOOLBOX,
      '--target',
      'geo/shapes.py::area',
      '--arg',
      'file_name=geo/__init__.py',
    ]);
    expect(result.code).toBe(0);
    expect(result.stdout).toBe(
      'Top-level imports of geo/__init__.py:\n<file>geo/__init__.py</file>\n<code>\n2 from geo.shapes import area as shape_area\n3 from .shapes import Circle, Shape\n</code>\n',
    );
  });

  it('turns numbers in --arg into numbers, and reports bad arguments with exit 2', async () => {
    const ok = await runCli([
      'tool',
      'get_code_around_line',
      '--repo',
      TOOLBOX,
      '--target',
      'geo/shapes.py::area',
      '--arg',
      'file_name=geo/shapes.py',
      '--arg',
      'line_number=52',
      '--arg',
      'window_size=0',
    ]);
    expect(ok.stdout).toBe(
      'Code of geo/shapes.py around line 52 (lines 52-52):\n<file>geo/shapes.py</file>\n<code>\n52 def area(shape):\n</code>\n',
    );
    const bad = await runCli([
      'tool',
      'read_file',
      '--repo',
      TOOLBOX,
      '--target',
      'geo/shapes.py::area',
      '--arg',
      'file_name=nope.py',
    ]);
    expect(bad.code).toBe(2);
    expect(bad.stdout).toContain('No file nope.py in the repository.');
  });

  it('lists the tools, and their JSON schemas with --json', async () => {
    const list = await runCli(['tool']);
    expect(list.stdout.split('\n')[0]).toMatch(/^search_class\(class_name\)\s+Find classes by name/);
    const json = JSON.parse((await runCli(['tool', '--json'])).stdout);
    expect(json.map((t: { name: string }) => t.name)).toContain('search_target_usage');
    const unknown = await runCli(['tool', 'search_klass']);
    expect(unknown.code).toBe(2);
    expect(unknown.stderr).toContain('No tool named search_klass');
    expect(unknown.stderr).toContain('search_class');
  });

  it("with a selection (--selected, or THM's with --thm), hides what a run hides", async () => {
    const shop = [
      '--repo',
      join(FIXTURES, 'shop'),
      '--target',
      'shop/cart.py::Cart.total',
      '--blank',
      '--arg',
      'code_str=def test_receipt',
    ];
    const scope = ['--tests', 'tests/test_cart.py'];
    const given = await runCli([
      'tool',
      'search_code',
      ...shop,
      '--selected',
      'tests/test_cart.py::CartTest::test_total',
      ...scope,
    ]);
    expect(given.stdout).toBe('Could not find code def test_receipt in the codebase.\n');
    const thm = await runCli(['tool', 'search_code', ...shop, '--thm', '-T', '2', ...scope]);
    expect(thm.stdout).toBe('Could not find code def test_receipt in the codebase.\n');
    // Without a selection nothing is hidden, and stderr says so (stdout stays the model's text).
    const none = await runCli(['tool', 'search_code', ...shop]);
    expect(none.stdout).toContain('<file>tests/test_cart.py</file>');
    expect(none.stderr).toContain('no selection, so no test is hidden');
  });

  it('run_tests without --selected runs THM first, as a session would', async () => {
    const result = await runCli([
      'tool',
      'run_tests',
      '--repo',
      join(FIXTURES, 'shop'),
      '--target',
      'shop/cart.py::Cart.total',
      '--blank',
    ]);
    expect(result.stdout.split('\n').slice(0, 4)).toEqual([
      'Ran 3 tests: 0 passed, 3 not passing.',
      'FAILED tests/test_cart.py::CartTest::test_total',
      'FAILED tests/test_cart.py::CartTest::test_summary',
      'FAILED tests/test_cart.py::CartTest::test_receipt',
    ]);
  });
});
