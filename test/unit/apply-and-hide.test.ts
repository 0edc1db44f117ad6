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
    expect(() => applyToCheckout(repo, 'm.py', start, 'def f():\n    return 2\n')).toThrow(
      'm.py changed in the checkout since the run started; the patch was not applied.',
    );
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
        [
          'tests/test_a.py::TestGroup::test_hidden',
          'tests/test_a.py::test_also_hidden',
          'tests/test_a.py::test_param[2]',
        ],
        ['tests/test_a.py::test_kept', 'tests/test_a.py::test_param[1]'],
      );
      expect(hidden.hidden).toEqual(['tests/test_a.py::TestGroup::test_hidden', 'tests/test_a.py::test_also_hidden']);
      const text = readFileSync(workspace.path('tests/test_a.py'), 'utf8');
      expect(text).not.toContain('secret');
      expect(text).toBe(
        [
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
          '    pass',
          '',
        ].join('\n'),
      );
      expect(text).toContain('def test_param(x):');
      await hidden.restore();
      expect(readFileSync(workspace.path('tests/test_a.py'), 'utf8')).toBe(original);
    } finally {
      await sandbox.dispose();
      await workspace.dispose();
    }
  });
});

describe('hiding tests a decorator generates, or a class inherits', () => {
  // libcst's @data_provider turns test_valid into test_valid_0, test_valid_1: no `def` has their
  // names; THM's chains name the function they run (test_valid), and so does a mixin's test.
  const original = [
    'from helpers import data_provider',
    '',
    'class Checks:',
    '    def test_inherited(self):',
    '        assert secret()',
    '',
    'class TestA(Checks):',
    '    @data_provider([(1,), (2,)])',
    '    def test_valid(self, x):',
    '        assert secret() == x',
    '',
    '    @data_provider([(3,)])',
    '    def test_other(self, x):',
    '        assert secret() == x',
    '',
    'class TestB(Checks):',
    '    def test_kept(self):',
    '        assert True',
    '',
  ].join('\n');
  const FILE = 'tests/test_gen.py';
  const entries = new Map([
    [`${FILE}::TestA::test_valid_0`, `${FILE}::TestA.test_valid`],
    [`${FILE}::TestA::test_valid_1`, `${FILE}::TestA.test_valid`],
    [`${FILE}::TestA::test_other_0`, `${FILE}::TestA.test_other`],
    [`${FILE}::TestA::test_inherited`, `${FILE}::Checks.test_inherited`],
    [`${FILE}::TestB::test_inherited`, `${FILE}::Checks.test_inherited`],
  ]);

  async function hidden(hide: string[], keep: string[]): Promise<{ ids: string[]; text: string }> {
    const repo = mkdtempSync(join(scratch, 'generated-'));
    mkdirSync(join(repo, 'tests'));
    writeFileSync(join(repo, FILE), original);
    const workspace = await Workspace.create(repo);
    const sandbox = new LocalSandbox(workspace.root);
    try {
      const result = await hideTests(workspace, sandbox, hide, keep, entries);
      return { ids: result.hidden, text: readFileSync(workspace.path(FILE), 'utf8') };
    } finally {
      await sandbox.dispose();
      await workspace.dispose();
    }
  }

  it('takes out the function their chains entered by, unless a kept test runs it too', async () => {
    const all = [...entries.keys()];
    const kept = `${FILE}::TestA::test_valid_0`;
    const { ids, text } = await hidden(
      all.filter((id) => id !== kept),
      [kept],
    );
    expect(ids).toEqual([
      `${FILE}::TestA::test_other_0`,
      `${FILE}::TestA::test_inherited`,
      `${FILE}::TestB::test_inherited`,
    ]);
    expect(text).toContain('def test_valid(self, x):');
    expect(text).not.toContain('def test_other');
    expect(text).not.toContain('test_inherited');
  });

  it("keeps a mixin's test one kept class inherits, for every class", async () => {
    const kept = `${FILE}::TestB::test_inherited`;
    const { ids, text } = await hidden([`${FILE}::TestA::test_inherited`, `${FILE}::TestA::test_valid_1`], [kept]);
    expect(ids).toEqual([`${FILE}::TestA::test_valid_1`]);
    expect(text).toContain('def test_inherited(self):');
    expect(text).not.toContain('def test_valid');
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
  const python = (text: string) =>
    execFileSync('python3', ['-c', 'import ast, sys; ast.parse(sys.stdin.read())'], { input: text });

  it('leaves no marker, no gap, and no comment about a hidden test; the module still parses', async () => {
    const { text, removed } = await withoutTests(module, [
      'test_secret',
      'TestAllHidden.test_one',
      'TestOnlyHidden.test_two',
      'TestOnlyHidden.test_three',
      'test_guarded',
      'test_missing',
    ]);
    expect(removed).toEqual([
      'test_secret',
      'TestAllHidden.test_one',
      'TestOnlyHidden.test_two',
      'TestOnlyHidden.test_three',
      'test_guarded',
    ]);
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
