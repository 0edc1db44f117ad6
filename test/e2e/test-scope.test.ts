import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';

/**
 * The tests a run validates against and is judged by run as THM found them: with the arguments of
 * the scope the developer gave (--tests), wherever the ini file's testpaths point pytest.
 */

const scratch = mkdtempSync(join(tmpdir(), 'tenet-test-scope-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** A src/ layout whose ini file points pytest's testpaths at another folder than the package's tests. */
function srcLayout(name: string, ini: string): string {
  const repo = join(scratch, name);
  mkdirSync(join(repo, 'src', 'pkg', 'tests'), { recursive: true });
  mkdirSync(join(repo, 'other'));
  writeFileSync(join(repo, 'pyproject.toml'), ini);
  writeFileSync(join(repo, 'src', 'pkg', '__init__.py'), '');
  writeFileSync(join(repo, 'src', 'pkg', 'core.py'), 'def double(x):\n    """Twice x."""\n    return x * 2\n');
  writeFileSync(join(repo, 'src', 'pkg', 'tests', '__init__.py'), '');
  writeFileSync(
    join(repo, 'src', 'pkg', 'tests', 'test_core.py'),
    'from pkg.core import double\n\n\ndef test_double(request):\n    assert double(2) == 2 * int(request.config.getoption("--factor"))\n\n\ndef test_double_negative():\n    assert double(-1) == -2\n\n\ndef test_unrelated():\n    assert True\n',
  );
  // An option of the suite's own (as --runslow or --db-url are), given in the scope: its default is wrong here.
  writeFileSync(
    join(repo, 'conftest.py'),
    'def pytest_addoption(parser):\n    parser.addoption("--factor", default="3")\n',
  );
  writeFileSync(join(repo, 'other', 'test_misc.py'), 'def test_misc():\n    assert True\n');
  return repo;
}

const TESTPATHS_ELSEWHERE = '[tool.pytest.ini_options]\npythonpath = ["src"]\ntestpaths = ["other"]\n';

describe('the scope every test run uses', () => {
  it("a scope outside the ini file's testpaths, with an option of the suite's own: validation and the evaluation run the tests THM found there, with that option, and the run passes", async () => {
    const repo = srcLayout('testpaths', TESTPATHS_ELSEWHERE);
    const script = join(scratch, 'right.json');
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          {
            calls: [
              {
                name: 'submit_implementation',
                arguments: { code: 'def double(x):\n    """Twice x."""\n    return x * 2\n' },
              },
            ],
          },
        ],
      }),
    );
    const result = await runCli([
      'run',
      '--repo',
      repo,
      '--target',
      'src/pkg/core.py::double',
      '--blank',
      '--headless',
      '--provider',
      'scripted',
      '--script',
      script,
      '-T',
      '1',
      '--tests',
      'src/pkg/tests',
      '--factor',
      '2',
    ]);
    expect(result.code, result.stderr + result.stdout).toBe(0);
    expect(result.stdout).toMatch(/^PASS · selected 1\/1 · hidden 1\/1/m);
    expect(result.stdout).not.toContain('NOT RUN');
  }, 120_000);

  it('a scope of test ids (what bench make writes), one of them hidden while the agent works: validation runs the selected test, and a right first submission passes', async () => {
    const repo = join(scratch, 'ids');
    mkdirSync(join(repo, 'pkg'), { recursive: true });
    mkdirSync(join(repo, 'tests'));
    writeFileSync(join(repo, 'pkg', '__init__.py'), '');
    writeFileSync(join(repo, 'pkg', 'core.py'), 'def double(x):\n    """Twice x."""\n    return x * 2\n');
    writeFileSync(
      join(repo, 'tests', 'test_a.py'),
      'from pkg.core import double\n\n\ndef test_a():\n    assert double(2) == 4\n\n\ndef test_other():\n    assert True\n',
    );
    writeFileSync(
      join(repo, 'tests', 'test_b.py'),
      'from pkg.core import double\n\n\ndef test_b():\n    assert double(3) == 6\n',
    );
    const script = join(scratch, 'ids.json');
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          {
            calls: [
              {
                name: 'submit_implementation',
                arguments: { code: 'def double(x):\n    """Twice x."""\n    return x * 2\n' },
              },
            ],
          },
        ],
      }),
    );
    const result = await runCli([
      'run',
      '--repo',
      repo,
      '--target',
      'pkg/core.py::double',
      '--blank',
      '--headless',
      '--provider',
      'scripted',
      '--script',
      script,
      '-T',
      '1',
      '--json',
      '--tests',
      'tests/test_a.py::test_a',
      'tests/test_b.py::test_b',
    ]);
    const last = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(last, result.stderr).toMatchObject({
      type: 'result',
      pass: true,
      selectedTests: { passed: 1, total: 1 },
      hiddenTests: { passed: 1, total: 1 },
      rounds: { rrwAttempts: 0 },
    });
    expect(result.stdout).not.toContain('NOT RUN');
  }, 120_000);

  it("the scope's -k does not drop a chosen test it would not match (the agent's own tests are such)", async () => {
    const repo = srcLayout('keyword', '[tool.pytest.ini_options]\npythonpath = ["src"]\n');
    const run = await runCli([
      'tool',
      'run_tests',
      '--repo',
      repo,
      '--target',
      'src/pkg/core.py::double',
      '--blank',
      '--selected',
      'src/pkg/tests/test_core.py::test_double',
      'src/pkg/tests/test_core.py::test_double_negative',
      '--tests',
      'src/pkg/tests',
      '-k',
      'negative',
      '--factor',
      '2',
    ]);
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout).toContain('Ran 2 tests: 0 passed, 2 not passing.');
    expect(run.stdout).toContain('FAILED src/pkg/tests/test_core.py::test_double\n');
    expect(run.stdout).toContain('FAILED src/pkg/tests/test_core.py::test_double_negative\n');
  }, 120_000);

  it('a --tests path pytest does not find is refused with where it is in the repository (a src/ layout)', async () => {
    const repo = srcLayout('missing', TESTPATHS_ELSEWHERE);
    const result = await runCli([
      'thm',
      '--repo',
      repo,
      '--target',
      'src/pkg/core.py::double',
      '--blank',
      '--tests',
      'pkg/tests',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('ERROR: file or directory not found: pkg/tests\n');
    expect(result.stderr).not.toMatch(/\n\s*\n/);
    expect(result.stderr).toContain(
      "fix: pytest found no pkg/tests; paths are from the repository's root: --tests src/pkg/tests\n",
    );
  }, 60_000);

  it("tenet's own options written after --tests, which pytest refuses, are named with where they go", async () => {
    const repo = srcLayout('options-after', TESTPATHS_ELSEWHERE);
    const result = await runCli([
      'thm',
      '--repo',
      repo,
      '--target',
      'src/pkg/core.py::double',
      '--tests',
      'src/pkg/tests',
      '--blank',
      '-T',
      '2',
    ]);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('unrecognized arguments: --blank -T 2');
    expect(result.stderr).toContain(
      "fix: pytest does not know --blank, -T. Everything after --tests goes to pytest: tenet's own options go before --tests\n",
    );
  }, 60_000);
});
