import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import type { EngineEvent, EventOf } from '../../source/engine/events';
import { runCli } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer, type FakeTurn } from '../helpers/fake-model-server';
import { ROOT } from '../helpers/fixtures';

// `tenet demo` is the offline scripted demo whatever keys the environment holds; --live runs it
// with the configured model and says which, and that it costs money.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-demo-live-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
const turns = (JSON.parse(readFileSync(join(ROOT, 'examples', 'invoicing.demo.json'), 'utf8')) as { turns: FakeTurn[] })
  .turns;

const startOf = (stdout: string) =>
  stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EngineEvent)
    .find((e): e is EventOf<'session.start'> => e.type === 'session.start')!;

describe('tenet demo', () => {
  it('plays the script even with an API key and a server in the environment: no request reaches the server', async () => {
    server = await startFakeModelServer(turns);
    const env = {
      TENET_SESSIONS_DIR: join(scratch, 's1'),
      XDG_CONFIG_HOME: join(scratch, 'no-config'),
      OPENAI_API_KEY: 'sk-real-looking',
      OPENAI_BASE_URL: `${server.url}/v1`,
    };
    const out = await runCli(['demo', '--json', '--approve', 'auto'], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(startOf(out.stdout).provider).toBe('scripted');
    expect(server.requests).toHaveLength(0);
    expect(out.stderr).not.toContain('cost money');
  }, 120_000);

  it('refuses a real model without --live, and says how to ask for one', async () => {
    const out = await runCli(['demo', '--json', '--provider', 'openai', '--model', 'gpt-4.1-mini'], {
      env: { TENET_SESSIONS_DIR: join(scratch, 's2'), OPENAI_API_KEY: 'k' },
    });
    expect(out.code).not.toBe(0);
    expect(out.stderr).toContain(
      'tenet demo plays the scripted demo model; --provider openai, --model choose a real one',
    );
    expect(out.stderr).toContain('add --live');
  });

  it('--live: the configured model answers, named first with what it costs', async () => {
    server = await startFakeModelServer(turns);
    const env = {
      TENET_SESSIONS_DIR: join(scratch, 's3'),
      XDG_CONFIG_HOME: join(scratch, 'no-config'),
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${server.url}/v1`,
    };
    const out = await runCli(['demo', '--live', '--json', '--approve', 'auto', '--model', 'gpt-4.1-mini'], { env });
    expect(out.code, out.stderr).toBe(0);
    expect(out.stderr).toContain(
      `tenet demo --live: gpt-4.1-mini (OpenAI-compatible, ${server.url}/v1) answers; its calls cost money`,
    );
    expect(startOf(out.stdout)).toMatchObject({ provider: 'openai', model: 'gpt-4.1-mini' });
    expect(server.requests.length).toBeGreaterThan(0);
  }, 120_000);
});
