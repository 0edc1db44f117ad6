import { describe, expect, it } from 'vitest';
import { withInterpreterPlugins } from '../helpers/pytest-plugins';
import { repositoryOf, THM_MODES, thmOn } from '../helpers/thm';

/**
 * With the target blank nearly every Hypothesis example fails, and Hypothesis shrinks each failing
 * test's example before it reports (attrs' suite: up to a minute a test). THM needs only whether
 * a test fails, so its runs leave shrinking out: a failing test ends at the example that failed
 * first, run once more to report it. The test counts the examples it ran in the error it raises.
 *
 * Hypothesis's own pytest plugin is loaded, as the interpreter loads it for a user.
 */
withInterpreterPlugins();
const repo = repositoryOf('hyp', {
  'hyp/__init__.py': '',
  'hyp/calc.py': 'def double(n):\n    return n * 2\n',
  'tests/test_calc.py': [
    'from hypothesis import given, settings, strategies as st',
    '',
    'from hyp.calc import double',
    '',
    'examples = []',
    '',
    '',
    '@settings(database=None)',
    '@given(st.integers())',
    'def test_double(n):',
    '    examples.append(n)',
    '    try:',
    '        assert double(n) == n + n',
    '    except NotImplementedError:',
    '        raise AssertionError(f"failed at example {len(examples)}")',
    '',
  ].join('\n'),
});

describe.each(THM_MODES)('a Hypothesis test with the target blank, %s', (_mode, options) => {
  it('fails without shrinking its example', async () => {
    const { report } = await thmOn(repo, 'hyp/calc.py::double', { blank: true, T: 3, ...options });
    expect(report.failing.map((f) => f.nodeid)).toEqual(['tests/test_calc.py::test_double']);
    // Shrinking would have run dozens of examples (112 in a plain run here) before the last.
    expect(report.failing[0]!.longrepr).toMatch(/failed at example [1-3]\b/);
  }, 60_000);
});
