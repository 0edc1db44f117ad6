import { describe, expect, it } from 'vitest';
import { chains, repositoryOf, thmOn } from '../helpers/thm';

/**
 * networkx's argmap compiles each decorated function's wrapper at its first call in a process:
 * that call runs through one more frame (`argmap.__call__.<locals>.func`) than every later one.
 * Which test makes the first call depends on the order tests run in and on how they are split
 * over processes, so a chain that kept the frame would differ between THM's modes and between
 * tests of one cluster. The frame is left out: every chain is the one a later call has.
 */
const repo = repositoryOf('lazy', {
  'lazy/__init__.py': '',
  // The same idiom in the repository's own code.
  'lazy/lazily.py': [
    'def lazily_compiled(function):',
    '    def wrapper(*args, itself=None, **kwargs):',
    '        namespace = {}',
    '        exec("def compiled(*args, itself=None, **kwargs):\\n    return itself.__wrapped__(*args, **kwargs)\\n", namespace)',
    '        itself.__code__ = namespace["compiled"].__code__',
    '        return itself(*args, **kwargs)',
    '',
    '    wrapper.__kwdefaults__ = {"itself": wrapper}',
    '    wrapper.__wrapped__ = function',
    '    return wrapper',
    '',
  ].join('\n'),
  'lazy/calc.py': [
    'from networkx.utils.decorators import argmap',
    '',
    'from lazy.lazily import lazily_compiled',
    '',
    '',
    'def _same(value):',
    '    return value',
    '',
    '',
    '@argmap(_same, 0)',
    'def double(x):',
    '    return x * 2',
    '',
    '',
    'def quad(x):',
    '    return double(double(x))',
    '',
    '',
    '@lazily_compiled',
    'def triple(x):',
    '    return x * 3',
    '',
  ].join('\n'),
  'tests/test_one.py': [
    'from lazy.calc import double, quad',
    '',
    '',
    'def test_double():',
    '    assert double(2) == 4',
    '',
    '',
    'def test_quad():',
    '    assert quad(1) == 4',
    '',
  ].join('\n'),
  'tests/test_two.py': [
    'from lazy.calc import double, triple',
    '',
    '',
    'def test_double_again():',
    '    assert double(5) == 10',
    '',
    '',
    'def test_triple():',
    '    assert triple(2) == 6',
    '',
    '',
    'def test_triple_again():',
    '    assert triple(3) == 9',
    '',
  ].join('\n'),
});

const TRAMPOLINE = 'networkx/utils/decorators.py::argmap.__call__.<locals>.func';

describe('a wrapper compiled at its first call (networkx argmap)', () => {
  it('gives every test the same chain in every mode, without the first call’s extra frame', async () => {
    const run = async (options: { jobs?: number; onePass?: boolean }) =>
      chains((await thmOn(repo, 'lazy/calc.py::double', { blank: true, T: 3, ...options })).report);
    const found = { lanes: await run({}), jobs1: await run({ jobs: 1 }), twoPass: await run({ onePass: false }) };
    expect(Object.keys(found.lanes).sort()).toEqual([
      'tests/test_one.py::test_double',
      'tests/test_one.py::test_quad',
      'tests/test_two.py::test_double_again',
    ]);
    for (const chain of Object.values(found.lanes)) expect(chain).not.toContain(TRAMPOLINE);
    expect(found.jobs1).toEqual(found.lanes);
    expect(found.twoPass).toEqual(found.lanes);
    expect(found.lanes['tests/test_two.py::test_double_again']).toEqual([
      'tests/test_two.py::test_double_again',
      "<class 'networkx.utils.decorators.argmap'> compilation::argmap_double",
      'lazy/calc.py::double',
    ]);
  }, 120_000);

  it('does so for the repository’s own wrapper too', async () => {
    const run = async (options: { jobs?: number; onePass?: boolean }) =>
      chains((await thmOn(repo, 'lazy/calc.py::triple', { blank: true, T: 3, ...options })).report);
    const lanes = await run({});
    const compiled = ['<string>::compiled', 'lazy/calc.py::triple'];
    expect(lanes).toEqual({
      'tests/test_two.py::test_triple': ['tests/test_two.py::test_triple', ...compiled],
      'tests/test_two.py::test_triple_again': ['tests/test_two.py::test_triple_again', ...compiled],
    });
    expect(await run({ jobs: 1 })).toEqual(lanes);
    expect(await run({ onePass: false })).toEqual(lanes);
  }, 120_000);
});
