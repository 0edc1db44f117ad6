import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { openSandbox } from '../../source/engine/sandbox/create-sandbox';
import { requireConfinement, type Confinement } from '../../source/engine/sandbox/confinement';
import { LocalSandbox } from '../../source/engine/sandbox/local-sandbox';
import { DebuggerSession } from '../../source/engine/tools/debugger/session';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { copyFixture } from '../helpers/fixtures';
import { DOCKER, describeDocker } from '../helpers/sandboxes';

/**
 * A process the agent or the tests start with setsid, or through a double fork, leaves the
 * process group tenet kills. It must still go when its command ends, when tenet stops the
 * sandbox, and when tenet is killed outright; and it must not keep a run waiting on its output.
 * Each test's stray processes sleep for a duration of their own, to be found by it.
 */
const scratch = mkdtempSync(join(tmpdir(), 'tenet-escape-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

/** Pids of `sleep SECONDS` processes on this machine. */
function sleeping(seconds: string): number[] {
  const found: number[] = [];
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8') === `sleep\0${seconds}\0`) found.push(Number(entry));
    } catch {
      // gone
    }
  }
  return found;
}

const ESCAPES = (seconds: string) =>
  `setsid sleep ${seconds} & (setsid sh -c 'sleep ${seconds}' &) ; (sh -c 'sleep ${seconds} & exit' &); echo started`;

// Unconfined, and under bubblewrap (the default): its PID namespace must not hide them from the kill.
const confinements: [string, Confinement | undefined][] = [
  ['unconfined', undefined],
  ['bubblewrap', requireConfinement(false)],
];

describe.each(confinements)('processes that leave the process group (local sandbox, %s)', (_name, confinement) => {
  it('a command that leaves setsid and double-forked processes behind ends when it ends, and they go with it', async () => {
    const sandbox = new LocalSandbox(scratch, process.env, [], confinement);
    const started = Date.now();
    const result = await sandbox.run(['sh', '-c', ESCAPES('47.1')]);
    expect(result.stdout).toBe('started\n');
    // Not waited for: their copies of the output pipes closed with them.
    expect(Date.now() - started).toBeLessThan(15_000);
    await waitFor(() => sleeping('47.1').length === 0, 5000, 'the escaped processes to be killed');
    await sandbox.dispose();
  });

  it("the debugger shell's escaped processes go when the session is closed", async () => {
    const sandbox = new LocalSandbox(scratch, process.env, [], confinement);
    const session = new DebuggerSession(sandbox, { env: {}, timeoutMs: 10_000, maxOutput: 10_000 });
    expect(await session.run(ESCAPES('47.2'))).toBe('started');
    await waitFor(() => sleeping('47.2').length === 3, 5000, 'the three escaped processes to start');
    session.close();
    await waitFor(() => sleeping('47.2').length === 0, 5000, 'the escaped processes to be killed');
    await sandbox.dispose();
  });

  it("and when the sandbox is disposed right after, as at a run's end: two stops a millisecond apart", async () => {
    for (let round = 0; round < 5; round++) {
      const sandbox = new LocalSandbox(scratch, process.env, [], confinement);
      const session = new DebuggerSession(sandbox, { env: {}, timeoutMs: 10_000, maxOutput: 10_000 });
      expect(await session.run(ESCAPES('47.3'))).toBe('started');
      await waitFor(() => sleeping('47.3').length === 3, 5000, 'the three escaped processes to start');
      session.close();
      await sandbox.dispose();
      await waitFor(
        () => sleeping('47.3').length === 0,
        5000,
        `the escaped processes to be killed (round ${round + 1})`,
      );
    }
  }, 60_000);
});

describe('a headless run with a model that starts escaping processes', () => {
  const script = (seconds: string, more: { name: string; arguments: Record<string, unknown> }[] = []) => {
    const file = join(scratch, `script-${seconds}.json`);
    writeFileSync(
      file,
      JSON.stringify({
        turns: [
          { calls: [{ name: 'run_debugger_cmd', arguments: { cmd: ESCAPES(seconds) } }, ...more] },
          {
            calls: [
              {
                name: 'submit_implementation',
                arguments: {
                  code: 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n',
                },
              },
            ],
          },
        ],
      }),
    );
    return file;
  };
  const args = (file: string, repo: string) => [
    'run',
    '--repo',
    repo,
    '--target',
    'shop/cart.py::Cart.total',
    '--blank',
    '-T',
    '2',
    '--provider',
    'scripted',
    '--script',
    file,
    '--tests',
    'tests/test_cart.py',
  ];

  it('ends once it is done, and leaves none of them running', async () => {
    const repo = copyFixture('shop');
    try {
      const started = Date.now();
      const result = await runCli(args(script('47.3'), repo.dir));
      expect(result.code, result.stderr).toBe(0);
      expect(result.stdout).toMatch(/^PASS · selected/m);
      expect(Date.now() - started).toBeLessThan(40_000);
      await waitFor(() => sleeping('47.3').length === 0, 5000, 'the escaped processes to be killed');
    } finally {
      repo.cleanup();
    }
  }, 120_000);

  it('killed with SIGKILL: the debugger shell and what it started die too', async () => {
    const repo = copyFixture('shop');
    try {
      // The shell is busy with a long command when tenet is killed.
      const child = startCli(
        args(script('47.4', [{ name: 'run_debugger_cmd', arguments: { cmd: 'sleep 47.5' } }]), repo.dir),
      );
      await waitFor(
        () => sleeping('47.5').length === 1 || child.exitCode !== null,
        60_000,
        'the long command to start',
      );
      await waitFor(() => sleeping('47.4').length === 3, 5000, 'the three escaped processes to start');
      child.kill('SIGKILL');
      await finished(child);
      // They die within a second; the margin is for a machine whose cores are all busy.
      await waitFor(
        () => sleeping('47.4').length + sleeping('47.5').length === 0,
        30_000,
        'the shell and its processes to die with tenet',
      );
    } finally {
      repo.cleanup();
    }
  }, 120_000);
});

describeDocker('processes that leave the process group (Docker sandbox)', () => {
  it('are killed when their command ends, found by the mark in their environment', async () => {
    const sandbox = await openSandbox(DOCKER, scratch, 'escape-test');
    try {
      const started = Date.now();
      const result = await sandbox.run(['sh', '-c', ESCAPES('47.6')]);
      expect(result.stdout).toBe('started\n');
      expect(Date.now() - started).toBeLessThan(15_000);
      const count = async () =>
        (
          await sandbox.run([
            'sh',
            '-c',
            "for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline 2>/dev/null; echo; done | grep -c '^sleep 47.6 $' || true",
          ])
        ).stdout.trim();
      await new Promise((r) => setTimeout(r, 500));
      expect(await count()).toBe('0');
    } finally {
      await sandbox.dispose();
    }
  }, 60_000);

  it('are killed when their command ends even without the mark, nor holding the output: the command runs under the launcher', async () => {
    // A cleared environment has no mark to be found by, and a process that lets go of the output
    // leaves Docker nothing to wait for: only being below the command's launcher finds them. The
    // command ends once all three sleep (none is still on its way, carrying the mark).
    const counting =
      "for p in /proc/[0-9]*; do tr '\\0' ' ' < $p/cmdline 2>/dev/null; echo; done | grep -cE '^(/bin/)?sleep 47.7 $'";
    const daemons = `(setsid env -i /bin/sleep 47.7 >/dev/null 2>&1 &); setsid sleep 47.7 >/dev/null 2>&1 & (sh -c 'sleep 47.7 & exit' >/dev/null 2>&1 &); i=0; while [ "$(${counting})" -lt 3 ] && [ $i -lt 200 ]; do sleep 0.05; i=$((i+1)); done; ${counting}`;
    const sandbox = await openSandbox(DOCKER, scratch, 'escape-test');
    try {
      const result = await sandbox.run(['sh', '-c', daemons]);
      expect(result.stdout).toBe('3\n');
      const count = async () => (await sandbox.run(['sh', '-c', `${counting} || true`])).stdout.trim();
      expect(await count()).toBe('0');
    } finally {
      await sandbox.dispose();
    }
  }, 60_000);
});
