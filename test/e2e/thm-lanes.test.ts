import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { FIXTURES } from '../helpers/fixtures';
import { thmOn } from '../helpers/thm';

// Issue 17: shards run as forked lanes of one pytest process that collects the scope once. A lane
// whose test hangs or kills its interpreter is handled as a shard of its own process was: the test
// is reported, and the lane's remaining tests run again in a process of their own.
describe('THM in lanes (--jobs 2 on one file)', () => {
  it('a hung test and a crashed interpreter in a lane: reported, and every other test still ran', async () => {
    const one = await thmOn(join(FIXTURES, 'robust'), 'robust/core.py::compute', { testTimeoutSec: 2, jobs: 1 });
    const two = await thmOn(join(FIXTURES, 'robust'), 'robust/core.py::compute', { testTimeoutSec: 2, jobs: 2 });
    expect(one.report.shards).toBe(1);
    expect(two.report.shards).toBe(2);
    const shape = (run: typeof one) =>
      run.report.failing.map(({ nodeid, reached, chain, outcome, timedOut, crashed }) => ({
        nodeid,
        reached,
        chain,
        outcome,
        timedOut,
        crashed,
      }));
    expect(shape(two)).toEqual(shape(one));
    expect(two.report.counts).toEqual(one.report.counts);
    const crash = two.report.failing.find((f) => f.nodeid === 'tests/test_robust.py::test_d_crashes_the_interpreter')!;
    expect(crash.message).toContain('exited with code 3');
  });

  it('--jobs auto takes fewer lanes than cores for a small scope (one per 10 tests)', async () => {
    const auto = await thmOn(join(FIXTURES, 'robust'), 'robust/core.py::compute', { testTimeoutSec: 2, jobs: 'auto' });
    expect(auto.report.shards).toBe(1);
  });
});
