import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { formatThmReport } from '../../source/commands/format-thm';
import { FIXTURES } from '../helpers/fixtures';
import { thmOn } from '../helpers/thm';
import type { ThmReport } from '../../source/engine/protocol/thm-report';

const REPO = join(FIXTURES, 'brokenimports');
const TARGET = 'gauge/core.py::scale';

// tests/test_paths.py imports a module that is not installed (IPython's, in the QA pass): broken
// on the original code too. tests/test_table.py calls the target at import time: it fails to
// import only with the target blank.
const BROKEN = {
  module: 'tests/test_paths.py',
  message: "ModuleNotFoundError: No module named 'gauge_missing_helpers'",
  broken: true,
  kind: 'missing-module',
};
const BLANK_ONLY = { module: 'tests/test_table.py', message: 'NotImplementedError', broken: false };

describe.each([
  ['twins', { onePass: true, jobs: 1 }],
  ['worlds in lanes', { onePass: true, worlds: true, jobs: 2 }],
  ['two passes', { onePass: false, jobs: 1 }],
])('a test module that fails to import, benchmark mode, %s', (_name, mode) => {
  it('is reported with its error, as broken when it fails on the original code too', async () => {
    const { report } = await thmOn(REPO, TARGET, { blank: true, ...mode });
    expect(report.importErrors).toEqual([BROKEN, BLANK_ONLY]);
    expect(report.counts).toMatchObject({ collectionErrors: 2, alreadyFailing: 1, failing: 3 });
    expect(report.alreadyFailing).toEqual(['tests/test_paths.py']);
    // The blank-only one is THM's observation: a failing entry, clustered by its import-time caller.
    expect(report.failing.find((f) => f.nodeid === 'tests/test_table.py')).toMatchObject({
      outcome: 'collection',
      reached: true,
      entryKind: 'module',
    });

    const text = formatThmReport(report);
    expect(text).toContain('Test modules that failed to import (2)');
    expect(text).toContain(
      "✗ tests/test_paths.py: ModuleNotFoundError: No module named 'gauge_missing_helpers'  [broken: fails on the original code too, not the target's doing]",
    );
    expect(text).toContain(
      '• tests/test_table.py: NotImplementedError  [only with the target blank: counted among the failing tests]',
    );
    expect(text).toContain('hint: 1 broken module hides its tests from THM');
    expect(text).toContain('--tests --ignore=tests/test_paths.py');
    // Named once, with its error: not again as a test that fails on the original code.
    expect(text).toContain('0 already failing on the original code');
    expect(text).not.toContain('Already failing on the original code');
    // The module is one failing entry outside the tests in scope: said, so the counts add up.
    expect(text).toContain(
      '3 tests in scope · 1 passed · 3 failing (1 of them a test module that fails to import blank) ·',
    );
  }, 60_000);
});

describe('a test module that fails to import, stub mode', () => {
  it('is broken when its import never called the target', async () => {
    const { report } = await thmOn(REPO, TARGET);
    expect(report.importErrors).toEqual([BROKEN]);
    expect(formatThmReport(report)).toContain(
      "✗ tests/test_paths.py: ModuleNotFoundError: No module named 'gauge_missing_helpers'  [broken: its import never called the target]",
    );
  }, 60_000);
});

describe('many modules that fail to import', () => {
  it('are listed up to five, then counted', () => {
    const report: ThmReport = {
      target: TARGET,
      mode: 'blank',
      T: 3,
      testArgs: [],
      python: { executable: 'python3', version: '3.11', pytest: '9' },
      failing: [],
      clusters: [],
      selected: [],
      counts: {
        collected: 0,
        passed: 0,
        skipped: 0,
        failing: 0,
        unreached: 0,
        alreadyFailing: 12,
        collectionErrors: 12,
        crashed: 0,
        timedOut: 0,
      },
      alreadyFailing: [],
      warnings: [],
      shards: 1,
      twins: true,
      timings: { probeMs: 0, originalMs: 0, blankMs: 0 },
      timedOut: false,
      durationMs: 1,
      importErrors: Array.from({ length: 12 }, (_, i) => ({
        module: `tests/test_${String(i).padStart(2, '0')}.py`,
        message: "ModuleNotFoundError: No module named 'x'",
        broken: true,
      })),
    };
    const text = formatThmReport(report);
    const listed = text.split('\n').filter((line) => line.startsWith('  ✗ '));
    expect(listed).toHaveLength(5);
    expect(text).toContain('… and 7 more (--json lists them all)');
    expect(text).toContain(
      'hint: 12 broken modules hide their tests from THM. Make them import (install what they need), or leave them out: --tests --ignore=tests/test_00.py …',
    );
  });
});
