import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';

// A repository with a stub and no tests at all: pytest collects nothing.
const repo = mkdtempSync(join(tmpdir(), 'tenet-no-tests-'));
mkdirSync(join(repo, 'pkg'));
writeFileSync(join(repo, 'pkg', '__init__.py'), '');
writeFileSync(join(repo, 'pkg', 'm.py'), 'def add(a, b):\n    """Add."""\n    raise NotImplementedError\n');
const script = `${repo}-script.json`;
writeFileSync(script, '{"turns": []}');
afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(script, { force: true });
});
const TARGET = ['--repo', repo, '--target', 'pkg/m.py::add'];

describe('no test in scope', () => {
  it('tenet thm says pytest collected none and how to point it at tests, not to pass --blank to a stub', async () => {
    const result = await runCli(['thm', ...TARGET]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toContain('pytest collected no test in scope. Point it at the tests: --tests PATH');
    expect(result.stdout).not.toContain('no failing test reached the target');
    expect(result.stdout).not.toContain('--blank');
  }, 60_000);

  it('tenet run ends on the same', async () => {
    const result = await runCli(['run', ...TARGET, '--provider', 'scripted', '--script', script, '--headless']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'tenet: pytest collected no test in scope, so there is nothing to generate pkg/m.py::add against.',
    );
    expect(result.stderr).toContain('fix: point pytest at the tests: --tests PATH');
    expect(result.stderr).not.toContain('--blank');
  }, 60_000);
});

describe('benchmark mode, with tests in scope that do not need the target', () => {
  const real = mkdtempSync(join(tmpdir(), 'tenet-nothing-fails-'));
  mkdirSync(join(real, 'pkg'));
  mkdirSync(join(real, 'tests'));
  writeFileSync(join(real, 'pkg', '__init__.py'), '');
  writeFileSync(join(real, 'pkg', 'm.py'), 'def add(a, b):\n    """Add."""\n    return a + b\n');
  writeFileSync(join(real, 'tests', 'test_other.py'), 'def test_other():\n    assert True\n');
  afterAll(() => rmSync(real, { recursive: true, force: true }));
  const BLANK = ['--repo', real, '--target', 'pkg/m.py::add', '--blank'];
  const WORDS =
    'No test in scope fails with the body blanked: none calls it, or none needs what it does. Widen the scope with --tests (tests that call it), or choose another target.';

  it('tenet thm says nothing fails and what to do', async () => {
    const result = await runCli(['thm', ...BLANK]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout.trimEnd().endsWith(WORDS)).toBe(true);
  }, 60_000);

  it('tenet run ends on the same, not on a stub mode fix ("as it is")', async () => {
    const result = await runCli(['run', ...BLANK, '--provider', 'scripted', '--script', script, '--headless']);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain(
      'tenet: No test in scope fails with the body of pkg/m.py::add blanked: none calls it, or none needs what it does, so there is nothing to generate it against.',
    );
    expect(result.stderr).toContain('fix: widen the scope with --tests (tests that call it), or choose another target');
  }, 60_000);
});
