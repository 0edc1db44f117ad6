import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { loadSession } from '../../source/engine/session/load';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';

// A live demo's session, while another tenet writes it and when a signal stops it.
const scratch = mkdtempSync(join(tmpdir(), 'tenet-sessions-signals-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const lineCount = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0);

describe('one writer per session', () => {
  const dir = join(scratch, 'locked');
  const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };

  it('resume and rerun of a session another live tenet writes exit 2 naming its pid; once it is gone, resume takes the stale lock over', async () => {
    const child = startCli(['demo'], { env });
    const ended = finished(child);
    let id: string | undefined;
    await waitFor(
      () => {
        id ??= existsSync(dir) ? new Catalog(dir).list()[0]?.id : undefined;
        return !!id && lineCount(join(dir, id, 'events.jsonl')) >= 10;
      },
      60_000,
      'the demo to log 10 events',
    );
    // Frozen, not dead: it still holds the session.
    child.kill('SIGSTOP');
    try {
      const before = readFileSync(join(dir, id!, 'events.jsonl'), 'utf8');
      for (const command of ['resume', 'rerun']) {
        const refused = await runCli([command, id!], { env });
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain(`being written by another tenet (pid ${child.pid})`);
        expect(refused.stderr).toContain(`kill ${child.pid}`);
      }
      // Nothing was appended by the refused commands.
      expect(readFileSync(join(dir, id!, 'events.jsonl'), 'utf8')).toBe(before);
    } finally {
      child.kill('SIGKILL');
      child.kill('SIGCONT');
      await ended;
    }
    expect(existsSync(join(dir, id!, 'lock'))).toBe(true);
    const resumed = await runCli(['resume', id!], { env });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(existsSync(join(dir, id!, 'lock'))).toBe(false);
    const seqs = loadSession(dir, id!).events.map((e) => e.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
  }, 120_000);
});

describe('Ctrl+C in a headless run', () => {
  it('exits 130 and says how to resume the session', async () => {
    const dir = join(scratch, 'interrupted');
    const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };
    const child = startCli(['demo'], { env });
    const ended = finished(child);
    let id: string | undefined;
    await waitFor(
      () => {
        id ??= existsSync(dir) ? new Catalog(dir).list()[0]?.id : undefined;
        return !!id && lineCount(join(dir, id, 'events.jsonl')) >= 5;
      },
      60_000,
      'the demo to log 5 events',
    );
    child.kill('SIGINT');
    const result = await ended;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain(`Session ${id} is saved; go on with it: tenet resume ${id}`);
  }, 60_000);

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} ends a --json run like Ctrl+C: a last result line (interrupted), the session resumable, the workspace gone`, async () => {
      const dir = join(scratch, `stopped-${signal}`);
      const tmp = mkdtempSync(join(tmpdir(), 'tenet-stop-tmp-'));
      const env = {
        TENET_SESSIONS_DIR: dir,
        TMPDIR: tmp,
        OPENAI_API_KEY: '',
        ANTHROPIC_API_KEY: '',
        XDG_CONFIG_HOME: '/nonexistent',
      };
      const child = startCli(['demo', '--json'], { env });
      const ended = finished(child);
      await waitFor(
        () =>
          child.output.stdout.includes('"type":"tests.hidden"') || child.output.stdout.includes('"type":"agent.phase"'),
        60_000,
        'the agent to start',
      );
      child.kill(signal);
      const result = await ended;
      expect(result.code).toBe(code);
      const last = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
      expect(last).toMatchObject({ type: 'result', pass: false, stopReason: 'interrupted' });
      expect(last.message).toContain(`tenet resume ${last.sessionId}`);
      expect(new Catalog(dir).list().find((s) => s.id === last.sessionId)?.status).toBe('interrupted');
      expect(readdirSync(tmp).filter((name) => name.startsWith('tenet-'))).toEqual([]);
      const resumed = await runCli(['resume', last.sessionId], { env });
      expect(resumed.code, resumed.stderr).toBe(0);
      rmSync(tmp, { recursive: true, force: true });
    }, 120_000);
  }
});
