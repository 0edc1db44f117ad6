import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { requireConfinement, type Confinement } from '../../source/engine/sandbox/confinement';
import { LocalSandbox } from '../../source/engine/sandbox/local-sandbox';
import { DEVELOPER_INTERRUPT } from '../../source/engine/protocol/debugger';
import { DebuggerSession } from '../../source/engine/tools/debugger/session';

// Issue 37.9: the developer's Ctrl+C in a takeover stopped their command, but neither the session
// nor the agent was told it was theirs (not a timeout): the command's entry says so now.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-debugger-interrupt-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

// Under bubblewrap too: Ctrl+C goes to the process group, and must stop the command, not the confinement.
const confinements: [string, Confinement | undefined][] = [
  ['unconfined', undefined],
  ['bubblewrap', requireConfinement(false)],
];

describe.each(confinements)("the developer's Ctrl+C in the debugger session (%s)", (_name, confinement) => {
  it('stops the command under way, and its entry says the developer interrupted it; Ctrl+C at an idle prompt marks nothing', async () => {
    const sandbox = new LocalSandbox(scratch, process.env, [], confinement);
    const session = new DebuggerSession(sandbox, { env: {}, timeoutMs: 20_000, maxOutput: 10_000 });
    try {
      await session.run('echo ready', 'human');
      session.interrupt(); // nothing runs: the next command is not marked
      const sleeping = session.run('sleep 15', 'human');
      await new Promise((r) => setTimeout(r, 500));
      expect(session.busy).toBe(true);
      const began = Date.now();
      session.interrupt();
      await sleeping;
      expect(Date.now() - began).toBeLessThan(5000);
      const entry = session.transcript.at(-1)!;
      expect(entry.input).toBe('sleep 15');
      expect(entry.output).toContain(DEVELOPER_INTERRUPT);
      await session.run('echo after', 'human');
      expect(session.transcript.at(-1)!.output).not.toContain(DEVELOPER_INTERRUPT);
      expect(session.transcript.find((e) => e.input === 'echo ready')!.output).not.toContain(DEVELOPER_INTERRUPT);
    } finally {
      session.close();
      await sandbox.dispose();
    }
  }, 60_000);
});
