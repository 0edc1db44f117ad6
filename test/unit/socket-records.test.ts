import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { lookForSockets, lookThrough, socketsUnder } from '../../source/engine/sandbox/host-sockets';
import { folderStamp, recalledSockets } from '../../source/engine/sandbox/socket-records';

/**
 * The record of a look through a large folder for Unix sockets (socket-records.ts): it stands in
 * for the look only while no folder under it changed. The attack it must not let through is a
 * socket added to a folder the sandbox is shown after the record was made: trusted as it is, the
 * record says there is none, and the socket would be left uncovered.
 */
const made: string[] = [];
const servers: Server[] = [];
let state: string;

beforeEach(() => {
  state = mkdtempSync(join(tmpdir(), 'tenet-socket-state-'));
  made.push(state);
  vi.stubEnv('XDG_STATE_HOME', state);
});
afterEach(async () => {
  vi.useRealTimers();
  vi.unstubAllEnvs();
  await Promise.all(servers.splice(0).map((server) => new Promise((done) => server.close(done))));
  for (const dir of made.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** A folder with `count` folders in it (40 to a parent), as an interpreter's installation has thousands. */
function tree(count: number): string {
  const root = mkdtempSync(join(tmpdir(), 'tenet-socket-tree-'));
  made.push(root);
  for (let i = 0; i < count - 1; i++) mkdirSync(join(root, `p${Math.floor(i / 40)}`, `c${i}`), { recursive: true });
  return root;
}

const listen = (path: string) =>
  new Promise<void>((done) => {
    const server = createServer();
    servers.push(server);
    server.listen(path, done);
  });

/** As though the look came a while after the folders were made: the record needs them settled. */
const later = () => {
  vi.useFakeTimers({ toFake: ['Date'] });
  vi.setSystemTime(Date.now() + 10_000);
};

describe('a look through a large folder for sockets, kept between runs', () => {
  it('is recalled while no folder changed; a socket added deep inside afterwards is found, not hidden by the record', async () => {
    const root = tree(1_200);
    later();
    expect(lookThrough(root)).toEqual({ sockets: [] });
    // lstat's stamps are find's: the record holds.
    expect(recalledSockets(root)).toEqual([]);

    const planted = join(root, 'p17', 'c690', 'agent.sock');
    await listen(planted);
    // The record as it was kept still says there is no socket: trusted, it would leave this one shown.
    const [file] = readdirSync(join(state, 'tenet', 'socket-records'));
    expect(JSON.parse(readFileSync(join(state, 'tenet', 'socket-records', file!), 'utf8')).sockets).toEqual([]);
    // Its folder's ctime moved: the record is refused, and the next look finds the socket.
    expect(recalledSockets(root)).toBeUndefined();
    expect(lookThrough(root)).toEqual({ sockets: [planted] });
    expect(recalledSockets(root)).toEqual([planted]);
  });

  it('a folder removed or put back under the same name is a change too', () => {
    const root = tree(1_100);
    later();
    lookThrough(root);
    rmSync(join(root, 'p3', 'c130'), { recursive: true });
    mkdirSync(join(root, 'p3', 'c130'));
    expect(recalledSockets(root)).toBeUndefined();
  });

  it('is not kept for a folder changed in the last seconds (its ctime could hide a change within the same tick), nor for a small one', () => {
    expect(lookThrough(tree(1_100))).toEqual({ sockets: [] });
    const small = tree(50);
    later();
    lookThrough(small);
    expect(existsSync(join(state, 'tenet', 'socket-records'))).toBe(false);
  });
});

describe("find's stamp of a folder", () => {
  it("is device, inode and ctime to the nanosecond, as stat's answer later; anything else is no stamp", () => {
    const stamp = folderStamp('/r', '2049:1234 1733560000.1234567890', '/r/a/b');
    expect(stamp).toMatchObject({ path: 'a/b', stamp: '2049:1234:1733560000.123456789' });
    expect(stamp?.ctimeMs).toBeCloseTo(1733560000123.457, 2);
    expect(folderStamp('/r', '2049:1234 1733560000', '/r')).toBeUndefined();
    expect(folderStamp('/r', '2049:1234 -1.0000000000', '/r')).toBeUndefined();
  });
});

describe('a look that did not run to its end', () => {
  it('is no answer: what find printed before it was stopped is not all there is, and the folder is refused', async () => {
    // A find that names one socket and is then killed, as one stopped at the time limit or past
    // the buffer: taken as it was, the sockets it never reached would be left shown.
    const bin = mkdtempSync(join(tmpdir(), 'tenet-fake-find-'));
    made.push(bin);
    writeFileSync(join(bin, 'find'), "#!/bin/sh\nprintf 'S\\000/x/first.sock\\000'\nkill -9 $$\n", { mode: 0o755 });
    vi.stubEnv('PATH', `${bin}:${process.env.PATH}`);
    const root = tree(3);
    expect(lookThrough(root)).toEqual({
      sockets: [],
      problem: 'find was stopped by SIGKILL',
    });
    const other = tree(3);
    await lookForSockets([other]);
    expect(() => socketsUnder([other])).toThrow(`tenet cannot show ${other} to the sandbox`);
  });
});
