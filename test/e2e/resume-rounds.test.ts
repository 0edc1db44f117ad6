import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadSession } from '../../source/engine/session/load';
import { finished, startCli, waitFor } from '../helpers/cli';
import { startFakeModelServer } from '../helpers/fake-model-server';
import { ROOT } from '../helpers/fixtures';
import { resumeSubmitting } from '../helpers/resume';

// A run stopped while a model call was in flight, then resumed: the resume line said
// "pre-generation, after 1 round" and the call made again was numbered round 3 (the header's
// "round 3/15", step mode's "before model call 3", the developer's messages), one past the
// position. The unanswered request is now made again under its own number.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-resume-rounds-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('resuming a run interrupted in the middle of a model call', () => {
  it('makes the call again as the round after the ones the resume line counts, and goes on from there', async () => {
    // The first call answers; the second never does before the run is stopped.
    const server = await startFakeModelServer([
      { say: 'Reading the rates.', calls: [{ name: 'read_file', arguments: { file_name: 'invoicing/rates.py' } }] },
      { say: 'late', delayMs: 120_000 },
    ]);
    const repo = join(scratch, 'invoicing');
    cpSync(join(ROOT, 'examples', 'invoicing'), repo, { recursive: true });
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
          'run',
          '--repo',
          repo,
          '--target',
          'invoicing/tax.py::tax_for',
          '--provider',
          'openai',
          '--model',
          'gpt-4o-mini',
          '--json',
        ],
        { env },
      );
      const ended = finished(child);
      await waitFor(
        () => (child.output.stdout.match(/"type":"model\.request"/g) ?? []).length === 2,
        90_000,
        'the second model call',
      );
      child.kill('SIGTERM');
      expect((await ended).code).toBe(143);
      const id = JSON.parse(child.output.stdout.split('\n')[0]!).sessionId as string;

      const events = await resumeSubmitting(scratch, id, env);
      expect(events.find((e) => e.type === 'session.resumed')).toMatchObject({
        position: 'pre-generation, after 1 round',
      });
      expect(
        events.filter((e) => e.type === 'model.request').map((e) => e.type === 'model.request' && e.round),
      ).toEqual([2]);
      expect(events.at(-1)).toMatchObject({ type: 'result', pass: true, rounds: { pregen: 2, total: 2 } });

      // The whole log: round 2 asked twice (once unanswered), each round answered once, in order.
      const log = loadSession(join(scratch, 'sessions'), id).events;
      expect(log.filter((e) => e.type === 'model.request').map((e) => e.type === 'model.request' && e.round)).toEqual([
        1, 2, 2,
      ]);
    } finally {
      await server.close();
    }
  }, 180_000);
});
