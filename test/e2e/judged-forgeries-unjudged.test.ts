import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { forgedShop, forgeries, pytestRun, TESTS } from '../helpers/judged-forgeries';

/**
 * The forgeries of test/helpers/judged-forgeries.ts on the harness without tenet's judge: each
 * works (its tests report passed, or what it planted makes the next process pass them). What the
 * judged files are checked for is what these attacks do without the judge.
 */
describe('the harness without the judge: each forgery works', () => {
  it.each(forgeries.map((f) => [f.name, f] as const))(
    '%s',
    (_name, forgery) => {
      const repo = forgedShop(forgery);
      const lines = forgery.body.trimEnd().split('\n').length;
      const first = pytestRun(repo, false, lines);
      if (forgery.unjudged === 'all pass')
        expect(Object.values(first.outcomes).filter((o) => o === 'passed' || o === 'xfailed')).toHaveLength(
          TESTS.length,
        );
      else if (forgery.unjudged === 'planted')
        expect(readFileSync(join(repo, 'tests', 'conftest.py'), 'utf8')).toContain('# forged');
      else {
        // The first process ended in the first test; the next one loads what it planted.
        const next = pytestRun(repo, false, lines);
        expect(next.outcomes).toEqual(Object.fromEntries(TESTS.map((id) => [id, 'passed'])));
      }
    },
    120_000,
  );
});
