import { execFileSync } from 'node:child_process';
import { chmodSync, mkdirSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { applyToCheckout, unifiedPatch } from '../../source/engine/eval/patch';
import { entryPassed } from '../../source/engine/run/finish-run';
import { LocalSandbox } from '../../source/engine/sandbox/local-sandbox';
import { hideTests, withoutTests } from '../../source/engine/task/hide-tests';
import { Workspace } from '../../source/engine/workspace/workspace';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-apply-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('applying the result to the checkout', () => {
  it('writes the file, keeping its mode, only if it is still what the run started from', () => {
    const repo = join(scratch, 'repo');
    mkdirSync(repo, { recursive: true });
    writeFileSync(join(repo, 'm.py'), 'def f():\n    pass\n');
    chmodSync(join(repo, 'm.py'), 0o640);
    const start = { text: 'def f():\n    pass\n', encoding: 'utf8' as const };
    applyToCheckout(repo, 'm.py', start, 'def f():\n    return 1\n');
    expect(readFileSync(join(repo, 'm.py'), 'utf8')).toBe('def f():\n    return 1\n');
    expect(statSync(join(repo, 'm.py')).mode & 0o777).toBe(0o640);
    expect(() => applyToCheckout(repo, 'm.py', start, 'def f():\n    return 2\n')).toThrow('m.py changed in the checkout since the run started; the patch was not applied.');
    expect(readFileSync(join(repo, 'm.py'), 'utf8')).toBe('def f():\n    return 1\n');
  });

  it('the patch is a git-style unified diff', () => {
    expect(unifiedPatch('m.py', 'a\nb\n', 'a\nc\n')).toBe('--- a/m.py\n+++ b/m.py\n@@ -1,2 +1,2 @@\n a\n-b\n+c\n');
    expect(unifiedPatch('m.py', 'same\n', 'same\n')).toBe('');
  });
});

describe('hiding the tests the agent must not see', () => {
  it('removes hidden test functions without a trace, keeps selected ones (and shared parametrised ones), and restores', async () => {
    const repo = join(scratch, 'hide');
    mkdirSync(join(repo, 'tests'), { recursive: true });
    const original = [
      'import pytest',
      '',
      'def test_kept():',
      '    assert True',
      '',
      '@pytest.mark.parametrize("x", [1, 2])',
      'def test_param(x):',
      '    assert x',
      '',
      'class TestGroup:',
      '    def test_hidden(self):',
      '        assert secret() == 42',
      '',
      'def test_also_hidden():',
      '    assert secret() == 42',
      '',
    ].join('\n');
    writeFileSync(join(repo, 'tests', 'test_a.py'), original);
    const workspace = await Workspace.create(repo);
    const sandbox = new LocalSandbox(workspace.root);
    try {
      const hidden = await hideTests(
        workspace,
        sandbox,
        ['tests/test_a.py::TestGroup::test_hidden', 'tests/test_a.py::test_also_hidden', 'tests/test_a.py::test_param[2]'],
        ['tests/test_a.py::test_kept', 'tests/test_a.py::test_param[1]'],
      );
      expect(hidden.hidden).toEqual(['tests/test_a.py::TestGroup::test_hidden', 'tests/test_a.py::test_also_hidden']);
      const text = readFileSync(workspace.path('tests/test_a.py'), 'utf8');
      expect(text).not.toContain('secret');
      expect(text).toBe(['import pytest', '', 'def test_kept():', '    assert True', '', '@pytest.mark.parametrize("x", [1, 2])', 'def test_param(x):', '    assert x', '', 'class TestGroup:', '    pass', ''].join('\n'));
      expect(text).toContain('def test_param(x):');
      await hidden.restore();
      expect(readFileSync(workspace.path('tests/test_a.py'), 'utf8')).toBe(original);
    } finally {
      await sandbox.dispose();
      await workspace.dispose();
    }
  });
});

describe('withoutTests: the module the agent reads', () => {
  const module = [
    'import pytest',
    '',
    'SHARED = 3',
    '',
    '',
    '# Regression test for issue 12: the secret answer.',
    '@pytest.mark.slow',
    'def test_secret():',
    '    assert secret() == 42',
    '',
    '',
    'def test_kept():',
    '    assert SHARED == 3',
    '',
    '',
    'class TestAllHidden:',
    '    """Checks of the answer."""',
    '',
    '    def test_one(self):',
    '        assert secret()',
    '',
    'class TestOnlyHidden:',
    '    # every test of this class is hidden (a comment attached to a test goes with it)',
    '    def test_two(self):',
    '        assert secret()',
    '',
    '    def test_three(self):',
    '        assert secret()',
    '',
    '',
    'if True:',
    '    def test_guarded():',
    '        assert secret()',
    '',
    '    def test_also_kept():',
    '        assert True',
    '',
  ].join('\n');
  const python = (text: string) => execFileSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: text });

  it('leaves no marker, no gap, and no comment about a hidden test; the module still parses', async () => {
    const { text, removed } = await withoutTests(module, ['test_secret', 'TestAllHidden.test_one', 'TestOnlyHidden.test_two', 'TestOnlyHidden.test_three', 'test_guarded', 'test_missing']);
    expect(removed).toEqual(['test_secret', 'TestAllHidden.test_one', 'TestOnlyHidden.test_two', 'TestOnlyHidden.test_three', 'test_guarded']);
    expect(text).toBe(
      [
        'import pytest',
        '',
        'SHARED = 3',
        '',
        '',
        'def test_kept():',
        '    assert SHARED == 3',
        '',
        '',
        'class TestAllHidden:',
        '    """Checks of the answer."""',
        '',
        'class TestOnlyHidden:',
        '    pass',
        '',
        '',
        'if True:',
        '',
        '    def test_also_kept():',
        '        assert True',
        '',
      ].join('\n'),
    );
    expect(text).not.toMatch(/secret\(|hides|Regression/);
    python(text);
  });
});

describe('entryPassed', () => {
  it('a test passes by itself; a module entry when all its tests pass', () => {
    const outcomes = { 't.py::a': 'passed', 'm.py::x': 'passed', 'm.py::y': 'failed', 'n.py::z': 'passed' };
    expect(entryPassed('t.py::a', outcomes)).toBe(true);
    expect(entryPassed('m.py', outcomes)).toBe(false);
    expect(entryPassed('n.py', outcomes)).toBe(true);
    expect(entryPassed('o.py', outcomes)).toBe(false);
  });
});
