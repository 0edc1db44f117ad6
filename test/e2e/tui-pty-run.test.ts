import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { loadSession } from '../../source/engine/session/load';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { copyFixture } from '../helpers/fixtures';
import { KEY, shopRunArgs, startInPty } from '../helpers/pty';
import { SANDBOXES } from '../helpers/sandboxes';
import { scratch } from '../helpers/tui-pty';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

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
        const tui = startInPty(shopRunArgs(repo.dir, ['-T', '3', '--sandbox', name]), {
          OPENAI_API_KEY: 'sk-test',
          OPENAI_BASE_URL: `${server.url}/v1`,
          TENET_SESSIONS_DIR: sessions,
        });
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
        shopRunArgs(repo.dir, ['--rrw-attempts', '0']),
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
});
