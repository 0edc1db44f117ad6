import { cpSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { FIXTURES } from '../helpers/fixtures';

/**
 * A THM run stopped by its budget (`thm --timeout`, `run --thm-timeout`) on a slow suite said
 * "pytest collected no test in scope" and pointed at --tests (issue 34.7): it must say that THM
 * timed out, after how long, and what to do.
 */
const scratch = mkdtempSync(join(tmpdir(), 'tenet-thm-timeout-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** The shop fixture whose collection takes 20 s (a conftest that sleeps as it is imported). */
function slowRepo(): string {
  const repo = join(scratch, 'shop');
  cpSync(join(FIXTURES, 'shop'), repo, { recursive: true });
  writeFileSync(join(repo, 'tests', 'conftest.py'), 'import time\ntime.sleep(20)\n');
  return repo;
}

describe('a THM run stopped by its time budget', () => {
  const repo = slowRepo();

  it('tenet thm says it timed out after N s and how to give it more time, not that pytest collected nothing', async () => {
    const thm = await runCli([
      'thm',
      '--repo',
      repo,
      '--target',
      'shop/cart.py::Cart.total',
      '--blank',
      '--timeout',
      '2',
      '--tests',
      'tests/test_cart.py',
    ]);
    expect(thm.stdout).toContain(
      'THM timed out after 2 s, before pytest had collected a test, so it found no failing test to select. Give it more time with --timeout SECONDS (default 3600), or narrow the scope with --tests PATH.',
    );
    expect(thm.stdout).not.toContain('collected no test');
  }, 60_000);

  it('tenet run refuses with the same words and --thm-timeout', async () => {
    const run = await runCli([
      'run',
      '--repo',
      repo,
      '--target',
      'shop/cart.py::Cart.total',
      '--blank',
      '--thm-timeout',
      '2',
      '--provider',
      'scripted',
      '--script',
      join(import.meta.dirname, '..', '..', 'examples', 'invoicing.demo.json'),
      '--json',
      '--tests',
      'tests/test_cart.py',
    ]);
    expect(run.stderr).toContain(
      'THM timed out after 2 s, before pytest had collected a test, so there is no failing test to generate shop/cart.py::Cart.total against.',
    );
    expect(run.stderr).toContain(
      'fix: give THM more time with --thm-timeout SECONDS (default 3600), or narrow the scope with --tests PATH',
    );
    expect(run.stderr).not.toContain('collected no test');
  }, 60_000);
});
