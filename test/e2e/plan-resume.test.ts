import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { loadSession } from '../../source/engine/session/load';
import { finished, runCli, startCli, waitFor, jsonEvents } from '../helpers/cli';
import { startFakeModelServer } from '../helpers/fake-model-server';
import { DESCRIBE, AREA, PERIMETER, eventsOf, PLAN_CODE, submitting, threeStubs } from '../helpers/plan-geo';

// A plan killed in the middle of its second target, then resumed: the first target's code is
// kept (no model call is made for it again), and the second goes on from its last step (the
// round after the one it had answered), then the plan finishes as if never stopped.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-plan-resume-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a plan killed in the middle of target 2, then resumed', () => {
  it('keeps target 1 (area) and its code, and starts target 2 (perimeter) again from its last step', async () => {
    const repo = threeStubs();
    // describe's first validation stops in area's stub (it waits); area passes: target 1 of 3;
    // perimeter reads a file (its round 1 answered), then its second call never answers.
    const server = await startFakeModelServer([
      submitting(PLAN_CODE.describe, 'describe first'),
      submitting(PLAN_CODE.area, 'area'),
      { say: 'Reading the module.', calls: [{ name: 'read_file', arguments: { file_name: 'geo/shapes.py' } }] },
      { say: 'late', delayMs: 120_000 },
    ]);
    const env = {
      TENET_SESSIONS_DIR: join(scratch, 'sessions'),
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${server.url}/v1`,
      ANTHROPIC_API_KEY: '',
      XDG_CONFIG_HOME: '/nonexistent',
    };
    try {
      const child = startCli(
        [
          ...['run', '--repo', repo.dir, '--target', 'geo/shapes.py', '--rrw-attempts', '0'],
          ...['--provider', 'openai', '--model', 'gpt-4o-mini', '--json'],
        ],
        { env },
      );
      const ended = finished(child);
      await waitFor(
        () => (child.output.stdout.match(/"type":"model\.request"/g) ?? []).length === 4,
        150_000,
        "perimeter's second model call",
      );
      child.kill('SIGTERM');
      expect((await ended).code).toBe(143);
      const first = jsonEvents(child.output.stdout);
      const id = (first[0] as EngineEvent & { sessionId: string }).sessionId;
      // Where the kill fell: area passed and was kept, perimeter is target 2 of 3, open.
      expect(eventsOf(first, 'plan.target.end').map((e) => [e.target, e.pass, !!e.after])).toEqual([
        [DESCRIBE, false, true],
        [AREA, true, false],
      ]);
      expect(eventsOf(first, 'plan.target').at(-1)).toMatchObject({ target: PERIMETER, index: 2, total: 3 });
      // The checkout is untouched by the run (no --apply): the stubs are still stubs.
      expect(readFileSync(join(repo.dir, 'geo', 'shapes.py'), 'utf8')).not.toContain('2 * (width + height)');

      const script = join(scratch, 'rest.json');
      writeFileSync(
        script,
        JSON.stringify({ turns: [submitting(PLAN_CODE.perimeter, 'perimeter'), submitting(PLAN_CODE.describe)] }),
      );
      const resumed = await runCli(['resume', id, '--script', script, '--json'], { env });
      expect(resumed.code, resumed.stderr).toBe(0);
      const after = jsonEvents(resumed.stdout);
      expect(after.find((e) => e.type === 'session.resumed')).toMatchObject({
        position: expect.stringContaining('after 1 round'),
      });
      // perimeter goes on (no new start of it), at its round 2; then describe, whose wait is over.
      expect(eventsOf(after, 'plan.target').map((e) => e.target)).toEqual([DESCRIBE]);
      expect(eventsOf(after, 'model.request').map((e) => e.round)).toEqual([2, 1]);
      expect(eventsOf(after, 'plan.target.end').map((e) => [e.target, e.pass])).toEqual([
        [PERIMETER, true],
        [DESCRIBE, true],
      ]);
      // area's code was kept: it was not asked for again, and its verdict stands in the one result.
      const result = after.at(-1)!;
      expect(result).toMatchObject({ type: 'result', pass: true });
      expect(result.type === 'result' && result.targets!.map((t) => [t.target, t.pass])).toEqual([
        [DESCRIBE, true],
        [AREA, true],
        [PERIMETER, true],
      ]);
      expect(eventsOf(after, 'plan.final')[0]).toMatchObject({ targets: [AREA, PERIMETER, DESCRIBE] });

      // The whole log: perimeter's round 2 asked twice (once unanswered), area's once.
      const log = loadSession(join(scratch, 'sessions'), id).events;
      expect(eventsOf(log, 'plan.target').map((e) => e.target)).toEqual([DESCRIBE, AREA, PERIMETER, DESCRIBE]);
      expect(eventsOf(log, 'model.request').map((e) => e.round)).toEqual([1, 1, 1, 2, 2, 1]);
    } finally {
      await server.close();
      repo.cleanup();
    }
  }, 400_000);
});
