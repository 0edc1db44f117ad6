import { lstatSync, mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';

// Issue 33, item 5: a test file that is a link to another test file of the repository. Hiding
// the tests the agent must not see edits both names; the second was read after the first was
// changed (through the link), so the selected test was hidden too (NOT RUN) and the evaluation
// restored the hidden state in place of the original: right code failed, hidden 1/5.
const scratch = mkdtempSync(join(tmpdir(), 'tenet-linked-tests-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a test file that links to another test file', () => {
  it('validation runs the selected test, the evaluation every failing one, and right code passes', async () => {
    const repo = join(scratch, 'repo');
    mkdirSync(join(repo, 'pkg'), { recursive: true });
    mkdirSync(join(repo, 'tests'));
    writeFileSync(join(repo, 'pkg', '__init__.py'), '');
    const code = 'def double(x):\n    """Twice x."""\n    return x * 2\n';
    writeFileSync(join(repo, 'pkg', 'core.py'), code);
    const tests =
      'from pkg.core import double\n\n\ndef test_two():\n    assert double(2) == 4\n\n\ndef test_three():\n    assert double(3) == 6\n\n\ndef test_zero():\n    assert double(0) == 0\n';
    writeFileSync(join(repo, 'tests', 'test_a.py'), tests);
    symlinkSync('test_a.py', join(repo, 'tests', 'test_link.py'));
    const script = join(scratch, 'right.json');
    writeFileSync(
      script,
      JSON.stringify({ turns: [{ calls: [{ name: 'submit_implementation', arguments: { code } }] }] }),
    );
    const result = await runCli([
      'run',
      '--repo',
      repo,
      '--target',
      'pkg/core.py::double',
      '--blank',
      '--json',
      '--provider',
      'scripted',
      '--script',
      script,
      '-T',
      '1',
    ]);
    const last = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
    expect(last, result.stderr).toMatchObject({
      pass: true,
      selectedTests: { passed: 1, total: 1 },
      hiddenTests: { passed: 5, total: 5 },
      rounds: { rrwAttempts: 0 },
    });
    expect(result.stdout).not.toContain('NOT RUN');
    // The checkout is as it was: the link is a link, the file whole.
    expect(lstatSync(join(repo, 'tests', 'test_link.py')).isSymbolicLink()).toBe(true);
    expect(readFileSync(join(repo, 'tests', 'test_a.py'), 'utf8')).toBe(tests);
  }, 120_000);
});
