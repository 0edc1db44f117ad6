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
  // Runs first, on the original code: it sets the package up there. Blank, it fails to import.
  'tests/test_0import.py': [
    'import pkg',
    '',
    'READY = pkg.prepare()',
    '',
    '',
    'def test_ready():',
    '    assert READY',
    '',
  ].join('\n'),
  // A test that calls the target itself, after the package was set up.
  'tests/test_b.py': [
    'import pkg',
    '',
    '',
    'def test_three():',
    '    assert pkg.prepare() == 1',
    '',
    '',
    'def test_four():',
    '    assert True',
    '',
  ].join('\n'),
});

describe.each(THM_MODES)('the target called in a package’s setup_module, %s', (_mode, options) => {
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

  // Twin mode's parent sets the package up on the original code: a later test's twin started past
  // that setup and passed.
  it('every test of the package fails with its setup, as in a plain blank run; the later ones through it', async () => {
    const { report } = await thmOn(repo, 'pkg/__init__.py::prepare', { blank: true, ...options });
    expect(report.failing.map((f) => [f.nodeid, f.outcome, f.phase, f.reached, f.failsThrough])).toEqual([
      ['tests/test_0import.py', 'collection', 'collect', true, null],
      // The first test blank has: in fork and lanes mode, the package was set up in test_ready.
      ['tests/test_a.py::test_one', 'error', 'setup', true, null],
      ['tests/test_a.py::test_two', 'error', 'setup', false, 'tests/__init__.py::setup_module'],
      ['tests/test_b.py::test_four', 'error', 'setup', false, 'tests/__init__.py::setup_module'],
      ['tests/test_b.py::test_three', 'error', 'setup', false, 'tests/__init__.py::setup_module'],
    ]);
  }, 60_000);
});

/** A package whose setup_module calls the target but goes on when it fails: no later test fails through it. */
const lenient = repositoryOf('pkglenient', {
  'pkg/__init__.py': ['def prepare():', '    return 1', ''].join('\n'),
  'tests/__init__.py': [
    'import pkg',
    '',
    '',
    'def setup_module():',
    '    try:',
    '        pkg.prepare()',
    '    except Exception:',
    '        pass  # optional',
    '',
  ].join('\n'),
  'tests/test_a.py': [
    'import pkg',
    '',
    '',
    'def test_one():',
    '    assert True',
    '',
    '',
    'def test_two():',
    '    assert pkg.prepare() == 1',
    '',
  ].join('\n'),
});

describe.each(THM_MODES)('the target called in a setup_module that goes on when it fails, %s', (_mode, options) => {
  it('a later test that calls the target fails with its own chain, not through the setup', async () => {
    const { report } = await thmOn(lenient, 'pkg/__init__.py::prepare', { blank: true, ...options });
    expect(report.failing.map((f) => [f.nodeid, f.outcome, f.chain, f.failsThrough])).toEqual([
      ['tests/test_a.py::test_two', 'failed', ['tests/test_a.py::test_two', 'pkg/__init__.py::prepare'], null],
    ]);
  }, 60_000);
});
