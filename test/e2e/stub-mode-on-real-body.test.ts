import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';

// Stub mode on a function that is implemented (the developer forgot --blank): its test passes on
// the body, and the one failing test never calls it.
const repo = mkdtempSync(join(tmpdir(), 'tenet-real-body-'));
mkdirSync(join(repo, 'calc'));
mkdirSync(join(repo, 'tests'));
writeFileSync(join(repo, 'calc', '__init__.py'), '');
writeFileSync(
  join(repo, 'calc', 'core.py'),
  'def total(prices):\n    """The sum of the prices."""\n    return sum(prices)\n',
);
writeFileSync(
  join(repo, 'tests', 'test_core.py'),
  'from calc.core import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n\n\ndef test_unrelated():\n    assert 1 + 1 == 3\n',
);
const script = join(repo, '..', `${repo.split('/').pop()}-script.json`);
writeFileSync(script, '{"turns": []}');
afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(script, { force: true });
});
const TARGET = ['--repo', repo, '--target', 'calc/core.py::total'];
const WARNING = /total already has a real body, not a stub .*If it is finished code, pass --blank \(benchmark mode/;

describe('stub mode on a function with a real body', () => {
  it('tenet thm warns before the suite runs, and says why nothing was selected', async () => {
    const result = await runCli(['thm', ...TARGET]);
    expect(result.code, result.stderr).toBe(0);
    expect(result.stderr).toMatch(new RegExp(`^tenet: warning: ${WARNING.source}`, 'm'));
    expect(result.stdout).toMatch(new RegExp(`^  ! ${WARNING.source}`, 'm'));
    expect(result.stdout).toContain(
      'No failing test reached the target: it already has a real body, and the tests ran against it. If it is finished code, pass --blank (benchmark mode)',
    );
    const json = JSON.parse((await runCli(['thm', ...TARGET, '--json'])).stdout);
    expect(json.targetBody).toBe('implemented');
    expect(json.warnings[0]).toMatch(WARNING);
  }, 60_000);

  it('tenet run warns as it starts, and ends on the mode to change, not on a selection to keep', async () => {
    const result = await runCli(['run', ...TARGET, '--provider', 'scripted', '--script', script, '--headless']);
    expect(result.code).toBe(2);
    const warned = result.stdout.search(WARNING);
    expect(warned).toBeGreaterThan(-1);
    expect(warned).toBeLessThan(result.stdout.indexOf('THM:'));
    expect(result.stderr).toContain(
      'tenet: No test to validate against: the one failing test never reaches calc/core.py::total. total already has a real body, not a stub, and stub mode ran the tests against it.',
    );
    expect(result.stderr).toContain('fix: pass --blank (benchmark mode');
    expect(result.stderr).not.toContain('keep at least one test selected');
  }, 60_000);

  it('a test module that fails to import is not counted as a failing test that never reaches the target', async () => {
    const only = join(repo, 'tests', 'test_core.py');
    writeFileSync(only, 'from calc.core import total\n\n\ndef test_total():\n    assert total([1, 2]) == 3\n');
    writeFileSync(join(repo, 'tests', 'test_paths.py'), 'import calc_missing_helpers\n');
    try {
      const result = await runCli(['run', ...TARGET, '--provider', 'scripted', '--script', script, '--headless']);
      expect(result.code).toBe(2);
      expect(result.stderr).toContain(
        'tenet: No test to validate against: no test in scope fails with calc/core.py::total as it is (1 test module failed to import, so its tests did not run).',
      );
    } finally {
      rmSync(join(repo, 'tests', 'test_paths.py'));
    }
  }, 60_000);

  it('a stub gets no such warning', async () => {
    writeFileSync(
      join(repo, 'calc', 'core.py'),
      'def total(prices):\n    """The sum of the prices."""\n    raise NotImplementedError\n',
    );
    const result = await runCli(['thm', ...TARGET]);
    expect(result.stderr + result.stdout).not.toContain('already has a real body');
  }, 60_000);
});
