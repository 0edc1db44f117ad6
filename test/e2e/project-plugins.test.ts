import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { ThmReport } from '../../source/engine/protocol/thm-report';
import { runCli } from '../helpers/cli';
import { copyFixture } from '../helpers/fixtures';
import { withInterpreterPlugins } from '../helpers/pytest-plugins';

// Issue 44: projects configured as real ones are, run by Debian's python3 with its pytest
// plugins (apt-get install python3-pytest-xdist python3-pytest-timeout). pytest-xdist's `-n` in
// addopts stopped THM with an INTERNALERROR (and with --jobs 1 counted 0 tests in scope, 7
// failing unreached); pytest-timeout's `timeout = 1` was replaced by tenet's own alarm (a slow
// test counted as passing, a hanging blank ran 60 s instead of 1).
withInterpreterPlugins();
const withPlugins = (python: string) => {
  try {
    execFileSync(python, ['-c', 'import pytest, xdist, pytest_timeout'], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};
const CANDIDATES = [process.env.TENET_PLUGINS_PYTHON, '/usr/bin/python3.11', '/usr/bin/python3', 'python3'];
const PYTHON = CANDIDATES.find((python): python is string => !!python && withPlugins(python));
// A skip that says so; .ci/run installs the plugins and sets TENET_TEST_PLUGINS=require.
const PROBLEM = PYTHON
  ? undefined
  : 'no python3 with pytest-xdist and pytest-timeout (apt-get install python3-pytest-xdist python3-pytest-timeout)';
if (PROBLEM && process.env.TENET_TEST_PLUGINS === 'require')
  throw new Error(`the pytest plugin tests are required here (TENET_TEST_PLUGINS=require) but there is ${PROBLEM}`);
if (PROBLEM) console.warn(`[tenet tests] THM under pytest-xdist and pytest-timeout skipped: ${PROBLEM}`);

const cache = mkdtempSync(join(tmpdir(), 'tenet-plugins-cache-'));
afterAll(() => rmSync(cache, { recursive: true, force: true }));
const env = { TENET_PYTHON: PYTHON ?? 'python3', TENET_CACHE_DIR: cache };

async function thm(fixture: string, target: string, flags: string[] = []): Promise<ThmReport> {
  const { dir, cleanup } = copyFixture(fixture);
  try {
    const run = await runCli(['thm', '--blank', '--json', '--repo', dir, '--target', target, ...flags], { env });
    expect(run.code, run.stderr).toBe(0);
    return JSON.parse(run.stdout) as ThmReport;
  } finally {
    cleanup();
  }
}

const WORDS_TESTS = [
  'tests/test_summary.py::test_summary',
  'tests/test_summary.py::test_summary_of_nothing',
  'tests/test_words.py::test_empty',
  'tests/test_words.py::test_many',
  'tests/test_words.py::test_punctuation_alone_is_no_word',
];

describe.skipIf(!PYTHON)('pytest-xdist in the project addopts (-n 2 --dist loadfile)', () => {
  it.each([
    ['in lanes', []],
    ['with --jobs 1', ['--jobs', '1']],
    ['with --two-pass', ['--two-pass']],
  ])(
    'gives the failing tests plain pytest gives, %s, and says xdist was turned off once',
    async (_mode, flags) => {
      const report = await thm('xdistopts', 'tally/count.py::words', flags);
      expect(report.failing.map((f) => f.nodeid)).toEqual(WORDS_TESTS);
      expect(report.failing.every((f) => f.reached)).toBe(true);
      expect(report.counts).toMatchObject({ collected: 8, passed: 3, failing: 5, unreached: 0 });
      expect(report.warnings.filter((w) => w.includes('pytest-xdist'))).toEqual([
        expect.stringContaining('-n 2 --dist loadfile: turned off'),
      ]);
    },
    120_000,
  );

  it('records the reach index without xdist too', async () => {
    const { dir, cleanup } = copyFixture('xdistopts');
    try {
      const run = await runCli(['index', '--reach', '--json', '--repo', dir], { env });
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ tests: 8, testFiles: 3 });
    } finally {
      cleanup();
    }
  }, 120_000);
});

describe.skipIf(!PYTHON)("pytest-timeout's limit in the project's ini file (timeout = 1)", () => {
  it.each([
    ['in lanes', []],
    ['with --jobs 1', ['--jobs', '1']],
    ['with --two-pass', ['--two-pass']],
  ])(
    'is kept: a test past it fails as the project fails it, %s',
    async (_mode, flags) => {
      const report = await thm('projecttimeout', 'patience/retry.py::attempt', flags);
      const failing = Object.fromEntries(report.failing.map((f) => [f.nodeid, f]));
      // The blank makes the retry loop spin: the project's 1 s fails it, as pytest-timeout says it.
      expect(failing['tests/test_retry.py::test_persist']).toMatchObject({
        outcome: 'failed',
        timedOut: true,
        message: expect.stringContaining('Timeout >1.0s'),
      });
      // Slower than the project allows on the original code too: already failing, never passing.
      expect(report.alreadyFailing).toEqual(['tests/test_retry.py::test_slow_beyond_the_project_limit']);
      // A test's own mark raises its limit (5 s): it runs its 1.5 s and fails for the blank alone.
      expect(failing['tests/test_retry.py::test_marked_longer']).toMatchObject({
        timedOut: false,
        message: 'NotImplementedError',
      });
      expect(report.counts).toMatchObject({ collected: 6, failing: 5, alreadyFailing: 1 });
    },
    120_000,
  );
});
