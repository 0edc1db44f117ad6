import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { copyFixture } from '../helpers/fixtures';

/**
 * What the model says and what its commands print is untrusted: it must not drive the terminal
 * (OSC 52 writes the clipboard, OSC 0 the title, ESC[2J clears the screen), and no secret of
 * tenet's environment may reach the model, the terminal or the disk, whatever the commands do.
 */
const KEY = 'sk-live-abc123secret456def';
const TOKEN = 'tok-very-secret-789xyz';
const SECRETS = { OPENAI_API_KEY: KEY, MY_TOKEN: TOKEN };
const RIGHT =
  'def apply_discount(price, percent):\n    if percent < 0 or percent > 100:\n        raise ValueError("percent must be within 0..100")\n    return round(price * (100 - percent) / 100, 2)\n';
const LEAKY =
  "def apply_discount(price, percent):\n    import os\n    raise RuntimeError('key=' + os.environ.get('OPENAI_API_KEY', 'none') + ' token=' + os.environ.get('MY_TOKEN', 'none'))\n";
/** Terminal control: ESC, BEL and every other C0 (but newline and tab) and C1 character. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f]/;

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const hostileTurns = () => [
  {
    say: 'Looking.\x1b]52;c;cm0gLXJmIH4=\x07\x1b]0;owned\x07\x1b[2J\x9b2J',
    calls: [
      {
        name: 'run_debugger_cmd',
        arguments: { cmd: "env; printf '\\033]52;c;aGk=\\007\\033]0;title\\007\\033[2Jcleared'" },
      },
    ],
  },
  // A local command can read tenet's own environment; what it prints must still not reach the model.
  {
    calls: [
      {
        name: 'run_debugger_cmd',
        arguments: {
          cmd: "cat /proc/*/environ 2>/dev/null | tr '\\0' '\\n' | grep -a -e MY_TOKEN -e OPENAI_API_KEY | sort -u | head -4",
        },
      },
    ],
  },
  {
    calls: [
      { name: 'submit_implementation', arguments: { code: LEAKY } },
      { name: 'run_tests', arguments: {} },
    ],
  },
  // The refinement workflow's first two stages end in an answer; code refinement submits.
  { say: 'The implementation raises instead of discounting.' },
  { say: 'Nothing similar to compare with.' },
  { calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] },
];

const args = (repo: string) => [
  'run',
  '--repo',
  repo,
  '--target',
  'shop/pricing.py::apply_discount',
  '--blank',
  '-T',
  '1',
  '--provider',
  'openai',
  '--model',
  'gpt-4o-mini',
  '--approve',
  'auto',
];

function sessionFiles(sessionsDir: string, id: string): string {
  return readdirSync(join(sessionsDir, id))
    .map((f) => readFileSync(join(sessionsDir, id, f), 'utf8'))
    .join('\n');
}

describe('untrusted text and secrets in a run', () => {
  it('nothing secret reaches the model, stdout or the session; no control sequence reaches stdout, show or replay', async () => {
    const repo = copyFixture('shop');
    const sessions = join(repo.dir, '..', 'sessions');
    try {
      server = await startFakeModelServer(hostileTurns());
      const env = { ...SECRETS, OPENAI_BASE_URL: `${server.url}/v1`, TENET_SESSIONS_DIR: sessions };
      const json = await runCli([...args(repo.dir), '--json', '--tests', 'tests/test_pricing.py'], { env });
      expect(json.code, json.stderr).toBe(0);
      const requests = JSON.stringify(server.requests.map((r) => r.body));
      // The commands ran (env, /proc) and the leaky implementation was tested: none of it leaked.
      expect(requests).toContain('PYTHONPATH=');
      expect(requests).toContain('key=none token=none');
      // tenet's own /proc/PID/environ is out of the confined sandbox's sight (a PID namespace of its own).
      expect(requests).not.toContain('MY_TOKEN=');
      for (const secret of [KEY, TOKEN]) {
        expect(requests).not.toContain(secret);
        expect(json.stdout + json.stderr).not.toContain(secret);
      }
      expect(requests).not.toContain('OPENAI_BASE_URL=');
      expect(json.stdout).not.toMatch(CONTROL);
      const id = JSON.parse(json.stdout.trim().split('\n').at(-1)!).sessionId as string;
      for (const secret of [KEY, TOKEN]) expect(sessionFiles(sessions, id)).not.toContain(secret);

      for (const command of [
        ['show', id],
        ['replay', id, '--headless'],
      ]) {
        const shown = await runCli(command, { env: { TENET_SESSIONS_DIR: sessions } });
        expect(shown.code, shown.stderr).toBe(0);
        expect(shown.stdout).toContain('Looking.');
        expect(shown.stdout).not.toMatch(CONTROL);
      }

      await server.close();
      server = await startFakeModelServer(hostileTurns());
      const text = await runCli([...args(repo.dir), '--tests', 'tests/test_pricing.py'], {
        env: { ...env, OPENAI_BASE_URL: `${server.url}/v1` },
      });
      expect(text.code, text.stderr).toBe(0);
      expect(text.stdout).toContain('model: Looking.');
      expect(text.stdout).not.toMatch(CONTROL);
      for (const secret of [KEY, TOKEN]) expect(text.stdout).not.toContain(secret);
    } finally {
      repo.cleanup();
    }
  }, 180_000);

  it('a provider error that echoes the key is printed redacted, in text and in --json', async () => {
    const repo = copyFixture('shop');
    try {
      server = await startFakeModelServer([
        {
          status: 401,
          message: `Incorrect API key provided: ${KEY}. You can find your API key at https://example.test.`,
        },
      ]);
      const env = { ...SECRETS, OPENAI_BASE_URL: `${server.url}/v1` };
      const result = await runCli([...args(repo.dir), '--json', '--tests', 'tests/test_pricing.py'], { env });
      expect(result.code).toBe(3);
      expect(result.stderr).toContain('Incorrect API key provided: [redacted:OPENAI_API_KEY]');
      expect(result.stdout).toContain('[redacted:OPENAI_API_KEY]');
      expect(result.stdout + result.stderr).not.toContain(KEY);
    } finally {
      repo.cleanup();
    }
  }, 120_000);
});
