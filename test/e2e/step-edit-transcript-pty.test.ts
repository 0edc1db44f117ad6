import { chmodSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { copyFixture } from '../helpers/fixtures';
import { KEY, shopRunArgs, startInPty } from '../helpers/pty';
import { mirrorTerminal } from '../helpers/terminal-buffer';

// Issue 46.1: `e` at a step pause hands the terminal to $EDITOR. Ink's frame used to be erased
// before the editor ran while Ink still counted its rows as drawn, so the next frame erased as
// many rows again above it: the transcript, gone from the screen and from its scrollback. Read
// here through a terminal emulator (xterm.js), which shows what is still on screen, not every
// byte ever written.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-step-edit-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));
let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const WRONG = 'def total(self):\n    amount = self.subtotal()\n    return amount\n';

describe('an edit at a step pause, in a terminal (issue 46.1)', () => {
  it('gives the terminal back as it found it: the transcript stays, once, and the editor leaves nothing behind', async () => {
    server = await startFakeModelServer([
      { say: 'Looking at the callers first.', calls: [{ name: 'search_target_usage', arguments: { n: 2 } }] },
      { calls: [{ name: 'submit_implementation', arguments: { code: WRONG } }] },
    ]);
    const repo = copyFixture('shop');
    // An editor that does not take the full screen: it prints as it goes, then edits the file.
    const editor = join(scratch, 'line-editor.sh');
    writeFileSync(
      editor,
      `#!/bin/sh\necho "line editor: editing $1"\necho "line editor: done"\nsed -i 's/    return amount$/    return discount(amount, self.percent)/' "$1"\n`,
    );
    chmodSync(editor, 0o755);
    const size = { cols: 120, rows: 36 };
    try {
      const tui = startInPty(
        shopRunArgs(repo.dir, ['-T', '2', '--step']),
        {
          OPENAI_API_KEY: 'sk-test',
          OPENAI_BASE_URL: `${server.url}/v1`,
          TENET_SESSIONS_DIR: join(scratch, 'sessions'),
          EDITOR: editor,
          VISUAL: '',
          HOME: scratch,
        },
        size,
      );
      const terminal = mirrorTerminal(tui, size);
      await tui.waitFor('Selected 2 (T=2)');
      tui.send(KEY.enter);
      await tui.waitFor('⏸ step: before model call 1', 60_000);
      await tui.settled();
      // A message first: its line in the transcript is one the editor used to take with it.
      await tui.press('m', 'Message to the agent', 10_000);
      await tui.press('mind the percent', '› mind the percent', 10_000);
      await tui.press(KEY.enter, 'Your message goes with the next model call', 10_000);
      await tui.settled();
      await tui.press(KEY.enter, '⏸ step: before the tool call search_target_usage', 60_000);
      await tui.settled();
      await tui.press(KEY.enter, '⏸ step: before model call 2', 60_000);
      await tui.settled();
      await tui.press(KEY.enter, '⏸ step: before the tool call submit_implementation', 60_000);
      await tui.settled();
      const before = await terminal.text();
      expect(before).toContain('👤 You told the agent: mind the percent');
      await tui.press('e', "code (your edit of the model's: +1 −1):", 30_000);
      await tui.settled(500);
      const after = await terminal.text();
      for (const line of [
        '👤 You told the agent: mind the percent',
        'Looking at the callers first.',
        '→ search_target_usage',
      ])
        expect(after.split(line).length - 1, `"${line}" on screen once:\n${after}`).toBe(1);
      expect(after).not.toContain('line editor:');
      // And the run goes on from there, the edit running.
      await tui.press(KEY.enter, "✎ you changed the model's code (+1 −1):", 60_000);
      await tui.waitFor('a apply the patch to the checkout', 60_000);
      expect(await terminal.text()).toContain('Looking at the callers first.');
      tui.send('q');
      expect(await tui.exited).toBe(0);
      terminal.dispose();
    } finally {
      repo.cleanup();
    }
  }, 180_000);
});
