import { spawnSync } from 'node:child_process';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { ROOT } from '../helpers/fixtures';

/**
 * The Python helpers tenet ships (source/python: the THM plugin and probe, lanes, cached
 * fixtures, the bench reach plugin, coverage, the mutation worker, the launcher) have pytest
 * tests of their own in test/python; this runs them, so `npm test` (and CI) fails when they do.
 */
describe('the Python helpers (test/python, pytest)', () => {
  it('pass their own tests', () => {
    const run = spawnSync(
      process.env.TENET_PYTHON ?? 'python3',
      ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', join(ROOT, 'test', 'python')],
      {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, PYTHONDONTWRITEBYTECODE: '1' },
        timeout: 240_000,
      },
    );
    const output = `${run.stdout}${run.stderr}`;
    // pytest's summary names each failure; it is the message when this fails.
    expect(run.status, output).toBe(0);
    expect(Number(/(\d+) passed/.exec(output)?.[1] ?? 0)).toBeGreaterThanOrEqual(16);
  }, 250_000);
});
