import { spawn } from 'node:child_process';
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { sessionWriter } from '../../source/engine/session/lock';
import { pidExists, processEnded, processRuns, processStart } from '../../source/engine/util/processes';
import { ownerRuns } from '../../source/engine/workspace/owner';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-processes-'));
const sleepers: ReturnType<typeof spawn>[] = [];
afterAll(() => {
  for (const child of sleepers) child.kill('SIGKILL');
  rmSync(scratch, { recursive: true, force: true });
});

/** A live process that is not this one. */
function sleeper(): number {
  const child = spawn('sleep', ['30']);
  sleepers.push(child);
  return child.pid!;
}

async function deadPid(): Promise<number> {
  const child = spawn('true');
  await new Promise((resolve) => child.on('exit', resolve));
  return child.pid!;
}

describe('is this process alive: one answer', () => {
  it('tells a live process, a dead one and a later process given the same pid', async () => {
    const start = processStart(process.pid);
    expect(typeof start).toBe('number');
    expect(pidExists(process.pid)).toBe(true);
    expect(processRuns(process.pid, start)).toBe(true);
    expect(processRuns(process.pid)).toBe(true);
    expect(processRuns(process.pid, start! + 1)).toBe(false);
    const dead = await deadPid();
    expect(pidExists(dead)).toBe(false);
    expect(processRuns(dead)).toBe(false);
    expect(processEnded(dead)).toBe(true);
    expect(processEnded(process.pid)).toBe(false);
  });

  it('the session lock and the scratch owner agree on a start time written as a number', () => {
    const pid = sleeper();
    const started = processStart(pid)!;
    const dir = join(scratch, 'session');
    mkdirSync(dir);
    // The scratch owner's file has always held a number; the lock compared it with a string.
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid, started }));
    expect(sessionWriter(dir)?.pid).toBe(pid);
    expect(ownerRuns({ pid, host: hostname(), started })).toBe(true);
    expect(ownerRuns({ pid, host: hostname(), started: started + 1 })).toBe(false);
  });

  it('still reads a lock written with the start time as a string (tenet before this change)', () => {
    const pid = sleeper();
    const dir = join(scratch, 'old-lock');
    mkdirSync(dir);
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid, started: String(processStart(pid)) }));
    expect(sessionWriter(dir)?.pid).toBe(pid);
    writeFileSync(join(dir, 'lock'), JSON.stringify({ pid, started: String(processStart(pid)! + 1) }));
    expect(sessionWriter(dir)).toBeUndefined();
  });
});
