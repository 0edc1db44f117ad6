import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatThmReport } from '../../source/commands/format-thm';
import { FIXTURES } from '../helpers/fixtures';
import { thmOn } from '../helpers/thm';

// Test modules broken by the repository's own code, each mended its own way: meter/units.py does
// not compile (tests/test_units.py imports it), tests/test_draft.py does not compile itself,
// meter/config.py raises at import (tests/test_config.py), and tests/test_plots.py imports a module
// that is not installed.
const REPO = join(FIXTURES, 'brokenrepo');
const BROKEN = [
  { module: 'tests/test_config.py', message: "KeyError: 'unit'", broken: true, kind: 'error', at: 'meter/config.py:4' },
  {
    module: 'tests/test_draft.py',
    message: "SyntaxError: unmatched ')'",
    broken: true,
    kind: 'syntax-error',
    at: 'tests/test_draft.py:3',
  },
  {
    module: 'tests/test_plots.py',
    message: "ModuleNotFoundError: No module named 'meter_missing_plotting'",
    broken: true,
    kind: 'missing-module',
  },
  {
    module: 'tests/test_units.py',
    message: "SyntaxError: expected ':'",
    broken: true,
    kind: 'syntax-error',
    at: 'meter/units.py:2',
  },
];

describe.each([
  ['stub mode', 'meter/core.py::area', false],
  ['benchmark mode', 'meter/core.py::perimeter', true],
])('test modules broken by the repository, %s', (mode, target, blank) => {
  it('are named with the file and line of their error, and a hint fit for each kind', async () => {
    const { report } = await thmOn(REPO, target, { blank });
    expect(report.importErrors).toEqual(BROKEN);
    const text = formatThmReport(report);
    expect(text).toContain("✗ tests/test_units.py: SyntaxError: expected ':' at meter/units.py:2  [broken:");
    expect(text).toContain("✗ tests/test_draft.py: SyntaxError: unmatched ')' at tests/test_draft.py:3  [broken:");
    expect(text).toContain("✗ tests/test_config.py: KeyError: 'unit' at meter/config.py:4  [broken:");
    expect(text).toContain(
      "hint: 2 broken modules hide their tests from THM: the repository's code does not compile at tests/test_draft.py:3, meter/units.py:2. Fix the syntax errors, or leave them out: --tests --ignore=tests/test_draft.py …",
    );
    expect(text).toContain(
      'hint: 1 broken module hides its tests from THM: its import raises an error at meter/config.py:4. Fix the code that raises it, or leave it out: --tests --ignore=tests/test_config.py',
    );
    // Installing is the mend for what is not installed only.
    expect(text).toContain(
      'hint: 1 broken module hides its tests from THM. Make it import (install what it needs), or leave it out: --tests --ignore=tests/test_plots.py',
    );
    expect(text.match(/install what/g)).toHaveLength(1);
    // Named once, with its error: not again among the failing tests, listed or counted.
    expect(text).not.toContain('Failing without reaching the target');
    expect(text).not.toMatch(/^ {2}tests\/test_(units|draft|config|plots)\.py/m);
    expect(text).toMatch(
      mode === 'stub mode'
        ? /2 tests in scope · 1 passed · 1 failing · 4 modules failed to import/
        : /1 failing · 1 already failing on the original code · 4 modules failed to import/,
    );
  }, 60_000);
});
