import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { TenetError } from '../../source/engine/errors';
import { chains, thmOn } from '../helpers/thm';

/**
 * A target called while pytest starts, before any test or collector: a conftest.py imports the
 * package, and importing it calls the target (sympy's conftest imports sympy, whose import computes
 * with `igcd`). The modes that collect once on the original code (worlds, fork) would run every
 * test with what the original target computed at that start, which is no blank world.
 */
const scratch = mkdtempSync(join(tmpdir(), 'tenet-start-call-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

function repository(name: string, files: Record<string, string>): string {
  const root = join(scratch, name);
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

const MATHX = 'def scale(x):\n    return x * 2\n\n\ndef double_all(xs):\n    return [scale(x) for x in xs]\n';
const TESTS = {
  'tests/test_mathx.py':
    'from pkg.mathx import double_all\n\n\ndef test_double_all():\n    assert double_all([1, 2]) == [2, 4]\n\n\ndef test_nothing_scaled():\n    assert double_all([]) == []\n',
};
const TARGET = 'pkg/mathx.py::scale';

// Every way THM can run benchmark mode: one collection with worlds in lanes, a blank twin per test, two passes.
const MODES = [
  ['worlds in lanes', { jobs: 2, worlds: true }],
  ['twins', { jobs: 1 }],
  ['two passes', { onePass: false }],
] as const;

describe('the target called while pytest starts', () => {
  const broken = repository('broken', {
    'pkg/__init__.py': 'from .table import TABLE\n',
    'pkg/table.py': 'from .mathx import scale\n\nTABLE = [scale(i) for i in range(3)]\n',
    'pkg/mathx.py': MATHX,
    'conftest.py': 'import pkg  # noqa: F401\n',
    ...TESTS,
  });

  it.each(MODES)(
    'stops pytest blank: %s says so, with where the call comes from',
    async (_mode, options) => {
      const error = await thmOn(broken, TARGET, { blank: true, ...options }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TenetError);
      const { message, fix } = error as TenetError;
      expect(message).toContain(`${TARGET} is called while pytest starts, before any test runs:`);
      expect(message).toMatch(
        /pkg\/table\.py::<module>:3\n {2}→ pkg\/table\.py::<listcomp>:3\n {2}→ pkg\/mathx\.py::scale:\d+/,
      );
      expect(message).not.toContain('<frozen');
      expect(message).toContain('ImportError while loading conftest');
      expect(fix).toMatch(/choose a target that importing the package and its conftest\.py does not call/);
    },
    60_000,
  );

  it.each(MODES.slice(0, 2))(
    "a conftest's hook that calls it before the tests: %s says so too",
    async (_mode, options) => {
      const hooked = repository(`hooked-${_mode.replace(/ /g, '-')}`, {
        'pkg/__init__.py': '',
        'pkg/mathx.py': MATHX,
        'conftest.py':
          'def pytest_collection_modifyitems(items):\n    from pkg.mathx import scale\n\n    scale(len(items))\n',
        ...TESTS,
      });
      const error = await thmOn(hooked, TARGET, { blank: true, ...options }).catch((caught: unknown) => caught);
      expect(error).toBeInstanceOf(TenetError);
      expect((error as TenetError).message).toMatch(
        /is called while pytest starts, before any test runs:\n {2}conftest\.py::pytest_collection_modifyitems:4\n {2}→ pkg\/mathx\.py::scale:\d+/,
      );
    },
    60_000,
  );

  it("stops pytest on the developer's stub: the hint is about the stub", async () => {
    const stubbed = repository('stubbed', {
      'pkg/__init__.py': 'from .table import TABLE\n',
      'pkg/table.py': 'from .mathx import scale\n\nTABLE = [scale(i) for i in range(3)]\n',
      'pkg/mathx.py': MATHX.replace('    return x * 2\n', '    raise NotImplementedError\n'),
      'conftest.py': 'import pkg  # noqa: F401\n',
      ...TESTS,
    });
    const error = await thmOn(stubbed, TARGET).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(TenetError);
    expect((error as TenetError).message).toContain(`${TARGET} is called while pytest starts`);
    expect((error as TenetError).fix).toMatch(/give the stub a body that serves this call/);
  }, 60_000);

  it.each(MODES)(
    'a start that survives the blank target: %s finds the same failing tests',
    async (_mode, options) => {
      // The package tolerates the call failing as it is imported: the blank world starts, and what
      // fails is what a blank run fails. Modes that collect on the original code run it blank apart.
      const tolerant = repository(`tolerant-${_mode.replace(/ /g, '-')}`, {
        'pkg/__init__.py': 'from .table import TABLE\n',
        'pkg/table.py':
          'from .mathx import scale\n\ntry:\n    TABLE = [scale(i) for i in range(3)]\nexcept NotImplementedError:\n    TABLE = None\n',
        'pkg/mathx.py': MATHX,
        'conftest.py': 'import pkg  # noqa: F401\n',
        'tests/test_table.py': 'from pkg import TABLE\n\n\ndef test_table():\n    assert TABLE == [0, 2, 4]\n',
        ...TESTS,
      });
      const { report } = await thmOn(tolerant, TARGET, { blank: true, ...options });
      expect(chains(report)).toEqual({
        'tests/test_mathx.py::test_double_all': [
          'tests/test_mathx.py::test_double_all',
          'pkg/mathx.py::double_all',
          'pkg/mathx.py::double_all.<locals>.<listcomp>',
          TARGET,
        ],
        // The table the blank start computed: no chain from a test, it fails all the same.
        'tests/test_table.py::test_table': [],
      });
      expect(report.counts).toMatchObject({ collected: 3, passed: 1, failing: 2, alreadyFailing: 0 });
      if (_mode === 'worlds in lanes' || _mode === 'twins') {
        expect(report.warnings.join('\n')).toContain(
          `${TARGET} is called while pytest starts (a conftest.py's import or hook)`,
        );
        expect(report.twins || !!report.worlds).toBe(false);
      }
    },
    60_000,
  );
});
