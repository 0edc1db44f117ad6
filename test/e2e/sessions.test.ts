import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { parseEvents } from '../../source/engine/session/event-log';
import { foldEvents } from '../../source/engine/session/fold';
import { loadSession } from '../../source/engine/session/load';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { copyFixture } from '../helpers/fixtures';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-sessions-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const lineCount = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0);

describe('a session killed with SIGKILL at many points stays loadable, and resume finishes it', () => {
  const dir = join(scratch, 'killed');
  const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };
  // Kill points, as a number of events logged: from THM to the evaluation of the demo session (~220 events).
  const points = [3, 12, 30, 60, 95, 130, 170, 205];

  for (const point of points) {
    it(`killed after ${point} events`, async () => {
      const before = new Set(existsSync(dir) ? new Catalog(dir).list().map((s) => s.id) : []);
      const child = startCli(['demo'], { env });
      let id: string | undefined;
      await waitFor(() => {
        id ??= new Catalog(dir).list().find((s) => !before.has(s.id))?.id;
        return !!id && lineCount(join(dir, id, 'events.jsonl')) >= point;
      }, 60_000, `${point} events`);
      child.kill('SIGKILL');
      await finished(child);
      const session = loadSession(dir, id!);
      const state = foldEvents(session.events);
      expect(session.events.length).toBeGreaterThanOrEqual(point - 1);
      if (state.result) return; // it finished before the kill landed
      expect(new Catalog(dir).list().find((s) => s.id === id)?.status).toBe('interrupted');
      const resumed = await runCli(['resume', id!], { env });
      expect(resumed.stderr).toBe('');
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain('PASS (passed) · selected 3/3 · hidden 9/9');
      const after = foldEvents(loadSession(dir, id!).events);
      expect(after.result?.pass).toBe(true);
      expect(new Catalog(dir).list().find((s) => s.id === id)?.status).toBe('passed');
    }, 120_000);
  }
});

describe('saved sessions', () => {
  const dir = join(scratch, 'saved');
  let repo: ReturnType<typeof copyFixture>;
  const script = join(scratch, 'script.json');
  const env = { TENET_SESSIONS_DIR: dir, MY_SERVICE_TOKEN: 'planted-secret-98765', XDG_CONFIG_HOME: '/nonexistent' };
  let id: string;

  beforeAll(async () => {
    repo = copyFixture('shop');
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          { say: 'Check the environment.', calls: [{ name: 'run_debugger_cmd', arguments: { cmd: 'echo token=$MY_SERVICE_TOKEN' } }] },
          { calls: [{ name: 'submit_implementation', arguments: { code: 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n' } }] },
        ],
      }),
    );
    const run = await runCli(['run', '--repo', repo.dir, '--target', 'shop/cart.py::Cart.total', '--blank', '-T', '2', '--provider', 'scripted', '--script', script, '--tests', 'tests/test_cart.py'], { env });
    expect(run.code).toBe(0);
    id = new Catalog(dir).list()[0]!.id;
  }, 120_000);
  afterAll(() => repo.cleanup());

  it('never stores a secret from the environment, even when a tool prints it', () => {
    const log = readFileSync(join(dir, id, 'events.jsonl'), 'utf8');
    expect(log).not.toContain('planted-secret-98765');
    expect(log).toContain('token=[redacted:MY_SERVICE_TOKEN]');
  });

  it('stores what rebuilds the session: task, THM, decisions, conversation, debugger, submissions, tests, result', () => {
    const state = foldEvents(loadSession(dir, id).events);
    expect(state.start).toMatchObject({ target: 'shop/cart.py::Cart.total', mode: 'blank', provider: 'scripted' });
    expect(state.thm?.selected).toHaveLength(2);
    expect(state.approval).toMatchObject({ by: 'auto', chosen: state.thm?.selected });
    expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'assistant', 'tool']);
    expect(state.lastSubmission).toContain('amount = self.subtotal()');
    expect(state.result).toMatchObject({ pass: true, selectedTests: { passed: 2, total: 2 } });
    const events = loadSession(dir, id).events;
    expect(events.find((e) => e.type === 'debugger.entry')).toMatchObject({ entry: { who: 'agent', input: 'echo token=$MY_SERVICE_TOKEN' } });
    expect(events.every((e, i) => e.seq === i + 1 && e.v === 1 && typeof e.ts === 'string')).toBe(true);
  });

  it('lists, shows, exports and replays', async () => {
    const listed = await runCli(['sessions', '--status', 'passed'], { env });
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain('scripted/scripted');
    expect((await runCli(['sessions', '--status', 'failed'], { env })).stdout).not.toContain(id);
    const shown = await runCli(['show', id.slice(0, 18)], { env });
    expect(shown.stdout).toContain(`# tenet session ${id}`);
    expect(shown.stdout).toContain('## Result: PASS (passed)');
    const md = await runCli(['export', id, '--format', 'md'], { env });
    expect(md.stdout).toBe(shown.stdout);
    const exported = join(scratch, 'export.json');
    await runCli(['export', id, '--format', 'json', '--out', exported], { env });
    const replayed = await runCli(['replay', exported, '--json'], { env });
    const lines = replayed.stdout.trim().split('\n').map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ type: 'result', pass: true });
    expect(lines).toHaveLength(loadSession(dir, id).events.length);
  });

  it('rerun with the recorded answers reports no divergence, and reports one when the repository changed', async () => {
    const same = await runCli(['rerun', id], { env });
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(/^No divergence: THM's selection, 2 tool outputs, 2 test runs and the result match session/);
    // A fixture change: subtotal now counts every line once, whatever its quantity. test_subtotal
    // fails on the original code too now, so THM's failing set is not the recorded one.
    const cart = join(repo.dir, 'shop', 'cart.py');
    writeFileSync(cart, readFileSync(cart, 'utf8').replace('sum(price * quantity for _, price, quantity in self.lines)', 'sum(price for _, price, quantity in self.lines)'));
    const changed = await runCli(['rerun', id, '--json'], { env });
    expect(changed.code).toBe(1);
    const { divergences } = JSON.parse(changed.stdout);
    expect(divergences.map((d: { step: string }) => d.step)).toEqual(expect.arrayContaining(['THM failing tests', 'test run 1 (validate)']));
  }, 120_000);

  it('repairs the catalog from the logs', async () => {
    writeFileSync(join(dir, 'index.json'), JSON.stringify({ sessions: [] }));
    expect(new Catalog(dir).list().map((s) => s.id)).toContain(id);
    rmSync(join(dir, 'index.json'));
    expect(new Catalog(dir).list().find((s) => s.id === id)?.status).toBe('passed');
  });

  it('a torn last line is dropped with a warning; a corrupt line elsewhere is an error naming it', async () => {
    const text = readFileSync(join(dir, id, 'events.jsonl'), 'utf8');
    const torn = parseEvents(`${text}{"v":1,"seq":9999,"type":"mod`, 'events.jsonl');
    expect(torn.events).toHaveLength(text.split('\n').length - 1);
    expect(torn.warnings[0]).toMatch(/dropped the last line/);
    const lines = text.split('\n');
    lines[4] = 'garbage';
    writeFileSync(join(dir, id, 'events.jsonl'), lines.join('\n'));
    const shown = await runCli(['show', id], { env });
    expect(shown.code).toBe(2);
    expect(shown.stderr).toContain(`${join(dir, id, 'events.jsonl')}:5 is not a JSON event`);
  });
});
