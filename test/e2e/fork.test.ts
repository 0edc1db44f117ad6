import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { loadSession } from '../../source/engine/session/load';
import { runCli } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { copyFixture } from '../helpers/fixtures';

// Issue 14.4: `tenet fork SESSION --at EVENT`. The fork's history up to the event is the parent's
// (the model's answers from the record, at no cost; THM, the tools and the tests run again), then
// it goes on live with another model and the developer's message. The fork names its parent and
// the event, `tenet sessions` shows it under its parent, and `rerun` of the fork agrees with it.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-fork-'));
const servers: FakeModelServer[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await server.close();
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';
const WRONG = 'def total(self):\n    return self.subtotal()\n';

describe('tenet fork', () => {
  it('goes on from an event of a failed session with another model and a message; the history costs nothing; sessions shows the tree; rerun agrees', async () => {
    const dir = join(scratch, 'sessions');
    const parentServer = await startFakeModelServer([
      {
        say: 'Looking at the cart.',
        calls: [{ name: 'search_class', arguments: { class_name: 'Cart' } }],
        usage: { input: 1000, output: 50 },
      },
      { calls: [{ name: 'submit_implementation', arguments: { code: WRONG } }], usage: { input: 2000, output: 60 } },
    ]);
    servers.push(parentServer);
    const repo = copyFixture('shop');
    try {
      const env = (server: FakeModelServer) => ({
        TENET_SESSIONS_DIR: dir,
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: `${server.url}/v1`,
        XDG_CONFIG_HOME: '/nonexistent',
      });
      const parentRun = await runCli(
        [
          'run',
          '--repo',
          repo.dir,
          '--target',
          'shop/cart.py::Cart.total',
          '--blank',
          '-T',
          '2',
          '--provider',
          'openai',
          '--model',
          'gpt-4o-mini',
          '--rrw-attempts',
          '0',
          '--json',
          '--tests',
          'tests/test_cart.py',
        ],
        { env: env(parentServer) },
      );
      expect(parentRun.code, parentRun.stderr).toBe(1);
      const parent = JSON.parse(parentRun.stdout.trim().split('\n')[0]!).sessionId as string;
      const before = loadSession(dir, parent).events;
      // The fork's event: the search's result, before the parent's second (wrong) answer was asked for.
      const at = before.find((e) => e.type === 'tool.result' && e.name === 'search_class')!.seq;

      const forkServer = await startFakeModelServer([
        { calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }], usage: { input: 3000, output: 70 } },
      ]);
      servers.push(forkServer);
      // As resume does, the fork takes the parent's model settings (its base URL too) unless given others.
      const forked = await runCli(
        [
          'fork',
          parent,
          '--at',
          String(at),
          '--model',
          'gpt-4o',
          '--base-url',
          `${forkServer.url}/v1`,
          '--message',
          "Apply the cart's percent discount.",
          '--json',
        ],
        { env: env(forkServer) },
      );
      expect(forked.code, forked.stderr).toBe(0);
      const events = forked.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      const id = events[0].sessionId as string;
      expect(id).not.toBe(parent);
      expect(events[1]).toMatchObject({
        type: 'session.forked',
        parent,
        at,
        recorded: 1,
        provider: 'openai',
        model: 'gpt-4o',
      });
      // THM's report is the parent's: THM did not run again.
      expect(events.some((e) => e.type === 'thm.start')).toBe(false);
      expect(events.find((e) => e.type === 'thm.report').report).toEqual(
        before.find((e) => e.type === 'thm.report')!.type === 'thm.report' &&
          (before.find((e) => e.type === 'thm.report') as { report: unknown }).report,
      );
      // The first answer came from the record, at no cost; only the second was asked for, live.
      expect(forkServer.requests).toHaveLength(1);
      expect(forkServer.requests[0]!.body.model).toBe('gpt-4o');
      const sent = JSON.stringify(forkServer.requests[0]!.body.messages);
      expect(sent).toContain("Apply the cart's percent discount.");
      expect(sent).toContain('Looking at the cart.'); // the parent's first answer is the fork's history
      const responses = events.filter((e) => e.type === 'model.response');
      expect(responses.map((r) => r.usage.inputTokens)).toEqual([0, 3000]);
      expect(events.find((e) => e.type === 'developer.message')).toMatchObject({ round: 2, via: 'fork' });
      expect(events.at(-1)).toMatchObject({
        type: 'result',
        pass: true,
        usage: { inputTokens: 3000, outputTokens: 70, modelCalls: 2 },
      });
      // The parent is as it was.
      expect(loadSession(dir, parent).events).toHaveLength(before.length);

      const listed = await runCli(['sessions'], { env: env(forkServer) });
      const rows = listed.stdout.split('\n');
      const parentRow = rows.findIndex((r) => r.startsWith(parent));
      expect(rows[parentRow + 1]).toMatch(new RegExp(`^└ ${id}\\s+passed .*\\(fork of ${parent} at event ${at}\\)$`));
      expect(new Catalog(dir).list().find((s) => s.id === id)?.parent).toEqual({ id: parent, at });
      const shown = await runCli(['show', id], { env: env(forkServer) });
      expect(shown.stdout).toContain(
        `_Forked from session ${parent} at its event ${at}: its first model answer is that session's (no cost), then openai/gpt-4o answers live._`,
      );

      const rerun = await runCli(['rerun', id], { env: env(forkServer) });
      expect(rerun.stdout).toContain('No divergence');
      expect(rerun.code).toBe(0);
      expect(forkServer.requests).toHaveLength(1); // the rerun asked no model

      // From before the tests were approved, -T chooses again (THM's report is still the parent's),
      // and a scripted model goes on.
      const script = join(scratch, 'script.json');
      writeFileSync(
        script,
        JSON.stringify({ turns: [{ calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] }] }),
      );
      const early = before.find((e) => e.type === 'thm.report')!.seq;
      const retold = await runCli(
        ['fork', parent, '--at', String(early), '-T', '1', '--provider', 'scripted', '--script', script, '--json'],
        { env: env(forkServer) },
      );
      expect(retold.code, retold.stderr).toBe(0);
      const again = retold.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(again[1]).toMatchObject({ type: 'session.forked', parent, at: early, recorded: 0, provider: 'scripted' });
      expect(again.find((e) => e.type === 'thm.approval')).toMatchObject({
        by: 'auto',
        T: 1,
        chosen: ['tests/test_cart.py::CartTest::test_total'],
      });
      expect(again.at(-1)).toMatchObject({ type: 'result', pass: true, selectedTests: { total: 1 } });

      // Bad input: an event past the agent's work, -T after the tests were approved.
      const late = await runCli(['fork', parent, '--at', String(before.at(-1)!.seq)], { env: env(forkServer) });
      expect(late.code).toBe(2);
      expect(late.stderr).toContain("comes after the agent's work ended");
      const lateT = await runCli(['fork', parent, '--at', String(at), '-T', '1'], { env: env(forkServer) });
      expect(lateT.code).toBe(2);
      expect(lateT.stderr).toContain("-T changes THM's choice of tests");
    } finally {
      repo.cleanup();
    }
  }, 240_000);
});
