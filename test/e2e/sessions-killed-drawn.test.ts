import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { loadSession } from '../../source/engine/session/load';
import { runCli } from '../helpers/cli';
import { DRAWN_POINTS, killDemoAt, killedAndResumed } from '../helpers/demo-kills';

// The demo killed with SIGKILL at points a seeded generator draws, and a kill that tore the last
// line (the spread points are in sessions-killed-early.test.ts and sessions-killed-late.test.ts).
const scratch = mkdtempSync(join(tmpdir(), 'tenet-sessions-drawn-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a session killed with SIGKILL at many points stays loadable, and resume finishes it', () => {
  const dir = join(scratch, 'killed');
  const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };

  killedAndResumed(dir, env, DRAWN_POINTS);

  it('a torn write (the log cut in the middle of a line) is dropped on resume, and the session stays loadable', async () => {
    const { id } = await killDemoAt(dir, env, 60);
    // As if the kill had landed in the middle of writing line 60: keep 59 lines and half of the next.
    const file = join(dir, id, 'events.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, `${lines.slice(0, 59).join('\n')}\n${lines[59]!.slice(0, Math.floor(lines[59]!.length / 2))}`);
    const resumed = await runCli(['resume', id], { env });
    expect(resumed.stderr).toMatch(/warning: .*events\.jsonl: dropped the last line/);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/^PASS · selected/m);
    const shown = await runCli(['show', id], { env });
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('## Result: PASS\n');
    const session = loadSession(dir, id);
    expect(session.warnings).toEqual([]);
    expect(session.events.every((e, i) => e.seq === i + 1)).toBe(true);
    expect(new Catalog(dir).list().find((s) => s.id === id)).toMatchObject({
      status: 'passed',
      events: session.events.length,
    });
  }, 120_000);
});
