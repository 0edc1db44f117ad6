import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures';
import { thmOn } from '../helpers/thm';

describe('THM survives tests that hang or kill their process', () => {
  it('times out, kills and restarts, and reports each case', async () => {
    const { report } = await thmOn(join(FIXTURES, 'robust'), 'robust/core.py::compute', { testTimeoutSec: 2 });
    const byId = new Map(report.failing.map((f) => [f.nodeid, f]));
    // Seen once in about thirty whole runs, not since reproduced: test_c absent from the failing
    // tests after 3.6 s, when its hang alone takes 4. What the run said, should it happen again.
    const said = JSON.stringify(
      {
        counts: report.counts,
        shards: report.shards,
        durationMs: report.durationMs,
        timings: report.timings,
        timedOut: report.timedOut,
        failing: report.failing.map((f) => [f.nodeid, f.outcome, f.reached, f.crashed, f.timedOut, f.message]),
        otherFailures: report.otherFailures,
        warnings: report.warnings,
      },
      null,
      1,
    );
    // Interrupted by the plugin's per-test timer.
    expect(byId.get('tests/test_robust.py::test_b_loops_forever')).toMatchObject({
      timedOut: true,
      crashed: false,
      reached: true,
      caller: 'tests/test_robust.py::test_b_loops_forever',
    }); // retry_forever is handed the target: the test names the use
    expect(byId.get('tests/test_robust.py::test_b_loops_forever')!.message).toContain('timed out after 2s');
    // Blocked the timer: tenet's watchdog killed the process; the chain reported before the hang survives.
    expect(byId.get('tests/test_robust.py::test_c_blocks_the_timer'), said).toMatchObject({
      timedOut: true,
      crashed: true,
      reached: true,
      depth: 1,
    });
    // Killed the interpreter: reported as a crash, the rest of the suite still ran.
    expect(byId.get('tests/test_robust.py::test_d_crashes_the_interpreter')).toMatchObject({
      crashed: true,
      timedOut: false,
      reached: true,
    });
    expect(byId.get('tests/test_robust.py::test_d_crashes_the_interpreter')!.message).toContain('exited with code 3');
    expect(byId.get('tests/test_robust.py::test_e_fails_after_the_crash')).toMatchObject({
      outcome: 'failed',
      reached: true,
    });
    expect(report.counts, said).toMatchObject({ collected: 6, passed: 2, failing: 4, crashed: 1, timedOut: 2 });
  });
});
