import { describe, expect, it } from 'vitest';
import { repositoryOf, THM_MODES, thmOn } from '../helpers/thm';

/**
 * The target called in a collector's setup, not in a test or fixture: pytest's Package.setup runs
 * a package's `setup_module` (and looks up `pytest_plugins` and `setUpModule` on its `__init__`,
 * which a module `__getattr__` answers: jsonschema's). With the target blank that setup fails, and
 * pytest fails every test of the package with the same error, set up once.
 */
const repo = repositoryOf('pkgsetup', {
  'pkg/__init__.py': ['def prepare():', '    return 1', ''].join('\n'),
  'tests/__init__.py': ['import pkg', '', '', 'def setup_module():', '    pkg.prepare()', ''].join('\n'),
  'tests/test_a.py': ['def test_one():', '    assert True', '', '', 'def test_two():', '    assert True', ''].join(
    '\n',
  ),
});

describe.each(THM_MODES)('the target called in a package’s setup_module, %s', (mode, options) => {
  it('the first test reached it from setup_module, the chain without tenet’s own frames', async () => {
    const { report } = await thmOn(repo, 'pkg/__init__.py::prepare', { blank: true, ...options });
    const first = report.failing.find((f) => f.nodeid === 'tests/test_a.py::test_one');
    expect(first).toMatchObject({
      outcome: 'error',
      phase: 'setup',
      reached: true,
      chain: ['tests/__init__.py::setup_module', 'pkg/__init__.py::prepare'],
    });
  }, 60_000);

  // Still open in fork mode: the parent set the package up on the original code, so a later test's
  // twin starts past that setup and passes; `it.fails` turns red once fork mode replays it.
  const every = mode === 'fork' ? it.fails : it;
  every(
    'every test of the package fails with its setup, as in a plain blank run',
    async () => {
      const { report } = await thmOn(repo, 'pkg/__init__.py::prepare', { blank: true, ...options });
      expect(report.failing.map((f) => [f.nodeid, f.outcome])).toEqual([
        ['tests/test_a.py::test_one', 'error'],
        ['tests/test_a.py::test_two', 'error'],
      ]);
    },
    60_000,
  );
});
