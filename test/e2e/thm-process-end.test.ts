import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { thmOn } from '../helpers/thm';

// THM's pytest processes end as soon as tenet has every outcome: the tests' own atexit handlers
// still run, the interpreter's teardown of every module does not (see _end_quickly in
// _tenet_thm). A module-level object's __del__ runs only in that teardown. Nor does pytest's
// terminal summary, whose hooks (a plugin's, a conftest's) are for a reader of pytest's output.
describe('how a THM pytest process ends', () => {
  let repo: string;
  let marks: string;
  const written = (prefix: string) => readdirSync(marks).filter((name) => name.startsWith(prefix));

  beforeAll(() => {
    repo = mkdtempSync(join(tmpdir(), 'tenet-process-end-'));
    marks = mkdtempSync(join(tmpdir(), 'tenet-process-end-marks-'));
    mkdirSync(join(repo, 'pkg'));
    mkdirSync(join(repo, 'tests'));
    writeFileSync(join(repo, 'pkg', '__init__.py'), '');
    writeFileSync(join(repo, 'pkg', 'core.py'), 'def scale(x):\n    return 2 * x\n');
    writeFileSync(
      join(repo, 'conftest.py'),
      [
        'import os',
        '',
        'def pytest_terminal_summary(terminalreporter):',
        `    open(os.path.join(${JSON.stringify(marks)}, "summary-%d" % os.getpid()), "w").close()`,
        '',
      ].join('\n'),
    );
    writeFileSync(
      join(repo, 'tests', 'test_core.py'),
      [
        'import atexit, os',
        'from pkg.core import scale',
        `MARKS = ${JSON.stringify(marks)}`,
        '',
        'def _mark(kind):',
        '    with open(os.path.join(MARKS, "%s-%d" % (kind, os.getpid())), "w") as f:',
        '        f.write(os.environ.get("TENET_MODE", "plain"))',
        '',
        'atexit.register(_mark, "atexit")',
        '',
        // What it needs is bound now: the teardown sets module globals to None.
        'class _AtTeardown:',
        '    def __del__(self, _os=os, _open=open, _marks=MARKS):',
        '        with _open(_os.path.join(_marks, "teardown-%d" % _os.getpid()), "w"):',
        '            pass',
        '',
        '_at_teardown = _AtTeardown()',
        '',
        'def test_scales():',
        '    assert scale(2) == 4',
        '',
        'def test_other():',
        '    assert 1 + 1 == 2',
        '',
      ].join('\n'),
    );
  });

  afterAll(() => {
    rmSync(repo, { recursive: true, force: true });
    rmSync(marks, { recursive: true, force: true });
  });

  it('a plain pytest run writes every mark (the checks below could fail)', () => {
    const run = spawnSync('python3', ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests'], {
      cwd: repo,
      encoding: 'utf8',
    });
    expect(run.status, run.stdout + run.stderr).toBe(0);
    expect(written('atexit')).toHaveLength(1);
    expect(written('teardown')).toHaveLength(1);
    expect(written('summary')).toHaveLength(1);
  });

  // The fixture's marks are written outside the workspace, which the confined sandbox (the default)
  // forbids (test/e2e/confined-sandbox.test.ts): these runs are unconfined.
  it.each([
    ['lanes of one collection', { worlds: true, jobs: 2 }],
    ['a blank twin per test', { jobs: 1 }],
  ])('%s: the atexit handlers run, the interpreter teardown and the terminal summary do not', async (_name, mode) => {
    for (const name of readdirSync(marks)) rmSync(join(marks, name));
    const { report } = await thmOn(repo, 'pkg/core.py::scale', {
      blank: true,
      ...mode,
      sandbox: { kind: 'local', unconfined: true },
    });
    expect(report.failing.map((f) => f.nodeid)).toEqual(['tests/test_core.py::test_scales']);
    expect(written('atexit').length).toBeGreaterThan(0);
    expect(written('teardown')).toEqual([]);
    expect(written('summary')).toEqual([]);
  });
});
