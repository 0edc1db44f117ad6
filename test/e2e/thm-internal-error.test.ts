import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { thmOn } from '../helpers/thm';

// colorama's tests patch os.name to 'nt' and put it back only when the code under test returns:
// blank, it raises, and pytest then fails to report the next test (INTERNALERROR, pathlib making
// a WindowsPath) and stops. THM's default mode lost every test after that one (5 failing of 18,
// 38 tests without an outcome) and warned that no test imported the target; twin mode, whose
// blank twins die alone, found all 18. The tests after such a stop run in a new process.
const repo = mkdtempSync(join(tmpdir(), 'tenet-internal-error-'));
afterAll(() => rmSync(repo, { recursive: true, force: true }));
mkdirSync(join(repo, 'tests'));
writeFileSync(join(repo, 'mod.py'), 'def compute(x):\n    return x * 2\n');
writeFileSync(
  join(repo, 'tests', 'test_stop.py'),
  `import os

from mod import compute


def test_a_passes():
    assert compute(1) == 2


def test_b_patches_os_name():
    saved = os.name
    os.name = "nt"
    compute(1)
    os.name = saved


def test_c_fails_blank():
    assert compute(2) == 4


def test_d_never_calls():
    assert True


def test_e_fails_blank():
    assert compute(3) == 6
`,
);

const MODES = [
  ['worlds in lanes', { onePass: true, worlds: true, jobs: 2 }],
  ['two passes', { onePass: false, jobs: 1 }],
] as const;

describe('pytest stops between two tests with an internal error', () => {
  // (A lane that stops so had its remaining tests run in a process of their own, but said nothing of it.)
  it.each(MODES)(
    '%s: the tests after the stop run in a new process, and every outcome is there',
    async (_label, mode) => {
      const { report } = await thmOn(repo, 'mod.py::compute', { blank: true, ...mode });
      expect(report.failing.map((f) => f.nodeid)).toEqual([
        'tests/test_stop.py::test_a_passes',
        'tests/test_stop.py::test_b_patches_os_name',
        'tests/test_stop.py::test_c_fails_blank',
        'tests/test_stop.py::test_e_fails_blank',
      ]);
      expect(report.counts).toMatchObject({ collected: 5, passed: 1, failing: 4 });
      expect(report.warnings.join('\n')).not.toMatch(/No test in scope imported/);
      // Said, with pytest's own reason.
      expect(report.warnings.join('\n')).toMatch(
        /^pytest exited with code \d+ after tests\/test_stop\.py::test_b_patches_os_name \(NotImplementedError: cannot instantiate 'WindowsPath' on your system\): the tests after it ran in a new pytest process$/m,
      );
    },
    120_000,
  );
});
