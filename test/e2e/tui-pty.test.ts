import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { loadSession } from '../../source/engine/session/load';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { runCli } from '../helpers/cli';
import { copyFixture } from '../helpers/fixtures';
import { KEY, startInPty } from '../helpers/pty';
import { SANDBOXES } from '../helpers/sandboxes';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-tui-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** A colour or style escape (ESC [ … m). */
// eslint-disable-next-line no-control-regex
const SGR = /\x1b\[[0-9;]*m/;

describe('the TUI in a pseudo-terminal, against the fake model server', () => {
  // The takeover works the same when the debugger session runs in a container.
  it.each(SANDBOXES)(
    'override the tests, take over pdb and hand it back, accept the patch (%s sandbox)',
    async (name) => {
      server = await startFakeModelServer([
        {
          say: 'Let me read subtotal first.',
          calls: [{ name: 'search_method_in_class', arguments: { method_name: 'subtotal', class_name: 'Cart' } }],
          delayMs: 1500,
        },
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
      const repo = copyFixture('shop');
      const sessions = join(scratch, `sessions-${name}`); // each case its own: a session left by the other is not this one's
      try {
        const tui = startInPty(
          [
            'run',
            '--repo',
            repo.dir,
            '--target',
            'shop/cart.py::Cart.total',
            '--blank',
            '-T',
            '3',
            '--provider',
            'openai',
            '--model',
            'gpt-4o-mini',
            '--sandbox',
            name,
            '--tests',
            'tests/test_cart.py',
          ],
          { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1`, TENET_SESSIONS_DIR: sessions },
        );
        // THM proposes one test per cluster at T=3; T=2 proposes test_total and test_summary; take
        // test_receipt instead of test_summary.
        await tui.waitFor('Selected 3 (T=3)');
        await tui.press('-', 'Selected 2 (T=2)');
        await tui.waitFor('a accept the proposal as it is');
        // Rows: ▾ CartTest.test_total (expanded), its test, ▸ Cart.summary, ▸ receipt.
        await tui.press(KEY.down, /❯\s+★ tests\/test_cart\.py::CartTest::test_total/);
        await tui.press(KEY.down, '❯ ▸ shop/cart.py::Cart.summary');
        await tui.press(KEY.space, 'Selected 1 (T=2) · changed from the proposal'); // Cart.summary's representative out
        await tui.press(KEY.down, '❯ ▸ shop/cart.py::receipt');
        await tui.press(KEY.space, 'Selected 2 (T=2) · changed from the proposal'); // receipt's representative in
        tui.send(KEY.enter);
        // The first model call takes 1.5 s: ask for the debugger meanwhile.
        const agentAt = await tui.waitFor('pre-generation');
        tui.send('t');
        await tui.waitFor('you have the debugger', 30_000, agentAt);
        await tui.waitFor('(Pdb)', 30_000, agentAt);
        for (const char of 'p 6 * 7') await tui.press(char, char === ' ' ? /\(Pdb\) p/ : char);
        await tui.press(KEY.enter, '42', 30_000);
        tui.send(KEY.escape); // hand back
        // The result, with the patch question.
        await tui.waitFor('a apply the patch to the checkout', 60_000);
        expect(tui.screen()).toContain('PASS');
        // The result screen's first frame is up before it listens to keys: let it draw.
        await tui.settled();
        await tui.press('a', /Apply the patch \(\+\d+ −\d+\) to shop\/cart\.py\? y\/N/);
        await tui.settled();
        // Applied, the result screen stays and says so (issue 37.3); q quits.
        const applied = await tui.press('y', 'patch applied to the checkout', 60_000);
        await tui.waitFor('q quit', 10_000, applied);
        await tui.settled();
        tui.send('q');
        expect(await tui.exited).toBe(0);

        // The checkout has the patch.
        expect(readFileSync(join(repo.dir, 'shop', 'cart.py'), 'utf8')).toContain(
          '        amount = self.subtotal()\n        return discount(amount, self.percent)\n',
        );
        // The session says what happened: the override, who typed in pdb, the note the model got.
        const id = new Catalog(sessions).list()[0]!.id;
        const events = loadSession(sessions, id).events;
        expect(events.find((e) => e.type === 'thm.approval')).toMatchObject({
          by: 'human',
          // Compared with the proposal for the T chosen, not with THM's first one at T=3.
          T: 2,
          proposed: ['tests/test_cart.py::CartTest::test_total', 'tests/test_cart.py::CartTest::test_summary'],
          chosen: ['tests/test_cart.py::CartTest::test_total', 'tests/test_cart.py::CartTest::test_receipt'],
        });
        expect(
          events
            .filter((e) => e.type === 'debugger.entry')
            .map((e) => e.type === 'debugger.entry' && [e.entry.who, e.entry.input]),
        ).toEqual(expect.arrayContaining([['human', 'p 6 * 7']]));
        const secondRequest = JSON.stringify(server.requests[1]!.body.messages);
        expect(secondRequest).toContain('The developer took over the debugger session');
        expect(secondRequest).toContain('p 6 * 7');
        expect(events.at(-1)).toMatchObject({ type: 'result', pass: true });
      } finally {
        repo.cleanup();
      }
    },
    120_000,
  );

  it('a failed run: apply asks twice, a refusal leaves the file byte-identical, r rejects', async () => {
    server = await startFakeModelServer([
      {
        calls: [
          { name: 'submit_implementation', arguments: { code: 'def total(self):\n    return self.subtotal()\n' } },
        ],
      },
    ]);
    const repo = copyFixture('shop');
    const file = join(repo.dir, 'shop', 'cart.py');
    try {
      const before = readFileSync(file);
      const tui = startInPty(
        [
          'run',
          '--repo',
          repo.dir,
          '--target',
          'shop/cart.py::Cart.total',
          '--blank',
          '--provider',
          'openai',
          '--model',
          'gpt-4o-mini',
          '--rrw-attempts',
          '0',
          '--tests',
          'tests/test_cart.py',
        ],
        { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1`, TENET_SESSIONS_DIR: join(scratch, 'refuse') },
        { cols: 100, rows: 30 },
      );
      await tui.waitFor('Selected');
      tui.send(KEY.enter);
      await tui.waitFor('a apply the patch', 60_000);
      expect(tui.screen()).toMatch(/FAIL: \d+\/\d+ selected passed, \d+\/\d+ hidden passed/);
      await tui.settled();
      await tui.press('a', 'Apply a patch that failed? y/N');
      // A second key within Ink's frame throttle of the first may wait for the next frame: let it draw.
      await tui.settled();
      await tui.press('y', /Apply the patch \(\+\d+ −\d+\) to shop\/cart\.py\? y\/N/);
      await tui.press('n', 'a apply the patch');
      expect(readFileSync(file).equals(before)).toBe(true);
      await tui.press('a', 'Apply a patch that failed? y/N');
      await tui.press(KEY.enter, 'a apply the patch'); // Enter is no
      const rejected = await tui.press('r', 'patch rejected', 60_000);
      await tui.waitFor('q quit', 10_000, rejected);
      await tui.settled();
      tui.send('q');
      expect(await tui.exited).toBe(1);
      expect(readFileSync(file).equals(before)).toBe(true);
    } finally {
      repo.cleanup();
    }
  }, 120_000);

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
        [
          'run',
          '--repo',
          repo.dir,
          '--target',
          'shop/cart.py::Cart.total',
          '--blank',
          '--provider',
          'openai',
          '--model',
          'gpt-4o-mini',
          '--rrw-attempts',
          '0',
          '--tests',
          'tests/test_cart.py',
        ],
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
        [
          'run',
          '--repo',
          repo.dir,
          '--target',
          'shop/cart.py::Cart.total',
          '--blank',
          '--provider',
          'openai',
          '--model',
          'gpt-4o-mini',
          '--tests',
          'tests/test_cart.py',
        ],
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
      const tui = startInPty(
        [
          'run',
          '--repo',
          repo.dir,
          '--target',
          'shop/cart.py::Cart.total',
          '--blank',
          '--provider',
          'openai',
          '--model',
          'gpt-4o-mini',
          '--tests',
          'tests/test_cart.py',
        ],
        { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1`, TENET_SESSIONS_DIR: sessions },
      );
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
    const run = (flag: string[]) => [
      'run',
      '--repo',
      repo.dir,
      '--target',
      'shop/cart.py::Cart.total',
      '--blank',
      '--provider',
      'openai',
      '--model',
      'gpt-4o-mini',
      ...flag,
      '--tests',
      'tests/test_cart.py',
    ];
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

  it('a replay honours NO_COLOR and fits 100×30 without clearing the terminal', async () => {
    const run = (env: NodeJS.ProcessEnv) => {
      const tui = startInPty(['replay', 'demo', '--speed', '50'], env, { cols: 100, rows: 30 });
      let raw = '';
      tui.pty.onData((data) => (raw += data));
      return { tui, raw: () => raw };
    };
    const plain = run({ NO_COLOR: '1' });
    await plain.tui.waitFor('PASS: 3/3 selected passed', 30_000);
    plain.tui.send('q');
    expect(await plain.tui.exited).toBe(0);
    expect(plain.raw()).not.toMatch(SGR);
    expect(plain.raw()).not.toContain('\x1b[2J');
    // Without it, the same replay is in colour (so the check above can fail).
    const coloured = run({ NO_COLOR: '' });
    await coloured.tui.waitFor('PASS: 3/3 selected passed', 30_000);
    coloured.tui.send('q');
    expect(await coloured.tui.exited).toBe(0);
    expect(coloured.raw()).toMatch(SGR);
  }, 60_000);
  it("a submission's code is on screen in full, and grows while the model writes it", async () => {
    const steps = Array.from(
      { length: 30 },
      (_, i) => `    # step ${String(i + 1).padStart(2, '0')} of the total: nothing left out of the view`,
    );
    const code = [
      'def total(self):',
      ...steps,
      '    amount = self.subtotal()',
      '    return discount(amount, self.percent)',
      '',
    ].join('\n');
    // Streamed a few characters at a time, as a slow model writes.
    server = await startFakeModelServer([
      {
        say: 'Here is the whole method.',
        calls: [{ name: 'submit_implementation', arguments: { code } }],
        chunkDelayMs: 15,
      },
    ]);
    const repo = copyFixture('shop');
    try {
      const tui = startInPty(
        [
          'run',
          '--repo',
          repo.dir,
          '--target',
          'shop/cart.py::Cart.total',
          '--blank',
          '--provider',
          'openai',
          '--model',
          'gpt-4o-mini',
          '--rrw-attempts',
          '0',
          '--tests',
          'tests/test_cart.py',
        ],
        {
          OPENAI_API_KEY: 'sk-test',
          OPENAI_BASE_URL: `${server.url}/v1`,
          TENET_SESSIONS_DIR: join(scratch, 'full-code'),
        },
        { cols: 120, rows: 40 },
      );
      await tui.waitFor('Selected', 60_000);
      await tui.press(KEY.enter, 'pre-generation', 60_000);
      // While the arguments stream: the call's name, the code so far, a spinner with the tokens.
      await tui.waitFor('→ submit_implementation  (writing…)', 30_000);
      await tui.waitFor(/model · \d+ s · ~\d+ tokens/);
      await tui.waitFor('a apply the patch', 60_000);
      const screen = tui.screen();
      expect(screen).toContain('✎ submission 1 (against the blanked function');
      // Every line of the submission, as a line of the diff (added), none cut.
      for (const step of steps) expect(screen).toContain(`+${step}`);
      expect(screen).toContain('+    return discount(amount, self.percent)');
      await tui.settled();
      tui.send('q');
      expect(await tui.exited).toBe(0);
    } finally {
      repo.cleanup();
    }
  }, 120_000);

  it('a block pasted into the pdb line reaches pdb line by line', async () => {
    server = await startFakeModelServer([
      {
        say: 'Let me read subtotal first.',
        calls: [{ name: 'search_method_in_class', arguments: { method_name: 'subtotal', class_name: 'Cart' } }],
        delayMs: 1500,
      },
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
    const repo = copyFixture('shop');
    const sessions = join(scratch, 'paste');
    try {
      const tui = startInPty(
        [
          'run',
          '--repo',
          repo.dir,
          '--target',
          'shop/cart.py::Cart.total',
          '--blank',
          '--provider',
          'openai',
          '--model',
          'gpt-4o-mini',
          '--approve',
          'auto',
          '--tests',
          'tests/test_cart.py',
        ],
        { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1`, TENET_SESSIONS_DIR: sessions },
      );
      await tui.waitFor('Selected');
      const agentAt = await tui.press(KEY.enter, 'pre-generation', 60_000);
      tui.send('t');
      await tui.waitFor('you have the debugger', 30_000, agentAt);
      const pdbAt = await tui.waitFor('(Pdb)', 30_000, agentAt);
      // One write, as a terminal delivers a paste: three lines, each ended by a newline.
      tui.send('p 6 * 7\rp 111 + 111\rp "pasted" + "!"\r');
      await tui.waitFor("'pasted!'", 30_000, pdbAt);
      const after = tui.screen().slice(pdbAt);
      expect(after).toContain('42');
      expect(after).toContain('222');
      tui.send(KEY.escape); // hand back (the line is empty)
      await tui.waitFor('a apply the patch', 60_000);
      await tui.settled();
      tui.send('q');
      expect(await tui.exited).toBe(0);
      const id = new Catalog(sessions).list()[0]!.id;
      const typed = loadSession(sessions, id).events.flatMap((e) =>
        e.type === 'debugger.entry' && e.entry.who === 'human' ? [e.entry.input] : [],
      );
      expect(typed).toEqual(expect.arrayContaining(['p 6 * 7', 'p 111 + 111', 'p "pasted" + "!"']));
      expect(typed.indexOf('p 111 + 111')).toBe(typed.indexOf('p 6 * 7') + 1);
    } finally {
      repo.cleanup();
    }
  }, 120_000);

  it('THM review of a cluster of 210 tests: PgDn moves a page, / filters', async () => {
    const repo = mkdtempSync(join(scratch, 'big-cluster-'));
    mkdirSync(join(repo, 'textpkg'));
    mkdirSync(join(repo, 'tests'));
    writeFileSync(join(repo, 'textpkg', '__init__.py'), '');
    writeFileSync(
      join(repo, 'textpkg', 'wrapping.py'),
      'def wrap(text, width):\n    """The lines of text, at most width wide."""\n    raise NotImplementedError\n\n\ndef fill(text, width):\n    return "\\n".join(wrap(text, width))\n',
    );
    writeFileSync(
      join(repo, 'tests', 'test_wrapping_behaviour_of_the_fill_helper.py'),
      'import pytest\nfrom textpkg.wrapping import fill\n\n\n@pytest.mark.parametrize("n", range(210))\ndef test_fill_keeps_every_word_of_a_long_paragraph(n):\n    assert fill("a " * n, 10).count("a") == n\n',
    );
    const run = startInPty(
      [
        'run',
        '--repo',
        repo,
        '--target',
        'textpkg/wrapping.py::wrap',
        '--provider',
        'openai',
        '--model',
        'm',
        '--base-url',
        'http://127.0.0.1:9/v1',
      ],
      { OPENAI_API_KEY: 'sk-test', TENET_SESSIONS_DIR: join(scratch, 'big') },
      { cols: 100, rows: 30 },
    );
    // The first cluster opens on its own: its tests are listed with the review's first frame.
    await run.waitFor(/Selected[\s\S]*test_fill_keeps_every_word_of_a_long_paragraph\[0\]/, 120_000);
    await run.settled();
    await run.press(KEY.down, 'test 1/210 of its cluster');
    const before = run.screen().length;
    await run.press(KEY.pageDown, /test \d+\/210 of its cluster/);
    const frame = run.screen().slice(before);
    const at = Number(/test (\d+)\/210 of its cluster/.exec(frame)![1]);
    expect(at).toBeGreaterThan(5);
    // The cursor's row keeps both ends of the long id: the file and the test's name with its parameter.
    expect(frame).toMatch(/❯ +★? *tests\/test_wrap[^\n]*…[^\n]*long_paragraph\[\d+\]/);
    await run.press(KEY.end, 'test 210/210 of its cluster');
    await run.press('/', 'filter clusters and tests');
    const typed = run.screen().length;
    await run.press('paragraph[13', '11 tests match'); // 13 and 130-139
    expect(run.screen().slice(typed)).toContain('long_paragraph[139]');
    expect(run.screen().slice(typed)).not.toContain('long_paragraph[140]');
    await run.press(KEY.enter, 'filter "paragraph[13": 11 tests match');
    await run.press(KEY.escape, 'cluster 1/1 · PgUp PgDn Home End · / filters'); // the filter is gone
    await run.press(KEY.ctrlC, 'Press Ctrl+C again');
    run.send(KEY.ctrlC);
    expect(await run.exited).toBe(130);
  }, 240_000);

  it('bare tenet --tests: the start screen says the scope, and the session it starts runs THM on that scope, not the whole suite', async () => {
    const repo = copyFixture('shop');
    try {
      const tui = startInPty(
        [
          '--repo',
          repo.dir,
          '--provider',
          'openai',
          '--base-url',
          'http://127.0.0.1:9/v1',
          '--tests',
          'tests/test_cart.py',
        ],
        { OPENAI_API_KEY: 'sk-test', TENET_SESSIONS_DIR: join(scratch, 'scoped') },
      );
      await tui.waitFor('tests: tests/test_cart.py (--tests)');
      await tui.waitFor(/\d+ of \d+ functions/, 60_000);
      await tui.press('Cart.total', /1 of \d+ functions/);
      await tui.press('\t', 'mode: benchmark');
      // The whole suite has 23 tests; test_cart.py 4.
      await tui.press(KEY.enter, 'THM 4 tests ·', 60_000);
      tui.send(KEY.ctrlC + KEY.ctrlC);
      expect(await tui.exited).toBe(130);
    } finally {
      repo.cleanup();
    }
  }, 120_000);

  it('bare tenet takes the model flags of run; without a model it says what to set and d runs the demo', async () => {
    const repo = copyFixture('shop');
    const home = mkdtempSync(join(scratch, 'home-'));
    const clean = {
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      OPENAI_BASE_URL: '',
      ANTHROPIC_BASE_URL: '',
      HOME: home,
      XDG_CONFIG_HOME: home,
      TENET_SESSIONS_DIR: join(scratch, 'bare'),
    };
    try {
      const flagged = startInPty(
        ['--repo', repo.dir, '--provider', 'openai', '--base-url', 'http://127.0.0.1:9/v1', '--model', 'my-model'],
        clean,
        { cols: 120, rows: 30 },
      );
      await flagged.waitFor('model: my-model (OpenAI-compatible, http://127.0.0.1:9/v1)');
      await flagged.waitFor(/\d+ of \d+ functions/, 60_000);
      flagged.send(KEY.escape);
      expect(await flagged.exited).toBe(0);

      const bare = startInPty(['--repo', repo.dir], clean, { cols: 60, rows: 20 });
      await bare.waitFor('d run the scripted demo');
      expect(bare.screen().replace(/\s+/g, ' ')).toContain(
        'No model is configured. To use a model, set OPENAI_API_KEY (or ANTHROPIC_API_KEY); or pass --provider openai --base-url URL',
      );
      // The demo: its scripted model says so, THM runs on the example.
      await bare.press('d', '⚠ scripted demo model', 60_000);
      await bare.waitFor('Selected', 60_000);
      // Both at once, as a quick double press arrives: one read, "\x03\x03".
      bare.send(KEY.ctrlC + KEY.ctrlC);
      expect(await bare.exited).toBe(130);
    } finally {
      repo.cleanup();
    }
  }, 180_000);
});
