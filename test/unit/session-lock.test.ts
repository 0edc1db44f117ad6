import { spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { lockSession, refuseIfWritten, sessionWriter } from '../../source/engine/session/lock';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-lock-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let n = 0;
const folder = () => join(scratch, `s${n++}`);

/** A pid no process has: one that has just exited. */
async function deadPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('session lock', () => {
  it('is taken, released, and taken again', () => {
    const dir = folder();
    const release = lockSession(dir, 's');
    expect(JSON.parse(readFileSync(join(dir, 'lock'), 'utf8')).pid).toBe(process.pid);
    release();
    expect(existsSync(join(dir, 'lock'))).toBe(false);
    lockSession(dir, 's')();
  });

  it('refuses while a live process holds it, naming the pid', async () => {
    const dir = folder();
    const holder = spawn('sleep', ['30']);
    try {
      lockSession(dir, 's')();
      writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: holder.pid }));
      expect(sessionWriter(dir)?.pid).toBe(holder.pid);
      expect(() => lockSession(dir, 's')).toThrow(`pid ${holder.pid}`);
      expect(() => refuseIfWritten(dir, 's', 'rerunning')).toThrow(/rerunning it now/);
      // The holder's lock is untouched.
      expect(JSON.parse(readFileSync(join(dir, 'lock'), 'utf8')).pid).toBe(holder.pid);
    } finally {
      holder.kill();
    }
  });

  it('takes over a lock whose process is gone, or whose pid now belongs to another process', async () => {
    const dir = folder();
    lockSession(dir, 's')();
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: await deadPid() }));
    expect(sessionWriter(dir)).toBeUndefined();
    lockSession(dir, 's')();
    // The pid is alive (this test's parent) but started at another time than the lock says.
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid: process.ppid, started: '1' }));
    expect(sessionWriter(dir)).toBeUndefined();
    const release = lockSession(dir, 's');
    expect(JSON.parse(readFileSync(join(dir, 'lock'), 'utf8')).pid).toBe(process.pid);
    release();
  });

  it('takes over a lock cut off by a kill mid-write', () => {
    const dir = folder();
    lockSession(dir, 's')();
    writeFileSync(join(dir, 'lock'), '{"pi');
    // Half a lock names nobody: no one writes the session, and resume is not refused.
    expect(sessionWriter(dir)).toBeUndefined();
    expect(() => refuseIfWritten(dir, 's', 'resuming')).not.toThrow();
    const release = lockSession(dir, 's');
    // Taken over: the lock is whole again, and ours; the takeover left no mutex or temporary file.
    expect(JSON.parse(readFileSync(join(dir, 'lock'), 'utf8'))).toMatchObject({ pid: process.pid });
    expect(readdirSync(dir).sort()).toEqual(['lock']);
    release();
    expect(existsSync(join(dir, 'lock'))).toBe(false);
  });
});
