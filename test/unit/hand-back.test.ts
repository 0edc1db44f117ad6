import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import type { TranscriptEntry } from '../../source/engine/protocol/debugger';
import { LocalSandbox } from '../../source/engine/sandbox/local-sandbox';
import { pdbLocation } from '../../source/engine/tools/debugger/hand-back';
import { DebuggerSession } from '../../source/engine/tools/debugger/session';
import { TuiController } from '../../source/ui/controller';

// QA: after the developer handed the debugger back, the agent's next shell command went into the
// pdb they left open, and the agent had not been told. The hand-back note now says where the
// session stands (pdb and the frame, or the shell), read once what was sent in the takeover answered.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-hand-back-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
writeFileSync(join(scratch, 'test_x.py'), 'def test_one():\n    x = 1\n    assert x == 2\n');
writeFileSync(join(scratch, 'prog.py'), 'a = 1\nb = a + 1\nprint(b)\n');

const entry = (who: TranscriptEntry['who'], input: string, output: string, mode: 'shell' | 'pdb'): TranscriptEntry => ({
  who,
  input,
  output,
  mode,
  startedAt: 0,
  durationMs: 0,
  interrupted: false,
});

/** A controller over a real shell in the scratch folder, the agent at work (so `t` may take it). */
async function takeoverRig(selectedTests: string[] = []) {
  const sandbox = new LocalSandbox(scratch);
  const session = new DebuggerSession(sandbox, { env: {}, timeoutMs: 20_000, maxOutput: 20_000 });
  const controller = new TuiController({ autoApproveCommands: true });
  controller.attach({ debugger: session, selectedTests });
  controller.dispatch({ type: 'agent.phase', phase: 'pregen' });
  return {
    session,
    controller,
    async close() {
      session.close();
      await sandbox.dispose();
    },
  };
}

describe('handing the debugger back', () => {
  it("while the developer's command runs: the takeover is returning, and the agent gets the session with its note once the command ends", async () => {
    const { session, controller, close } = await takeoverRig();
    try {
      controller.requestTakeover();
      const waiting = controller.beforeModelCall();
      const running = controller.send('sleep 1; echo slept');
      expect(session.busy).toBe(true);
      controller.handBack();
      expect(controller.getState().takeover).toBe('returning');
      const note = await waiting;
      expect(await running).toContain('slept');
      expect(note).toContain('$ sleep 1; echo slept\nslept');
      expect(session.busy).toBe(false);
      expect(controller.getState().takeover).toBe('off');
    } finally {
      await close();
    }
  });

  it('left inside pdb: the agent is told so, and at which line, before its next command goes there', async () => {
    const { session, controller, close } = await takeoverRig();
    try {
      await session.run('echo agent was here', 'agent');
      controller.requestTakeover();
      const waiting = controller.beforeModelCall();
      await controller.send('python -m pdb prog.py');
      await controller.send('n');
      controller.handBack();
      const note = await waiting;
      expect(note).toContain('$ python -m pdb prog.py\n');
      expect(note).toContain('The developer left the session inside pdb stopped at prog.py:2 in <module>()');
      expect(note).toContain('send `q` to leave pdb');
      // Which is where the agent's next command goes.
      expect(session.currentMode).toBe('pdb');
      expect(await session.run('p a', 'agent')).toContain('1');
    } finally {
      await close();
    }
  }, 30_000);

  it('the pdb tenet started for the takeover, handed back at once: the agent waits for it and reads that it is in pdb at the test', async () => {
    const { session, controller, close } = await takeoverRig(['test_x.py::test_one']);
    try {
      controller.requestTakeover(); // no session open: tenet starts pdb at the test
      const waiting = controller.beforeModelCall();
      controller.handBack(); // before pytest has even reached pdb
      const note = await waiting;
      expect(note).toContain('started by tenet for the takeover, not typed by the developer');
      expect(note).toContain('The developer left the session inside pdb stopped at test_x.py:2 in test_one()');
      expect(session.currentMode).toBe('pdb');
    } finally {
      await close();
    }
  }, 30_000);

  it('pdb quit in the takeover: the agent reads that the shell is back', async () => {
    const { controller, close } = await takeoverRig();
    try {
      controller.requestTakeover();
      const waiting = controller.beforeModelCall();
      await controller.send('python -m pdb prog.py');
      await controller.send('q');
      controller.handBack();
      expect(await waiting).toContain(
        'The session is at the shell prompt now (not in pdb): your next command runs in the shell.',
      );
    } finally {
      await close();
    }
  }, 30_000);

  it('where pdb stands is the last location it printed since it opened, under the workspace', () => {
    const transcript = [
      entry('agent', 'python -m pdb old.py', '> /w/old.py(9)<module>()\n-> z = 0\n(Pdb) ', 'shell'),
      entry('agent', 'q', '', 'pdb'),
      entry('human', 'python -m pytest t.py --trace', '> /w/pkg/t.py(4)test_a()\n-> x = f()\n(Pdb) ', 'shell'),
      entry('human', 's', '--Call--\n> /w/pkg/m.py(10)f()\n-> def f():\n(Pdb) ', 'pdb'),
      entry('human', 'p 1', '1\n(Pdb) ', 'pdb'),
    ];
    expect(pdbLocation(transcript, '/w')).toEqual({ file: 'pkg/m.py', line: 10, func: 'f' });
    expect(pdbLocation(transcript.slice(0, 3))).toEqual({ file: '/w/pkg/t.py', line: 4, func: 'test_a' });
    // A pdb that printed no location yet says none (not the one of an earlier pdb).
    expect(
      pdbLocation([...transcript.slice(0, 2), entry('human', 'python -c "breakpoint()"', '(Pdb) ', 'shell')], '/w'),
    ).toBeUndefined();
  });
});
