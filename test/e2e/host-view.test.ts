import { spawn, type ChildProcess } from 'node:child_process';
import { createServer, type Server, type Socket } from 'node:net';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { FIXTURES } from '../helpers/fixtures';
import { DOCKER_PROBLEM } from '../helpers/sandboxes';

/**
 * What the agent's shell sees of this machine (issue 43): the model reads whatever its commands
 * print. From `run_debugger_cmd` a script tries the host's Unix sockets (a listener standing in
 * for the Docker daemon, the real daemon's when one runs, an abstract socket), reads the home
 * folder (`.ssh`, `.bash_history`), `/etc/shadow` and tenet's state folder (another session's
 * events), and a folder given with `--read` that holds a socket of its own. Confined, it reaches
 * none of them but the `--read` folder's file; unconfined, the same script reaches them all: what
 * the confined runs are checked for is what the attack does without the wall.
 */
const world = mkdtempSync('/var/tmp/tenet-host-view-');
const home = join(world, 'home');
const repo = join(world, 'shop');
const daemon = join(world, 'run', 'docker.sock');
const shared = join(world, 'shared');
/** A link to the shared folder, given with --read as well: shown bound at its own path, the folder's socket was open there. */
const sharedLink = join(world, 'shared-link');
const abstract = `tenet-host-view-${process.pid}`;
const SECRET = `host-secret-${Date.now()}`;
const servers: Server[] = [];
const connections: Socket[] = [];
let abstractListener: ChildProcess | undefined;

const listen = (path: string) =>
  new Promise<void>((done) => {
    const server = createServer((socket) => {
      connections.push(socket);
      socket.end('HTTP/1.0 200 OK\r\n\r\nhost service\n');
    });
    servers.push(server);
    server.listen(path, done);
  });

/** An abstract socket, as Python names it (libuv pads an abstract name to the whole address). */
const listenAbstract = (name: string) =>
  new Promise<void>((done) => {
    abstractListener = spawn('python3', [
      '-c',
      [
        'import socket, sys',
        's = socket.socket(socket.AF_UNIX)',
        `s.bind('\\0${name}')`,
        's.listen(8)',
        "print('listening', flush=True)",
        'while True:',
        '    c, _ = s.accept()',
        // The request read first: closed before the client's send, the socket failed it with a broken pipe.
        "    c.recv(1024); c.sendall(b'HTTP/1.0 200 OK\\r\\n\\r\\nhost service\\n'); c.close()",
      ].join('\n'),
    ]);
    abstractListener.stdout!.once('data', () => done());
  });

beforeAll(async () => {
  for (const dir of [join(home, '.ssh'), join(home, '.local/state/tenet/sessions/other'), join(world, 'run'), shared])
    mkdirSync(dir, { recursive: true });
  writeFileSync(join(home, '.ssh', 'id_ed25519'), `${SECRET} ssh key\n`);
  writeFileSync(join(home, '.bash_history'), `${SECRET} history\n`);
  writeFileSync(join(home, '.local/state/tenet/sessions/other/events.jsonl'), `${SECRET} another session\n`);
  writeFileSync(join(shared, 'data.txt'), 'shared on purpose\n');
  cpSync(join(FIXTURES, 'shop'), repo, { recursive: true });
  symlinkSync(shared, sharedLink);
  await listen(daemon);
  await listen(join(shared, 'agent.sock'));
  await listenAbstract(abstract);
});
afterAll(async () => {
  abstractListener?.kill();
  for (const socket of connections) socket.destroy();
  await Promise.all(servers.map((server) => new Promise((done) => server.close(done))));
  rmSync(world, { recursive: true, force: true });
});

const sockets = [
  daemon,
  '/var/run/docker.sock',
  join(shared, 'agent.sock'),
  join(sharedLink, 'agent.sock'),
  `@${abstract}`,
];
const files = [
  join(home, '.ssh', 'id_ed25519'),
  join(home, '.bash_history'),
  '/etc/shadow',
  join(home, '.local/state/tenet/sessions/other/events.jsonl'),
  join(shared, 'data.txt'),
];

/** The attacker's script: one line per socket and file, saying whether it got through. */
const script = [
  'import os, socket',
  `for path in ${JSON.stringify(sockets)}:`,
  '    try:',
  '        s = socket.socket(socket.AF_UNIX)',
  "        s.settimeout(5); s.connect('\\0' + path[1:] if path.startswith('@') else path)",
  "        s.sendall(b'GET /version HTTP/1.0\\r\\n\\r\\n'); s.recv(64)",
  "        print('CONNECTED', path)",
  '    except OSError as error:',
  "        print('refused', path, type(error).__name__)",
  `for path in ${JSON.stringify(files)}:`,
  '    try:',
  "        print('READ', path, open(path).read().strip())",
  '    except OSError as error:',
  "        print('unread', path, type(error).__name__)",
  `print('HOME', sorted(os.listdir(${JSON.stringify(home)})) if os.path.isdir(${JSON.stringify(home)}) else 'none')`,
].join('\n');

async function attack(sandboxArgs: string[]): Promise<string[]> {
  const b64 = Buffer.from(script).toString('base64');
  const result = await runCli(
    [
      'tool',
      'run_debugger_cmd',
      '--repo',
      repo,
      '--target',
      'shop/cart.py::Cart.total',
      '--arg',
      `cmd=echo ${b64} | base64 -d > /tmp/attack.py && python3 /tmp/attack.py`,
      ...sandboxArgs,
    ],
    { env: { HOME: home, XDG_STATE_HOME: '', TENET_SESSIONS_DIR: join(home, '.local/state/tenet/sessions') } },
  );
  expect(result.code, result.stderr).toBe(0);
  return result.stdout.split('\n');
}

/** The script's line that starts so, or the whole output (what the failure then shows). */
const line = (lines: string[], start: string) =>
  lines.find((l) => l.startsWith(start)) ?? `(no line ${start} in:\n${lines.join('\n')})`;

describe('the confined local sandbox shows the task and nothing else', () => {
  it('no host socket, no home file, no /etc/shadow, no state; a --read folder is read, its socket covered', async () => {
    const lines = await attack(['--read', shared, '--read', sharedLink]);
    for (const path of sockets) expect(line(lines, `refused ${path}`)).toMatch(/^refused /);
    for (const path of files.slice(0, 4)) expect(line(lines, `unread ${path}`)).toMatch(/^unread /);
    expect(line(lines, 'READ')).toBe(`READ ${join(shared, 'data.txt')} shared on purpose`);
    expect(line(lines, 'HOME')).toBe('HOME none');
    expect(lines.join('\n')).not.toContain(SECRET);
  }, 120_000);

  it('with --network too: the host abstract socket cannot be reached, nor any other', async () => {
    const lines = await attack(['--network']);
    for (const path of sockets) expect(line(lines, `refused ${path}`)).toMatch(/^refused /);
    expect(lines.join('\n')).not.toContain(SECRET);
  }, 120_000);

  it('is what stops the attack: unconfined, the same script connects and reads everything', async () => {
    const lines = await attack(['--sandbox', 'local-unconfined']);
    expect(line(lines, `CONNECTED ${daemon}`)).toBe(`CONNECTED ${daemon}`);
    expect(line(lines, `CONNECTED @${abstract}`)).toBe(`CONNECTED @${abstract}`);
    const throughLink = join(sharedLink, 'agent.sock');
    expect(line(lines, `CONNECTED ${throughLink}`)).toBe(`CONNECTED ${throughLink}`);
    if (existsSync('/var/run/docker.sock') && !DOCKER_PROBLEM)
      expect(line(lines, 'CONNECTED /var/run/docker.sock')).toBe('CONNECTED /var/run/docker.sock');
    for (const path of files.slice(0, 2)) expect(line(lines, `READ ${path}`)).toContain(SECRET);
    expect(line(lines, `READ ${files[3]}`)).toContain(SECRET);
  }, 120_000);

  it.skipIf(!!DOCKER_PROBLEM)(
    'in the Docker sandbox too: no engine socket, no home of the host',
    async () => {
      const lines = await attack(['--sandbox', 'docker']);
      for (const path of sockets) expect(line(lines, `refused ${path}`)).toMatch(/^refused /);
      for (const path of files.filter((f) => f !== '/etc/shadow'))
        expect(line(lines, `unread ${path}`)).toMatch(/^unread /);
      expect(lines.join('\n')).not.toContain(SECRET);
    },
    180_000,
  );
});
