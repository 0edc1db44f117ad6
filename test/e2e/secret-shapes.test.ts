import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { fakeSecrets, inFile } from '../helpers/fake-secrets';
import { copyFixture } from '../helpers/fixtures';

/**
 * Issue 43 item 3: a secret is recognised by its shape, not only as a value of tenet's
 * environment. A repository file holding one of each shape is printed by the agent's shell; none
 * of them reaches the model, the session, the `--json` stream, the headless output or an export.
 * The patch is the developer's code: it keeps a token the model wrote, and the result says where.
 */
const SECRETS = fakeSecrets();
const FILE = Object.entries(SECRETS)
  .map(([name, { secret }]) => `# ${name}\n${inFile(name, secret)}\n`)
  .join('');
/** What each shape looks like for a `not.toContain`: a key block by one of its base64 lines (the block spans many). */
const LOOKED_FOR = Object.entries(SECRETS).map(([name, { secret }]) => ({
  name,
  text: name === 'private key' ? secret.split('\n')[2]! : secret,
}));

const TOKEN = SECRETS['GitHub classic token']!.secret;
/** The right body, which also writes a token into the code. */
const WITH_TOKEN = `def apply_discount(price, percent):\n    service_token = "${TOKEN}"\n    if percent < 0 or percent > 100:\n        raise ValueError("percent must be within 0..100")\n    return round(price * (100 - percent) / 100, 2)\n`;
const warning = (line: number) => `the patch holds a string shaped like a GitHub token at shop/pricing.py:${line}`;

const turns = () => [
  { calls: [{ name: 'run_debugger_cmd', arguments: { cmd: 'cat config/credentials.txt' } }] },
  { calls: [{ name: 'submit_implementation', arguments: { code: WITH_TOKEN } }] },
];

const runArgs = (repo: string) => [
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
/** Everything after --tests goes to pytest: tenet's own options come before. */
const TESTS = ['--tests', 'tests/test_pricing.py'];

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The shop fixture with a file of secrets in it, as a repository may hold one. */
function repoWithSecrets(): ReturnType<typeof copyFixture> {
  const repo = copyFixture('shop');
  mkdirSync(join(repo.dir, 'config'));
  writeFileSync(join(repo.dir, 'config', 'credentials.txt'), FILE);
  return repo;
}

function expectNoShape(where: string, text: string): void {
  for (const { name, text: secret } of LOOKED_FOR) expect(text, `${name} in ${where}`).not.toContain(secret);
}

describe('secrets by shape (issue 43 item 3)', () => {
  it('a file of secrets printed by the shell reaches neither the model, the session, the stream nor an export; the patch keeps its token and the result says where', async () => {
    const repo = repoWithSecrets();
    const sessions = join(repo.dir, '..', 'sessions');
    const env = { TENET_SESSIONS_DIR: sessions };
    try {
      server = await startFakeModelServer(turns());
      const json = await runCli([...runArgs(repo.dir), '--json', '--apply', ...TESTS], {
        env: { ...env, OPENAI_BASE_URL: `${server.url}/v1` },
      });
      expect(json.code, json.stderr).toBe(0);

      // The shell printed the file: what the model got back holds each shape's mark, and no shape.
      const sent = server.requests.map((r) => r.raw).join('\n');
      for (const { label } of Object.values(SECRETS)) expect(sent).toContain(`[redacted:${label}]`);
      expectNoShape('the model requests', sent);
      expectNoShape('the --json stream', json.stdout + json.stderr);

      const result = JSON.parse(json.stdout.trim().split('\n').at(-1)!) as {
        type: string;
        pass: boolean;
        sessionId: string;
        patchSecrets?: string[];
      };
      // The patch is the developer's code: applied as the model wrote it, token and all, on the line the result names.
      const applied = readFileSync(join(repo.dir, 'shop', 'pricing.py'), 'utf8').split('\n');
      const line = applied.findIndex((text) => text.includes(`service_token = "${TOKEN}"`)) + 1;
      expect(line).toBeGreaterThan(0);
      expect(result).toMatchObject({ type: 'result', pass: true, patchSecrets: [warning(line)] });

      const log = readFileSync(join(sessions, result.sessionId, 'events.jsonl'), 'utf8');
      expect(log).toContain('[redacted:private-key]');
      expectNoShape('events.jsonl', log);
      for (const format of ['html', 'json', 'md', 'cast']) {
        const exported = await runCli(['export', result.sessionId, '--format', format], { env });
        expect(exported.code, exported.stderr).toBe(0);
        expect(exported.stdout).toContain('redacted:github-token');
        expectNoShape(`the ${format} export`, exported.stdout);
      }

      // Headless, the result's lines say where the patch holds the token; nothing printed holds one.
      await server.close();
      server = await startFakeModelServer(turns());
      const fresh = repoWithSecrets();
      try {
        const text = await runCli([...runArgs(fresh.dir), ...TESTS], {
          env: { ...env, OPENAI_BASE_URL: `${server.url}/v1` },
        });
        expect(text.code, text.stderr).toBe(0);
        expect(text.stdout).toContain(`! ${warning(line)}`);
        expectNoShape('the headless output', text.stdout + text.stderr);
      } finally {
        fresh.cleanup();
      }
    } finally {
      repo.cleanup();
    }
  }, 180_000);
});
