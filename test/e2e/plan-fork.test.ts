import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSession } from '../../source/engine/session/load';
import { runCli, jsonEvents } from '../helpers/cli';
import { DESCRIBE, AREA, PERIMETER, PLAN_CODE, runPlanCli, submitting, threeStubs } from '../helpers/plan-geo';

// A fork of a plan at an event inside its second target: the first target's run comes from the
// record (no model call, no cost), the second goes live from the fork's point, and the plan ends
// with one verdict per target. A wrong body given live fails that target (and describe, which
// calls it), where the parent passed: what the fork decides is its own.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-plan-fork-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const sessions = join(scratch, 'sessions');

describe('a fork of a plan at an event of its second target', () => {
  it('replays the first target from the record and runs the second live from there', async () => {
    const repo = threeStubs();
    try {
      const parent = await runPlanCli(
        'openai',
        [
          submitting(PLAN_CODE.describe, 'describe first'),
          submitting(PLAN_CODE.area),
          submitting(PLAN_CODE.perimeter),
          submitting(PLAN_CODE.describe),
        ],
        ['--repo', repo.dir, '--target', 'geo/shapes.py', '--rrw-attempts', '0'],
        { TENET_SESSIONS_DIR: sessions },
      );
      expect(parent.result.pass, parent.cli.stderr.slice(-2000)).toBe(true);
      const log = loadSession(sessions, parent.result.sessionId).events;
      // The model request of perimeter, target 2 of 3 (after describe waited and area passed).
      const starts = log.filter((e) => e.type === 'plan.target');
      const perimeterStart = starts.find((e) => e.type === 'plan.target' && e.target === PERIMETER)!;
      const at = log.find((e) => e.type === 'model.request' && e.seq > perimeterStart.seq)!.seq;

      const script = join(scratch, 'wrong-perimeter.json');
      const wrong = PLAN_CODE.perimeter.replace('2 * (width + height)', 'width + height');
      expect(wrong).not.toBe(PLAN_CODE.perimeter);
      writeFileSync(script, JSON.stringify({ turns: [submitting(wrong, 'live'), submitting(PLAN_CODE.describe)] }));
      const fork = await runCli(
        ['fork', parent.result.sessionId, '--at', String(at), '--provider', 'scripted', '--script', script, '--json'],
        {
          env: { TENET_SESSIONS_DIR: sessions, XDG_CONFIG_HOME: '/nonexistent' },
        },
      );
      const events = jsonEvents(fork.stdout);
      const result = events.at(-1)!;
      expect(result.type, fork.stderr.slice(-2000)).toBe('result');
      expect(events.find((e) => e.type === 'session.forked')).toMatchObject({ parent: parent.result.sessionId, at });
      // area came from the record and stands; perimeter's live body was wrong and fails, and so
      // does describe, whose tests go through perimeter.
      expect(result.type === 'result' && result.targets!.map((t) => [t.target, t.pass])).toEqual([
        [DESCRIBE, false],
        [AREA, true],
        [PERIMETER, false],
      ]);
      // Live calls: perimeter's and describe's only (the script's two turns), none for area.
      const forkLog = loadSession(sessions, (result as { sessionId: string }).sessionId).events;
      const live = forkLog.filter((e) => e.type === 'model.response' && e.seq > at);
      expect(live.map((e) => e.type === 'model.response' && e.content)).toEqual(['live', 'Submitting.']);
    } finally {
      repo.cleanup();
    }
  }, 400_000);
});
