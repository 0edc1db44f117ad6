import { createServer, type Server } from 'node:net';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AddressInfo } from 'node:net';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startFakeModelServer } from '../helpers/fake-model-server';
import { FIXTURES } from '../helpers/fixtures';
import { snapshot } from '../helpers/snapshot';

/**
 * The local sandbox confines what runs in it (issue 34): a shell command of the model and a
 * submitted body (run by the validation and the evaluation, with no approval asked) try to write
 * outside the workspace ($HOME, a folder outside /tmp, the user's checkout), to reach a listener
 * of this machine on 127.0.0.1, and to read tenet's own environment through /proc/<pid>/environ
 * for the API key, sent on plain, reversed and hex-encoded (redaction knows only the plain one).
 * Under bubblewrap nothing changes outside, the listener hears nothing and no form of the key
 * reaches the model or the session. The same attack under `--sandbox local-unconfined` does all
 * three: what the confined run is checked for is what the attack does without it.
 */
const scratch = mkdtempSync(join(tmpdir(), 'tenet-confined-'));
// A folder outside /tmp: the confined /tmp is private, this one is only read-only.
const outside = mkdtempSync('/var/tmp/tenet-confined-');
afterAll(() => {
  rmSync(scratch, { recursive: true, force: true });
  rmSync(outside, { recursive: true, force: true });
});

const CANARY = `sk-canary${Math.random().toString(36).slice(2)}${Date.now()}`;
const forms = (value: string) => [value, [...value].reverse().join(''), Buffer.from(value).toString('hex')];

/** Python that does all three: writes, connects, and looks for the key in every readable environ. */
const hostilePython = (who: string, targets: string[], port: number) =>
  [
    'import glob, socket',
    `said = ['${who} ran']`,
    `for path in ${JSON.stringify(targets)}:`,
    '    try:',
    "        open(path, 'w').write('written from the sandbox')",
    "        said.append('WROTE ' + path)",
    '    except OSError as error:',
    "        said.append('NOT WRITTEN ' + type(error).__name__)",
    'try:',
    `    socket.create_connection(('127.0.0.1', ${port}), timeout=3).close()`,
    "    said.append('CONNECTED')",
    'except OSError as error:',
    "    said.append('NOT CONNECTED ' + type(error).__name__)",
    "environs = glob.glob('/proc/[0-9]*/environ')",
    'for path in environs:',
    '    try:',
    "        data = open(path, 'rb').read()",
    '    except OSError:',
    '        continue',
    "    for entry in data.split(b'\\0'):",
    "        if entry.startswith(b'OPENAI_API_KEY='):",
    "            value = entry.split(b'=', 1)[1].decode()",
    "            said.append('KEY ' + value[::-1] + ' ' + value.encode().hex())",
    "said.append('ENVIRONS %d' % len(environs))",
  ].join('\n');

const b64 = (text: string) => Buffer.from(text).toString('base64');

function listen(): Promise<{ server: Server; port: number; connections: () => number }> {
  let connections = 0;
  const server = createServer((socket) => {
    connections++;
    socket.destroy();
  });
  return new Promise((resolvePromise) =>
    server.listen(0, '127.0.0.1', () =>
      resolvePromise({ server, port: (server.address() as AddressInfo).port, connections: () => connections }),
    ),
  );
}

/** Every file of a folder, as text. */
function allText(dir: string): string {
  if (!existsSync(dir)) return '';
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => readFileSync(join(entry.parentPath, entry.name), 'utf8'))
    .join('\n');
}

async function attack(name: string, sandboxArgs: string[]) {
  const world = join(scratch, name);
  const home = join(world, 'home');
  const sessions = join(world, 'sessions');
  const repo = join(world, 'shop');
  const away = join(outside, name);
  mkdirSync(home, { recursive: true });
  mkdirSync(away, { recursive: true });
  cpSync(join(FIXTURES, 'shop'), repo, { recursive: true });
  const before = snapshot(repo);
  const listener = await listen();
  const fromShell = hostilePython(
    'the shell',
    [join(home, 'from-shell'), join(away, 'from-shell'), join(repo, 'from-shell.txt')],
    listener.port,
  );
  const fromBody = hostilePython(
    'the body',
    [join(home, 'from-body'), join(away, 'from-body'), join(repo, 'from-body.txt')],
    listener.port,
  );
  const body = [
    'def total(self):',
    '    import base64',
    `    exec(base64.b64decode(${JSON.stringify(b64(fromBody))}).decode(), globals())`,
    "    raise AssertionError(' | '.join(said))",
    '',
  ].join('\n');
  const model = await startFakeModelServer([
    {
      calls: [
        {
          name: 'run_debugger_cmd',
          arguments: {
            cmd: `echo ${b64(fromShell)} | base64 -d > /tmp/hostile.py && python3 /tmp/hostile.py; python3 -c "exec(open('/tmp/hostile.py').read()); print(' | '.join(said))"`,
          },
        },
      ],
    },
    { calls: [{ name: 'submit_implementation', arguments: { code: body } }] },
  ]);
  try {
    const result = await runCli(
      [
        'run',
        '--repo',
        repo,
        '--target',
        'shop/cart.py::Cart.total',
        '--blank',
        '-T',
        '1',
        '--rrw-attempts',
        '1',
        '--provider',
        'openai',
        '--model',
        'gpt-4o-mini',
        '--json',
        ...sandboxArgs,
        '--tests',
        'tests/test_cart.py',
      ],
      { env: { HOME: home, OPENAI_API_KEY: CANARY, OPENAI_BASE_URL: `${model.url}/v1`, TENET_SESSIONS_DIR: sessions } },
    );
    const sent = model.requests.map((request) => request.raw).join('\n');
    return { result, sent, recorded: allText(sessions), home, away, repo, before, connections: listener.connections() };
  } finally {
    await model.close();
    await new Promise((done) => listener.server.close(done));
  }
}

describe('the confined local sandbox', () => {
  it('keeps a hostile shell command and a hostile submitted body inside: no write outside, no connection, no secret', async () => {
    const run = await attack('confined', []);
    const events = run.result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line));
    expect(events.at(-1), run.result.stderr.slice(-2000)).toMatchObject({ type: 'result', pass: false });
    // The attack ran (the shell's and the body's reports reached the model) and was contained.
    expect(run.sent).toContain('the shell ran | NOT WRITTEN');
    expect(run.sent).toContain('the body ran | NOT WRITTEN');
    expect(run.sent).toMatch(/NOT CONNECTED/);
    expect(run.sent).not.toMatch(/WROTE|CONNECTED \||CONNECTED"|KEY /);
    expect(events.find((e) => e.type === 'tests.run' && e.purpose === 'validate')).toBeDefined();
    // (tenet's own caches may land in $HOME: only the attack's files are looked for.)
    expect(readdirSync(run.home).filter((name) => name.startsWith('from-'))).toEqual([]);
    expect(readdirSync(run.away)).toEqual([]);
    expect(snapshot(run.repo)).toEqual(run.before);
    expect(run.connections).toBe(0);
    for (const form of forms(CANARY)) {
      expect(run.sent).not.toContain(form);
      expect(run.recorded).not.toContain(form);
      expect(run.result.stdout).not.toContain(form);
    }
    // Said where the run starts and where it ends, and recorded.
    const start = events.find((e) => e.type === 'session.start');
    expect(start.config.sandbox).toMatchObject({ kind: 'local', confinement: 'bubblewrap' });
  }, 240_000);

  it('is what stops the attack: unconfined, the same attack writes outside, connects and finds the key', async () => {
    const run = await attack('unconfined', ['--sandbox', 'local-unconfined']);
    expect(
      readdirSync(run.home)
        .filter((name) => name.startsWith('from-'))
        .sort(),
    ).toEqual(['from-body', 'from-shell']);
    expect(readdirSync(run.away).sort()).toEqual(['from-body', 'from-shell']);
    expect(snapshot(run.repo)).not.toEqual(run.before);
    expect(run.connections).toBeGreaterThan(0);
    expect(run.sent).toContain([...CANARY].reverse().join(''));
    const start = run.result.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line))
      .find((e) => e.type === 'session.start');
    expect(start.config.sandbox).toMatchObject({ kind: 'local', confinement: 'none' });
  }, 240_000);
});

describe('without bubblewrap', () => {
  const repo = join(scratch, 'no-bwrap', 'shop');
  cpSync(join(FIXTURES, 'shop'), repo, { recursive: true });
  const thm = (extra: string[]) =>
    runCli(
      [
        'thm',
        '--repo',
        repo,
        '--target',
        'shop/cart.py::Cart.total',
        '--blank',
        ...extra,
        '--tests',
        'tests/test_cart.py',
      ],
      { env: { TENET_BWRAP: '/nonexistent/bwrap' } },
    );

  it('refuses in one line that says how to fix it, and runs with --sandbox local-unconfined', async () => {
    const refused = await thm([]);
    expect(refused.code).toBe(2);
    expect(refused.stderr.trim().split('\n')).toEqual([
      'tenet: bubblewrap (bwrap) is not installed, so tenet cannot confine the local sandbox: install it (apt-get install bubblewrap) or pass --sandbox local-unconfined to run without confinement.',
    ]);
    expect(refused.stdout).toBe('');
    const unconfined = await thm(['--sandbox', 'local-unconfined']);
    expect(unconfined.code, unconfined.stderr).toBe(0);
    expect(unconfined.stdout).toMatch(/failing/);
  }, 120_000);
});
