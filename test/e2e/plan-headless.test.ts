import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineEvent, RunResult } from '../../source/engine/events';
import { runCli } from '../helpers/cli';
import type { FakeTurn } from '../helpers/fake-model-server';
import { DESCRIBE, AREA, PERIMETER, eventsOf, PLAN_CODE, submitting, threeStubs } from '../helpers/plan-geo';
import { GEO_SUBMISSIONS } from '../helpers/stub-geo';

// A plan headless (item 8 of issue 45): `--approve auto --json` runs it in its order with no
// screen, streaming its events; `--apply` writes the plan's patch only when every target passed,
// and the exit code is 0 only then; `--plan-stop-on-fail` ends the plan at its first failure.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-plan-headless-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

async function headless(turns: FakeTurn[], extra: string[]) {
  const repo = threeStubs();
  const script = join(scratch, `script-${Math.random().toString(36).slice(2)}.json`);
  writeFileSync(script, JSON.stringify({ turns }));
  const before = readFileSync(join(repo.dir, 'geo', 'shapes.py'), 'utf8');
  const cli = await runCli(
    [
      ...['run', '--repo', repo.dir, '--target', 'geo/shapes.py', '--rrw-attempts', '0'],
      ...['--provider', 'scripted', '--script', script, '--approve', 'auto', '--json', ...extra],
    ],
    { env: { XDG_CONFIG_HOME: '/nonexistent' } },
  );
  // --json: every line of stdout is one event, streamed as the run goes.
  const events = cli.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EngineEvent);
  const after = readFileSync(join(repo.dir, 'geo', 'shapes.py'), 'utf8');
  repo.cleanup();
  return { cli, events, result: events.at(-1) as RunResult, before, after };
}

describe('a plan headless', () => {
  it('with every target passing: exit 0, and --apply writes the one patch', async () => {
    const run = await headless(
      [
        submitting(PLAN_CODE.describe),
        submitting(PLAN_CODE.area),
        submitting(PLAN_CODE.perimeter),
        submitting(PLAN_CODE.describe),
      ],
      ['--apply'],
    );
    expect(run.cli.code, run.cli.stderr).toBe(0);
    expect(run.result).toMatchObject({ type: 'result', pass: true, applied: true });
    // Approved as proposed, by no one: the headless plan is the code's order.
    expect(eventsOf(run.events, 'plan')[0]).toMatchObject({ by: 'auto', order: [DESCRIBE, AREA, PERIMETER] });
    expect(run.after).toContain('return width * height');
    expect(run.after).toContain('return 2 * (width + height)');
    expect(run.after).not.toContain('NotImplementedError');
  }, 300_000);

  it('with a target failing: exit 1, the other targets still run and pass, and --apply writes nothing', async () => {
    const run = await headless(
      [
        submitting(PLAN_CODE.describe),
        submitting(GEO_SUBMISSIONS.area.wrong),
        submitting(PLAN_CODE.perimeter),
        submitting(PLAN_CODE.describe),
      ],
      ['--apply'],
    );
    expect(run.cli.code, run.cli.stderr).toBe(1);
    expect(run.result).toMatchObject({ pass: false, applied: false });
    const verdicts = Object.fromEntries(run.result.targets!.map((t) => [t.target, t.pass]));
    expect(verdicts).toMatchObject({ [AREA!]: false, [PERIMETER!]: true });
    expect(run.result.message).toMatch(/targets passed; .*area/);
    // The checkout is as it was: a plan's patch goes in whole, when every target passed.
    expect(run.after).toBe(run.before);
    expect(eventsOf(run.events, 'patch.decision')[0]).toMatchObject({ applied: false });
  }, 300_000);

  it('--plan-stop-on-fail ends the plan at the first target that fails: the rest are skipped', async () => {
    const run = await headless(
      [submitting(PLAN_CODE.describe), submitting(GEO_SUBMISSIONS.area.wrong)],
      ['--plan-stop-on-fail'],
    );
    expect(run.cli.code, run.cli.stderr).toBe(1);
    expect(eventsOf(run.events, 'plan')[0]).toMatchObject({ stopOnFail: true });
    expect(eventsOf(run.events, 'plan.target').map((e) => e.target)).toEqual([DESCRIBE, AREA]);
    expect(run.result.targets!.map((t) => [t.target, t.pass, t.stopReason === 'skipped'])).toEqual([
      [DESCRIBE, false, true],
      [AREA, false, false],
      [PERIMETER, false, true],
    ]);
  }, 300_000);
});
