import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { thmOn } from '../helpers/thm';

// Issue 17: benchmark mode's two worlds from one collection. The original world runs only what
// failed blank; a test there that hangs past the watchdog or kills its interpreter
// stops it, and what it did not finish is decided by a pass of its own on the original code.
const repo = mkdtempSync(join(tmpdir(), 'tenet-worlds-'));
const logDir = mkdtempSync(join(tmpdir(), 'tenet-worlds-log-'));
const ranIn = join(logDir, 'ran-in.log');
afterAll(() => {
  rmSync(repo, { recursive: true, force: true });
  rmSync(logDir, { recursive: true, force: true });
});
mkdirSync(join(repo, 'tests'));
writeFileSync(join(repo, 'mod.py'), 'def compute(x):\n    return x * 2\n');
writeFileSync(
  join(repo, 'tests', 'test_worlds.py'),
  `import os
import signal
import time

from mod import compute


def test_0_passes():
    # Notes the world it runs in: a test that passes blank has no business in the original one.
    with open(${JSON.stringify(ranIn)}, "a") as log:
        log.write(os.environ["TENET_MODE"] + "\\n")


def test_a_hangs_on_the_original():
    # Blocks the timer signal first: only tenet's watchdog stops it.
    signal.pthread_sigmask(signal.SIG_BLOCK, [signal.SIGALRM])
    if compute(1) == 2:
        time.sleep(600)


def test_b_crashes_on_the_original():
    if compute(1) == 2:
        os._exit(3)


def test_c_fails_blank():
    assert compute(2) == 4

`,
);

const worldsOfThePassingTest = () => {
  const worlds = readFileSync(ranIn, 'utf8').trim().split('\n');
  rmSync(ranIn);
  return worlds;
};

// Its fixture writes a log outside the workspace to watch THM from outside: the confined sandbox
// (the default) forbids exactly that (test/e2e/confined-sandbox.test.ts), so it runs unconfined.
const UNCONFINED = { kind: 'local', unconfined: true } as const;

describe('benchmark mode, both worlds from one collection', () => {
  it('a hang and a crash in the original world: the rest is decided on its own, and those two fail on the original code too', async () => {
    const { report, events } = await thmOn(repo, 'mod.py::compute', {
      blank: true,
      testTimeoutSec: 2,
      sandbox: UNCONFINED,
    });
    expect(report.worlds).toBe(true);
    expect(report.failing.map((f) => f.nodeid)).toEqual(['tests/test_worlds.py::test_c_fails_blank']);
    expect(report.alreadyFailing).toEqual([
      'tests/test_worlds.py::test_a_hangs_on_the_original',
      'tests/test_worlds.py::test_b_crashes_on_the_original',
    ]);
    expect(report.counts).toMatchObject({ collected: 4, passed: 1, failing: 1, alreadyFailing: 2 });
    // The original world's lanes started on the three blank failures; the hang stopped them, and
    // a pass on the original code ran the three again.
    const phases = events.filter((e) => e.type === 'thm.phase' && e.phase === 'original');
    expect(phases).toEqual([
      { type: 'thm.phase', phase: 'original', tests: 3 },
      { type: 'thm.phase', phase: 'original', tests: 3 },
    ]);
    expect(worldsOfThePassingTest()).toEqual(['blank']);
  }, 120_000);
});
