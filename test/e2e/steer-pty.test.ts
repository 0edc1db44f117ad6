import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { loadSession } from '../../source/engine/session/load';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { copyFixture } from '../helpers/fixtures';
import { KEY, shopRunArgs, startInPty } from '../helpers/pty';
import { runCli } from '../helpers/cli';

// Issue 14.3 in a real terminal: `n` in the THM review hands the terminal to the developer's
// editor — here vi, as a developer with no $EDITOR gets — and takes it back. Every key typed in
// vi must reach vi (tenet reads none of them), and tenet's keys must work again afterwards.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-steer-pty-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';

describe('writing a test in the THM review, in a pseudo-terminal', () => {
  it('n opens vi on a new test file; what is typed there becomes a test that joins; Enter then approves it', async () => {
    server = await startFakeModelServer([{ calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] }]);
    const repo = copyFixture('shop');
    const sessions = join(scratch, 'sessions');
    try {
      const tui = startInPty(shopRunArgs(repo.dir, ['-T', '2']), {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${server.url}/v1`,
        TENET_SESSIONS_DIR: sessions,
        EDITOR: '',
        VISUAL: '',
        HOME: scratch,
      });
      await tui.waitFor('Selected 2 (T=2)');
      const editorAt = await tui.press('n', '# Tests of shop/cart.py::Cart.total, written by you.', 30_000);
      // vi's keys: to the end, a new line, the test on one line (no autoindent to fight), save and quit.
      tui.send('Go');
      tui.send('def test_half_off(): assert Cart([("a", 10.0, 2)], percent=50).total() == 10.0');
      tui.send(KEY.escape);
      await new Promise((r) => setTimeout(r, 300));
      tui.send(':wq\r');
      await tui.waitFor('✎ joins tests/test_by_developer.py::test_half_off', 60_000, editorAt);
      await tui.waitFor('✎ 1 of yours', 10_000, editorAt);
      tui.send(KEY.enter);
      await tui.waitFor('a apply the patch to the checkout', 60_000);
      tui.send('q');
      expect(await tui.exited).toBe(0);

      const id = new Catalog(sessions).list()[0]!.id;
      const events = loadSession(sessions, id).events;
      const added = events.find((e) => e.type === 'tests.added');
      expect(added).toMatchObject({
        accepted: [{ nodeid: 'tests/test_by_developer.py::test_half_off' }],
        rejected: [],
      });
      expect(added?.type === 'tests.added' && added.files[0]!.content).toContain(
        'def test_half_off(): assert Cart([("a", 10.0, 2)], percent=50).total() == 10.0',
      );
      expect(events.find((e) => e.type === 'thm.approval')).toMatchObject({
        by: 'human',
        chosen: expect.arrayContaining(['tests/test_by_developer.py::test_half_off']),
      });
      expect(events.at(-1)).toMatchObject({ type: 'result', pass: true });
    } finally {
      repo.cleanup();
    }
  }, 180_000);
});

describe('editing a submission at a step pause, in a pseudo-terminal (issue 37.1)', () => {
  it('e opens the code as a .py file in $EDITOR; the edited submission runs, shows as a diff against the model’s, and is recorded', async () => {
    const WRONG = 'def total(self):\n    amount = self.subtotal()\n    return amount\n';
    server = await startFakeModelServer([{ calls: [{ name: 'submit_implementation', arguments: { code: WRONG } }] }]);
    const repo = copyFixture('shop');
    const sessions = join(scratch, 'sessions-edit');
    // The developer's editor: a script that fixes the return line of the file it is given, and says which file that was.
    const editor = join(scratch, 'fix-return.sh');
    writeFileSync(
      editor,
      `#!/bin/sh\necho "$1" > ${join(scratch, 'edited-file')}\nsed -i 's/    return amount$/    return discount(amount, self.percent)/' "$1"\n`,
    );
    chmodSync(editor, 0o755);
    try {
      const tui = startInPty(shopRunArgs(repo.dir, ['-T', '2', '--step']), {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${server.url}/v1`,
        TENET_SESSIONS_DIR: sessions,
        EDITOR: editor,
        VISUAL: '',
        HOME: scratch,
      });
      await tui.waitFor('Selected 2 (T=2)');
      tui.send(KEY.enter);
      await tui.waitFor('⏸ step: before model call 1', 60_000);
      await tui.settled();
      const paused = await tui.press(KEY.enter, '⏸ step: before the tool call submit_implementation', 60_000);
      await tui.waitFor('    return amount', 10_000, paused);
      await tui.settled();
      const edited = await tui.press('e', "code (your edit of the model's: +1 −1):", 30_000);
      await tui.waitFor('+    return discount(amount, self.percent)', 10_000, edited);
      await tui.settled();
      const ran = await tui.press(KEY.enter, "✎ you changed the model's code (+1 −1):", 60_000);
      await tui.waitFor('-    return amount', 10_000, ran);
      await tui.waitFor('a apply the patch to the checkout', 60_000);
      tui.send('q');
      expect(await tui.exited).toBe(0);

      expect((await import('node:fs')).readFileSync(join(scratch, 'edited-file'), 'utf8').trim()).toMatch(/\.py$/);
      const id = new Catalog(sessions).list()[0]!.id;
      const events = loadSession(sessions, id).events;
      const edit = events.find((e) => e.type === 'tool.edit');
      expect(edit).toMatchObject({ name: 'submit_implementation' });
      expect(edit?.type === 'tool.edit' && JSON.parse(edit.original).code).toBe(WRONG);
      expect(edit?.type === 'tool.edit' && JSON.parse(edit.arguments).code).toBe(RIGHT);
      expect(events.find((e) => e.type === 'submission')).toMatchObject({ code: RIGHT, ok: true });
      expect(events.at(-1)).toMatchObject({ type: 'result', pass: true });
      // tenet show tells the edit as the screen does: a diff of the code, not two JSON strings.
      const shown = await runCli(['show', id], { env: { TENET_SESSIONS_DIR: sessions } });
      expect(shown.stdout).toContain("_The developer changed the code before it ran (+1 −1 against the model's):_");
      expect(shown.stdout).toContain('-    return amount\n+    return discount(amount, self.percent)');
    } finally {
      repo.cleanup();
    }
  }, 180_000);
});

describe('a message the agent never read, in a pseudo-terminal (issue 37.4)', () => {
  it('written with m during the last model call: the screen says the agent finished before reading it, and the session records it', async () => {
    // The last model call takes long enough for the message box to open, be typed in and sent on a loaded machine.
    server = await startFakeModelServer([
      { calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }], delayMs: 10_000 },
    ]);
    const repo = copyFixture('shop');
    const sessions = join(scratch, 'sessions-unread');
    try {
      const tui = startInPty(shopRunArgs(repo.dir, ['-T', '2']), {
        OPENAI_API_KEY: 'sk-test',
        OPENAI_BASE_URL: `${server.url}/v1`,
        TENET_SESSIONS_DIR: sessions,
        HOME: scratch,
      });
      await tui.waitFor('Selected 2 (T=2)');
      tui.send(KEY.enter);
      await tui.waitFor('pre-generation', 60_000);
      // No settled() while the call runs: its spinner keeps the screen busy until the call ends.
      await tui.press('m', 'Message to the agent', 10_000);
      await tui.press('mind the rounding', '› mind the rounding', 10_000);
      await tui.press(KEY.enter, '1 message for the next model call', 10_000);
      await tui.waitFor('the agent finished before reading it ("mind the rounding")', 60_000);
      await tui.waitFor('a apply the patch to the checkout', 60_000);
      await tui.settled();
      tui.send('q');
      expect(await tui.exited).toBe(0);

      const id = new Catalog(sessions).list()[0]!.id;
      const events = loadSession(sessions, id).events;
      expect(events.filter((e) => e.type === 'developer.message')).toEqual([]);
      expect(
        events.find((e) => e.type === 'warning' && e.message.includes('finished before reading it')),
      ).toMatchObject({
        message: 'Your message was not sent: the agent finished before reading it ("mind the rounding").',
      });
    } finally {
      repo.cleanup();
    }
  }, 180_000);
});
