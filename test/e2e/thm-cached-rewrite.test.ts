import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parkedCopyPath } from '../../source/engine/workspace/parked-copy';
import { thmOn } from '../helpers/thm';

// A developer who ran pytest in the checkout left each test module there with its asserts
// rewritten, in `__pycache__`, compiled under the checkout's path. The workspace copies it with
// the source's mtime, so pytest takes it as it is: THM must still name the workspace's files.
describe('a test module pytest rewrote in the checkout', () => {
  let repo: string;

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'tenet-cached-rewrite-'));
    mkdirSync(join(repo, 'pkg'));
    mkdirSync(join(repo, 'tests'));
    writeFileSync(join(repo, 'pkg', '__init__.py'), '');
    writeFileSync(join(repo, 'pkg', 'core.py'), 'def scale(x):\n    return 2 * x\n');
    writeFileSync(
      join(repo, 'tests', 'test_core.py'),
      'from pkg.core import scale\n\n\ndef helper():\n    return scale(2)\n\n\ndef test_scales():\n    assert helper() == 4\n',
    );
    // This machine may set PYTHONDONTWRITEBYTECODE; a developer's shell usually does not.
    const run = spawnSync('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], {
      cwd: repo,
      encoding: 'utf8',
      env: { ...process.env, PYTHONDONTWRITEBYTECODE: '' },
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
  });

  afterAll(() => rmSync(repo, { recursive: true, force: true }));

  it('is named by its place in the workspace, in the chain and in the failure', async () => {
    expect(
      readdirSync(join(repo, 'tests', '__pycache__')).some((name) => /^test_core\..*-pytest-.*\.pyc$/.test(name)),
    ).toBe(true);
    const { report } = await thmOn(repo, 'pkg/core.py::scale', { blank: true, jobs: 1 });
    const [failing] = report.failing;
    expect(failing?.chain).toEqual([
      'tests/test_core.py::test_scales',
      'tests/test_core.py::helper',
      'pkg/core.py::scale',
    ]);
    expect(failing?.longrepr).toContain('tests/test_core.py:5: in helper');
    expect(JSON.stringify(report.failing)).not.toContain(repo);
  });
});

// Where bytecode is not to be written (PYTHONDONTWRITEBYTECODE, as on this machine), THM's pytest
// writes it in the workspace only, and the copy kept for the next run keeps it: the next run
// does not rewrite the tests' asserts again.
describe('a run where bytecode is not to be written', () => {
  let scratch: string;
  let repo: string;
  let shared: string;

  beforeAll(() => {
    scratch = mkdtempSync(join(tmpdir(), 'tenet-no-bytecode-'));
    repo = join(scratch, 'repo');
    // A module the tests import from outside the repository (on PYTHONPATH).
    shared = join(scratch, 'shared');
    mkdirSync(join(repo, 'pkg'), { recursive: true });
    mkdirSync(join(repo, 'tests'));
    mkdirSync(shared);
    writeFileSync(join(shared, 'helpers_outside.py'), 'def two():\n    return 2\n');
    writeFileSync(join(repo, 'pkg', '__init__.py'), '');
    writeFileSync(join(repo, 'pkg', 'core.py'), 'def scale(x):\n    return 2 * x\n');
    writeFileSync(
      join(repo, 'tests', 'test_core.py'),
      'from helpers_outside import two\nfrom pkg.core import scale\n\n\ndef test_scales():\n    assert scale(two()) == 4\n',
    );
  });

  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it('writes it in the workspace only, and the next run takes the rewritten tests from there', async () => {
    const env = { ...process.env, PYTHONDONTWRITEBYTECODE: '1', PYTHONPATH: shared };
    const run = () => thmOn(repo, 'pkg/core.py::scale', { blank: true, jobs: 1, env });
    const rewritten = () => {
      const cache = join(parkedCopyPath(tmpdir(), repo), 'repo', 'tests', '__pycache__');
      const name = readdirSync(cache).find((entry) => /^test_core\..*-pytest-.*\.pyc$/.test(entry));
      return statSync(join(cache, name!));
    };
    expect((await run()).report.failing.map((f) => f.nodeid)).toEqual(['tests/test_core.py::test_scales']);
    const first = rewritten();
    // Nothing in the checkout or outside the workspace.
    expect(existsSync(join(repo, 'tests', '__pycache__'))).toBe(false);
    expect(existsSync(join(shared, '__pycache__'))).toBe(false);
    expect((await run()).report.failing.map((f) => f.nodeid)).toEqual(['tests/test_core.py::test_scales']);
    // The very file the first run wrote: pytest writes a new one (a rename) when it rewrites.
    expect(rewritten()).toMatchObject({ ino: first.ino, mtimeMs: first.mtimeMs });
  });
});
