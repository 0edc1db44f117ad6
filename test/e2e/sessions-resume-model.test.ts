import { readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { loadSession } from '../../source/engine/session/load';
import { runCli } from '../helpers/cli';
import { copyDemoSession } from '../helpers/demo-session';
import { startFakeModelServer, type FakeModelServer, type FakeTurn } from '../helpers/fake-model-server';
import { ROOT } from '../helpers/fixtures';
import { scratch } from '../helpers/sessions-scratch';

// Resume of a demo session cut short, with another model, on a repository that moved (a copy of
// the demo the global setup recorded).
describe('resume with another model, on a repository that moved', () => {
  const dir = join(scratch, 'overrides');
  const key = 'sk-planted-openai-key-424242';
  const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: key, ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };
  const script = join(ROOT, 'examples', 'invoicing.demo.json');
  const turns = (JSON.parse(readFileSync(script, 'utf8')) as { turns: FakeTurn[] }).turns;
  let server: FakeModelServer;
  afterAll(() => server?.close());

  /** Keeps the log's lines before the first event of `type` (`keep`: and that one too). */
  function cutAt(file: string, type: string, keep = false): void {
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes(`"type":"${type}"`));
    expect(at).toBeGreaterThan(0);
    writeFileSync(file, `${lines.slice(0, at + (keep ? 1 : 0)).join('\n')}\n`);
  }

  it('records the new model settings; the catalog and a second resume use them', async () => {
    // The demo's session (the demo's script on a copy of the example, in the session's folder).
    const id = copyDemoSession(dir);
    const first = join(dir, id, 'example');
    const file = join(dir, id, 'events.jsonl');
    // Interrupted before the first model call; then the checkout moved.
    cutAt(file, 'model.request');
    const moved = join(scratch, 'invoicing-moved');
    renameSync(first, moved);
    const missing = await runCli(['resume', id], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('pass --repo');

    server = await startFakeModelServer([...turns, ...turns]);
    const baseUrl = `${server.url}/v1`;
    const resumed = await runCli(
      ['resume', id, '--repo', moved, '--provider', 'openai', '--model', 'gpt-4o-mini', '--base-url', baseUrl],
      { env },
    );
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/^PASS · selected/m);
    expect(server.remaining()).toBe(turns.length);
    const settings = { provider: 'openai', model: 'gpt-4o-mini', baseUrl };
    const resumedEvents = () => loadSession(dir, id).events.filter((e) => e.type === 'session.resumed');
    expect(resumedEvents()).toEqual([expect.objectContaining(settings)]);
    expect(new Catalog(dir).list().find((s) => s.id === id)).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
      status: 'passed',
    });
    expect(readFileSync(file, 'utf8')).not.toContain(key);

    // Interrupted again right after that resume: a plain `resume` goes on with the latest settings.
    cutAt(file, 'session.resumed', true);
    const again = await runCli(['resume', id, '--repo', moved], { env });
    expect(again.code).toBe(0);
    expect(server.remaining()).toBe(0);
    expect(server.requests.map((r) => r.body.model)).toEqual(Array(2 * turns.length).fill('gpt-4o-mini'));
    expect(resumedEvents()).toEqual([expect.objectContaining(settings), expect.objectContaining(settings)]);
    expect((await runCli(['show', id], { env })).stdout).toContain('with openai/gpt-4o-mini._');
  }, 120_000);
});
