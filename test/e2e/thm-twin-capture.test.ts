import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures';
import { thmOn } from '../helpers/thm';

// In twin mode the blank twin of a test is forked at the target's call and goes on once the
// parent has finished that test with the original code. It once shared pytest's capture files
// with the parent, which had read and emptied them by then: a test reading `capfd` after the call
// failed in the twin only, and the twin's report lost what the test printed before the call.
const REPO = join(FIXTURES, 'twincapture');
const TARGET = 'tally/core.py::total';
const logs = mkdtempSync(join(tmpdir(), 'tenet-twin-capture-'));
afterAll(() => rmSync(logs, { recursive: true, force: true }));

describe.each([
  ['twin mode (the twin)', { onePass: true, jobs: 1 }],
  ['two passes (a plain blank run)', { onePass: false, jobs: 1 }],
])('benchmark mode, %s', (name, mode) => {
  it("a test reads with capfd what it printed before the call; the failing test's blank report keeps what it printed", async () => {
    const log = join(logs, `${name.split(' ')[0]}.jsonl`);
    // The fixture writes its log outside the workspace, which the confined sandbox (the default)
    // forbids (test/e2e/confined-sandbox.test.ts): this run is unconfined.
    const { report } = await thmOn(REPO, TARGET, {
      blank: true,
      testTimeoutSec: 30,
      ...mode,
      env: { ...process.env, TWINCAPTURE_LOG: log },
      sandbox: { kind: 'local', unconfined: true },
    });
    expect(report.failing.map((f) => f.nodeid)).toEqual(['tests/test_output.py::test_prints_then_needs_the_target']);
    expect(report.counts).toMatchObject({ collected: 3, passed: 2, failing: 1 });
    const captured = existsSync(log)
      ? readFileSync(log, 'utf8')
          .trim()
          .split('\n')
          .map((line) => JSON.parse(line))
      : [];
    const printer = captured.filter((line) => line.test === 'test_prints_then_needs_the_target');
    expect(printer.map((line) => line.outcome).sort()).toEqual(['failed', 'passed']);
    for (const line of printer) expect(line.out).toBe('printed before the call\n');
  }, 60_000);
});
