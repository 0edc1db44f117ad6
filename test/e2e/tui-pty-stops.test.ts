import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { loadSession } from '../../source/engine/session/load';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { runCli } from '../helpers/cli';
import { copyFixture } from '../helpers/fixtures';
import { KEY, shopRunArgs, startInPty } from '../helpers/pty';
import { SGR, scratch } from '../helpers/tui-pty';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

describe('the TUI in a pseudo-terminal, against the fake model server', () => {
  it('Ctrl+C twice on the result screen: the run was over, so it keeps its result, the patch not applied, and no resume hint', async () => {
    server = await startFakeModelServer([
      {
        calls: [
          { name: 'submit_implementation', arguments: { code: 'def total(self):\n    return self.subtotal()\n' } },
        ],
      },
    ]);
    const repo = copyFixture('shop');
    const sessions = join(scratch, 'quit-at-result');
    const file = join(repo.dir, 'shop', 'cart.py');
    try {
      const before = readFileSync(file);
      const tui = startInPty(
        shopRunArgs(repo.dir, ['--rrw-attempts', '0']),
        { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1`, TENET_SESSIONS_DIR: sessions },
        { cols: 100, rows: 30 },
      );
      await tui.waitFor('Selected');
      tui.send(KEY.enter);
      await tui.waitFor('a apply the patch', 60_000);
      await tui.settled();
      await tui.press(KEY.ctrlC, /Press Ctrl\+C again/);
      tui.send(KEY.ctrlC);
      expect(await tui.exited).toBe(1); // the run's own exit code: it failed
      const [session] = new Catalog(sessions).list();
      const text = tui.screen().replace(/\s+/g, ' ');
      expect(text).toContain(`FAIL · patch not applied · session ${session!.id} saved in`);
      expect(text).not.toContain('go on with it');
      expect(session).toMatchObject({ status: 'failed' });
      const events = loadSession(sessions, session!.id).events;
      expect(events.filter((e) => e.type === 'session.interrupted')).toEqual([]);
      expect(events.filter((e) => e.type === 'patch.decision')).toEqual([
        expect.objectContaining({
          decision: 'reject',
          applied: false,
          reason: expect.stringContaining('stopped before the patch was decided'),
        }),
      ]);
      expect(events.at(-1)).toMatchObject({
        type: 'result',
        pass: false,
        stopReason: expect.not.stringMatching(/interrupted/),
      });
      expect(readFileSync(file).equals(before)).toBe(true);
    } finally {
      repo.cleanup();
    }
  }, 120_000);

  it('Ctrl+C twice quits and saves the session as interrupted; the checkout is untouched; 60×15 and NO_COLOR still work', async () => {
    server = await startFakeModelServer([{ say: 'Thinking for a long time.', delayMs: 20_000 }]);
    const repo = copyFixture('shop');
    const sessions = join(scratch, 'quit');
    try {
      const before = readFileSync(join(repo.dir, 'shop', 'cart.py'), 'utf8');
      const tui = startInPty(
        shopRunArgs(repo.dir),
        { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1`, TENET_SESSIONS_DIR: sessions, NO_COLOR: '1' },
        { cols: 60, rows: 15 },
      );
      let raw = '';
      tui.pty.onData((data) => (raw += data));
      await tui.waitFor('Selected 3 (T=3)');
      // 60 columns: the header is cut short; the footer's token count shows the agent screen.
      await tui.press('a', /\d+ tokens in/);
      await tui.press(KEY.ctrlC, /Press Ctrl\+C again/);
      tui.send(KEY.ctrlC);
      expect(await tui.exited).toBe(130);
      const quitId = new Catalog(sessions).list()[0]!.id;
      expect(tui.screen().replace(/\s+/g, ' ')).toContain(
        `Session ${quitId} is saved; go on with it: tenet resume ${quitId}`,
      );
      expect(readFileSync(join(repo.dir, 'shop', 'cart.py'), 'utf8')).toBe(before);
      expect(new Catalog(sessions).list()[0]).toMatchObject({ status: 'interrupted' });
      // Every frame fit in 15 rows: Ink never cleared the terminal (and its scrollback); no colour.
      expect(raw).not.toContain('\x1b[2J');
      expect(raw).not.toMatch(SGR);
    } finally {
      repo.cleanup();
    }
  }, 60_000);

  it('a shell command waiting for approval when the session stopped is asked again on resume; a headless resume refuses to run it', async () => {
    server = await startFakeModelServer([
      { say: 'Let me check the value.', calls: [{ name: 'run_debugger_cmd', arguments: { cmd: 'echo resumed-ok' } }] },
    ]);
    const repo = copyFixture('shop');
    const sessions = join(scratch, 'approval');
    try {
      const tui = startInPty(shopRunArgs(repo.dir), {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${server.url}/v1`,
        TENET_SESSIONS_DIR: sessions,
      });
      await tui.waitFor('Selected 3 (T=3)');
      tui.send('a');
      await tui.waitFor('The agent wants to run a shell command:', 60_000);
      // Killed while the question is on screen: the command never ran.
      tui.pty.kill('SIGKILL');
      await tui.exited;
      const id = new Catalog(sessions).list()[0]!.id;
      expect(loadSession(sessions, id).events.some((e) => e.type === 'command.approval')).toBe(false);
      await server.close();

      const env = { OPENAI_API_KEY: 'sk-test', TENET_SESSIONS_DIR: sessions };
      const headless = await runCli(['resume', id, '--json'], { env });
      expect(headless.code).toBe(2);
      expect(headless.stderr).toContain(
        `Session ${id} stopped while the shell command \`echo resumed-ok\` waited for your approval; a headless resume cannot ask.`,
      );

      server = await startFakeModelServer([
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
      ]);
      const resumed = startInPty(['resume', id, '--base-url', `${server.url}/v1`], env);
      await resumed.waitFor('The agent wants to run a shell command:', 60_000);
      expect(resumed.screen()).toContain('$ echo resumed-ok');
      await resumed.press('y', 'a apply the patch to the checkout', 60_000);
      resumed.send('q');
      expect(await resumed.exited).toBe(0);
      const events = loadSession(sessions, id).events;
      const after = events.slice(events.findIndex((e) => e.type === 'session.resumed'));
      expect(after.find((e) => e.type === 'command.approval')).toMatchObject({
        command: 'echo resumed-ok',
        decision: 'approved',
        by: 'human',
      });
      expect(after.find((e) => e.type === 'tool.result' && e.name === 'run_debugger_cmd')).toMatchObject({
        ok: true,
        text: expect.stringContaining('resumed-ok'),
      });
      expect(events.at(-1)).toMatchObject({ type: 'result', pass: true });
    } finally {
      repo.cleanup();
    }
  }, 180_000);

  it('a session stopped in step mode, or after --approve auto, goes on so when it is resumed in the terminal', async () => {
    const RIGHT = {
      calls: [
        {
          name: 'submit_implementation',
          arguments: {
            code: 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n',
          },
        },
      ],
    };
    const repo = copyFixture('shop');
    const run = (flag: string[]) => shopRunArgs(repo.dir, flag);
    try {
      // Step mode: killed at the pause before the first model call; the resume pauses there again.
      const stepping = join(scratch, 'stepping');
      server = await startFakeModelServer([RIGHT]);
      const env = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1`, TENET_SESSIONS_DIR: stepping };
      const first = startInPty(run(['--step']), env);
      await first.waitFor('Selected 3 (T=3)');
      first.send('a');
      await first.waitFor('⏸ step: before model call 1', 60_000);
      first.pty.kill('SIGKILL');
      await first.exited;
      const stepId = new Catalog(stepping).list()[0]!.id;
      const resumedStep = startInPty(['resume', stepId], env);
      await resumedStep.waitFor('⏸ step: before model call 1', 60_000);
      // s turns it off there, and the agent goes on to its end.
      await resumedStep.press('s', 'a apply the patch to the checkout', 60_000);
      resumedStep.send('q');
      expect(await resumedStep.exited).toBe(0);
      await server.close();

      // --approve auto: killed while the second model call waits; the resume runs the next command without asking.
      const auto = join(scratch, 'auto');
      server = await startFakeModelServer([
        { calls: [{ name: 'run_debugger_cmd', arguments: { cmd: 'echo first-ran' } }] },
        { calls: [{ name: 'run_debugger_cmd', arguments: { cmd: 'echo never' } }], delayMs: 60_000 },
      ]);
      const autoEnv = { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1`, TENET_SESSIONS_DIR: auto };
      const approving = startInPty(run(['--approve', 'auto']), autoEnv);
      await approving.waitFor('Selected 3 (T=3)');
      approving.send('a');
      await approving.waitFor('first-ran', 60_000);
      // Its result in the log: the second model call is the one in flight.
      const autoId = new Catalog(auto).list()[0]!.id;
      const ranFirst = () =>
        loadSession(auto, autoId).events.some((e) => e.type === 'tool.result' && e.name === 'run_debugger_cmd');
      for (const began = Date.now(); !ranFirst() && Date.now() - began < 30_000; )
        await new Promise((resolve) => setTimeout(resolve, 50));
      approving.pty.kill('SIGKILL');
      await approving.exited;
      await server.close();
      server = await startFakeModelServer([
        { calls: [{ name: 'run_debugger_cmd', arguments: { cmd: 'echo second-ran' } }] },
        RIGHT,
      ]);
      const resumedAuto = startInPty(['resume', autoId, '--base-url', `${server.url}/v1`], autoEnv);
      await resumedAuto.waitFor('a apply the patch to the checkout', 60_000);
      expect(resumedAuto.screen()).not.toContain('The agent wants to run a shell command:');
      resumedAuto.send('q');
      expect(await resumedAuto.exited).toBe(0);
      const events = loadSession(auto, autoId).events;
      const after = events.slice(events.findIndex((e) => e.type === 'session.resumed'));
      expect(after.find((e) => e.type === 'command.approval')).toMatchObject({
        command: 'echo second-ran',
        by: 'auto',
      });
      expect(after.find((e) => e.type === 'tool.result' && e.name === 'run_debugger_cmd')).toMatchObject({
        ok: true,
        text: expect.stringContaining('second-ran'),
      });
    } finally {
      repo.cleanup();
    }
  }, 240_000);
});
