import { posix, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { pythonEnv } from '../../source/engine/python-source/pytest-env';
import { openTask } from '../../source/engine/task/open-task';
import type { PassResult } from '../../source/engine/thm/pass-types';
import { runPytestPass } from '../../source/engine/thm/pytest-pass';
import { setTargetText } from '../../source/engine/thm/run-thm';
import { FIXTURES } from '../helpers/fixtures';

/**
 * One probe pass of THM over a fixture, with the shards asked for here rather than from this
 * machine's cores (`--jobs auto` asks for one lane per core: on a one-core machine, no lanes).
 */
async function probePass(fixture: string, target: string, shards: number, autoShards: boolean): Promise<PassResult> {
  const task = await openTask({ repo: join(FIXTURES, fixture), target, blank: false });
  try {
    await setTargetText(task, task.target.probedText);
    return await runPytestPass({
      sandbox: task.sandbox,
      workspace: task.workspace,
      python: task.python.executable,
      env: {
        ...pythonEnv(task.sandbox, task.workspace.root, task.target.file),
        TENET_ROOT: task.sandbox.workdir,
        TENET_TARGET_FILE: posix.join(task.sandbox.workdir, task.target.file),
      },
      testArgs: [],
      shards,
      autoShards,
      testTimeoutSec: 2,
      label: 'probe',
      mode: 'record',
    });
  } finally {
    await task.dispose();
  }
}

const outcomes = (result: PassResult) =>
  Object.fromEntries(
    [...result.tests.values()].map((t) => [
      t.nodeid.split('::')[1],
      t.crashed ? (t.timedOut ? 'hung' : 'crashed') : t.outcome,
    ]),
  );

describe('THM lanes restarted after a hang or a crash', () => {
  it('a restart keeps the split the lanes chose: auto lanes cut to one, then a hang and a crash, and every test still runs', async () => {
    // Two lanes asked, one taken (6 tests): c hangs the lane, d then kills its restart, and the
    // third process must still run all that is left (e and f), not half of it as a shard of two.
    const result = await probePass('robust', 'robust/core.py::compute', 2, true);
    expect(result.shards).toBe(1);
    expect(result.problems).toEqual([]);
    expect(outcomes(result)).toEqual({
      test_a_passes: 'passed',
      test_b_loops_forever: 'failed',
      test_c_blocks_the_timer: 'hung',
      test_d_crashes_the_interpreter: 'crashed',
      test_e_fails_after_the_crash: 'failed',
      test_f_passes_after_the_crash: 'passed',
    });
  });

  it('a lane whose interpreter died is reported crashed, not hung, while another lane runs on past the hang limit', async () => {
    const result = await probePass('lanecrash', 'lanecrash/core.py::compute', 2, false);
    expect(result.shards).toBe(2);
    const crash = result.tests.get('tests/test_lanes.py::test_a_crashes_its_lane')!;
    expect(crash).toMatchObject({ crashed: true, timedOut: false });
    expect(crash.message).toContain('exited with code 3');
    const others = [...result.tests.values()].filter((t) => t !== crash);
    expect(others).toHaveLength(16);
    expect(others.every((t) => t.outcome === 'passed' && !t.crashed)).toBe(true);
  });
});
