import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { loadSession } from '../../source/engine/session/load';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { startFakeModelServer } from '../helpers/fake-model-server';
import { propertyShop, SETTER_CODE, SETTER_LINE, slowScript } from '../helpers/property-shop';

// `resume --provider scripted` works: resume takes --script (the turns from here on), and a session
// that had no script says to give one instead of "--provider scripted needs --script FILE" with no
// --script to give.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-resume-script-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('resuming with a scripted model', () => {
  it('a session of another provider asks for --script; with it, the script plays from its first turn, and is recorded', async () => {
    const [waiting] = slowScript(SETTER_CODE).turns as [
      { say: string; calls: { name: string; arguments: Record<string, unknown> }[] },
    ];
    const server = await startFakeModelServer([waiting]);
    const repo = propertyShop();
    const dir = join(scratch, 'openai');
    const env = {
      TENET_SESSIONS_DIR: dir,
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: `${server.url}/v1`,
      ANTHROPIC_API_KEY: '',
      XDG_CONFIG_HOME: '/nonexistent',
    };
    try {
      const args = [
        'run',
        '--repo',
        repo.dir,
        '--target',
        `shop/cart.py::Cart.discount@${SETTER_LINE}`,
        '--blank',
        '--provider',
        'openai',
        '--model',
        'gpt-4o-mini',
        '--json',
      ];
      const child = startCli(args, { env });
      const ended = finished(child);
      await waitFor(() => child.output.stdout.includes('"name":"run_debugger_cmd"'), 90_000, 'the shell command');
      child.kill('SIGTERM');
      expect((await ended).code).toBe(143);
      const id = JSON.parse(child.output.stdout.split('\n')[0]!).sessionId as string;

      const refused = await runCli(['resume', id, '--headless', '--approve', 'auto', '--provider', 'scripted'], {
        env,
      });
      expect(refused.code).toBe(2);
      expect(refused.stderr).toContain(`Session ${id} used openai, not a script`);
      expect(refused.stderr).toContain('--script FILE');
      expect(new Catalog(dir).list().find((s) => s.id === id)?.status).toBe('interrupted');

      const script = join(scratch, 'submit.json');
      writeFileSync(
        script,
        JSON.stringify({
          turns: [{ say: 'Setting it.', calls: [{ name: 'submit_implementation', arguments: { code: SETTER_CODE } }] }],
        }),
      );
      // --script alone means the scripted model.
      const resumed = await runCli(['resume', id, '--headless', '--approve', 'auto', '--script', script], { env });
      expect(resumed.code, resumed.stderr).toBe(0);
      expect(resumed.stdout).toMatch(/^PASS · selected/m);
      expect(loadSession(dir, id).events.find((e) => e.type === 'session.resumed')).toMatchObject({
        provider: 'scripted',
        scriptFile: script,
        scriptFrom: 1,
      });
    } finally {
      repo.cleanup();
      await server.close();
    }
  }, 180_000);
});
