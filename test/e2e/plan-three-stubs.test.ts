import { spawnSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import {
  DESCRIBE,
  AREA,
  PERIMETER,
  eventsOf,
  PLAN_CODE,
  runPlanCli,
  submitting,
  threeStubs,
} from '../helpers/plan-geo';

// The case: a module's skeleton in TDD, three stubs, the first (describe) needing the two
// after it. One session implements them all: describe's first validation stops in area's stub,
// so it waits for area and perimeter (it calls both) instead of spending its attempts; each target
// gets a fresh conversation that knows the ones done; one verdict each; the patch applied is a
// module plain pytest passes.

/** The messages of a request, in either wire format, as one text. */
const said = (request: { body: Record<string, unknown> }) => JSON.stringify(request.body.messages);

describe.each(['openai', 'anthropic'] as const)('a plan of three stubs in one file, through the %s SDK', (provider) => {
  it('runs the callees first, passes all three with a verdict each, and applies a module plain pytest passes', async () => {
    const repo = threeStubs();
    try {
      const run = await runPlanCli(
        provider,
        [
          submitting(PLAN_CODE.describe, 'describe, with area and perimeter'),
          submitting(PLAN_CODE.area, 'area'),
          submitting(PLAN_CODE.perimeter, 'perimeter'),
          submitting(PLAN_CODE.describe, 'describe again'),
        ],
        ['--repo', repo.dir, '--target', 'geo/shapes.py', '--rrw-attempts', '0', '--apply'],
      );
      expect(run.cli.code, run.cli.stderr).toBe(0);
      const [plan] = eventsOf(run.events, 'plan');
      // Stubs call nothing: the code shows no order, file order stands.
      expect(plan!.order).toEqual([DESCRIBE, AREA, PERIMETER]);
      expect(plan!.targets.find((t) => t.target === AREA)!.reaches).toContain(
        'tests/test_shapes.py::test_area_of_a_square',
      );
      expect(eventsOf(run.events, 'plan.target').map((e) => e.target)).toEqual([DESCRIBE, AREA, PERIMETER, DESCRIBE]);
      const waited = eventsOf(run.events, 'plan.target.end').filter((e) => e.after);
      expect(waited).toHaveLength(1);
      expect(waited[0]).toMatchObject({ target: DESCRIBE, waitsFor: [AREA, PERIMETER], after: PERIMETER });
      expect(waited[0]!.why).toMatch(/describe waits for area and perimeter: its tests stop in area's stub/);
      // It waited at its first validation: no refinement attempt was spent.
      expect(run.requests).toHaveLength(4);

      expect(run.result.pass).toBe(true);
      expect(run.result.stopReason).toBe('passed');
      // area's four tests (its two, total_area's, summary's): THM gives the agent three, one stays hidden.
      expect(run.result.targets!.map((t) => [t.target, t.pass, t.selectedTests, t.hiddenTests])).toEqual([
        [DESCRIBE, true, { passed: 2, total: 2 }, { passed: 0, total: 0 }],
        [AREA, true, { passed: 3, total: 3 }, { passed: 1, total: 1 }],
        [PERIMETER, true, { passed: 2, total: 2 }, { passed: 0, total: 0 }],
      ]);
      // The final evaluation ran every kept target's failing tests together, hidden ones included.
      const [final] = eventsOf(run.events, 'plan.final');
      expect(final).toMatchObject({ targets: [AREA, PERIMETER, DESCRIBE], tests: 8 });
      const evaluations = eventsOf(run.events, 'tests.run').filter((e) => e.purpose === 'evaluate');
      expect(evaluations.at(-1)).toMatchObject({ passed: 8, total: 8 });

      // A fresh conversation per target: area's knows nothing of describe's; describe's second knows both done.
      expect(said(run.requests[1]!)).not.toContain('describe, with area and perimeter');
      expect(said(run.requests[1]!)).toContain('Still stubs, implemented later in the plan: perimeter, describe');
      expect(said(run.requests[3]!)).toMatch(
        /Done so far:.*area in geo\/shapes.py.*passed.*perimeter in geo\/shapes.py/,
      );
      expect(said(run.requests[3]!)).not.toContain('describe, with area and perimeter');

      // One patch, applied: the module passes plain pytest.
      expect(run.result.applied).toBe(true);
      expect(eventsOf(run.events, 'patch.decision')[0]).toMatchObject({
        applied: true,
        targets: [AREA, PERIMETER, DESCRIBE],
      });
      const pytest = spawnSync(
        'python3',
        ['-m', 'pytest', '-q', '-p', 'no:cacheprovider', 'tests/test_shapes.py', 'tests/test_report.py'],
        { cwd: repo.dir, encoding: 'utf8' },
      );
      expect(pytest.status, pytest.stdout + pytest.stderr).toBe(0);
      expect(pytest.stdout).toMatch(/^8 passed/m);
    } finally {
      repo.cleanup();
    }
  });
});
