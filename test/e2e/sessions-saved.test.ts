import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Catalog } from '../../source/engine/session/catalog';
import { parseEvents } from '../../source/engine/session/event-log';
import { foldEvents } from '../../source/engine/session/fold';
import { loadSession } from '../../source/engine/session/load';
import { runCli } from '../helpers/cli';
import { copyFixture } from '../helpers/fixtures';

// What a saved session holds, and what the commands that read it do with it.
const scratch = mkdtempSync(join(tmpdir(), 'tenet-sessions-saved-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

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
          {
            say: 'Check the environment.',
            calls: [
              { name: 'run_debugger_cmd', arguments: { cmd: 'echo token=$MY_SERVICE_TOKEN' } },
              // The secret in two writes ("planted-s", then "ecret-98765"): two output chunks.
              {
                name: 'run_debugger_cmd',
                arguments: { cmd: 'printf %s "${MY_SERVICE_TOKEN:0:9}"; sleep 0.3; echo "${MY_SERVICE_TOKEN:9}"' },
              },
            ],
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
        ],
      }),
    );
    // The sandbox starts without secrets; --pass-env lets this one through, so the tools print it.
    const run = await runCli(
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
        'scripted',
        '--script',
        script,
        '--pass-env',
        'MY_SERVICE_TOKEN',
        '--tests',
        'tests/test_cart.py',
      ],
      { env },
    );
    expect(run.code).toBe(0);
    id = new Catalog(dir).list()[0]!.id;
  }, 120_000);
  afterAll(() => repo.cleanup());

  it('never stores a secret from the environment, even when a tool prints it', () => {
    const log = readFileSync(join(dir, id, 'events.jsonl'), 'utf8');
    expect(log).not.toContain('planted-secret-98765');
    expect(log).toContain('token=[redacted:MY_SERVICE_TOKEN]');
  });

  it('never stores a secret printed in pieces, in any piece', () => {
    const log = readFileSync(join(dir, id, 'events.jsonl'), 'utf8');
    const chunks = loadSession(dir, id).events.filter((e) => e.type === 'debugger.output');
    expect(chunks.length).toBeGreaterThan(0); // the live output is stored, joined into lines
    expect(log).not.toContain('planted-s');
    expect(log).not.toContain('ecret-98765');
  });

  it('stores what rebuilds the session: task, THM, decisions, conversation, debugger, submissions, tests, result', () => {
    const state = foldEvents(loadSession(dir, id).events);
    expect(state.start).toMatchObject({ target: 'shop/cart.py::Cart.total', mode: 'blank', provider: 'scripted' });
    expect(state.thm?.selected).toHaveLength(2);
    expect(state.approval).toMatchObject({ by: 'auto', chosen: state.thm?.selected });
    expect(state.messages.map((m) => m.role)).toEqual(['user', 'assistant', 'tool', 'tool', 'assistant', 'tool']);
    expect(state.submissions.at(-1)).toContain('amount = self.subtotal()');
    expect(state.result).toMatchObject({ pass: true, selectedTests: { passed: 2, total: 2 } });
    const events = loadSession(dir, id).events;
    expect(events.find((e) => e.type === 'debugger.entry')).toMatchObject({
      entry: { who: 'agent', input: 'echo token=$MY_SERVICE_TOKEN' },
    });
    expect(events.every((e, i) => e.seq === i + 1 && e.v === 1 && typeof e.ts === 'string')).toBe(true);
  });

  it('lists, shows, exports and replays', async () => {
    const listed = await runCli(['sessions', '--status', 'passed'], { env });
    expect(listed.stdout).toContain(id);
    expect(listed.stdout).toContain('scripted/scripted');
    expect((await runCli(['sessions', '--status', 'failed'], { env })).stdout).not.toContain(id);
    const shown = await runCli(['show', id.slice(0, 18)], { env });
    expect(shown.stdout).toContain(`# tenet session ${id}`);
    expect(shown.stdout).toContain('## Result: PASS\n');
    const md = await runCli(['export', id, '--format', 'md'], { env });
    expect(md.stdout).toBe(shown.stdout);
    const exported = join(scratch, 'export.json');
    await runCli(['export', id, '--format', 'json', '--out', exported], { env });
    const replayed = await runCli(['replay', exported, '--json'], { env });
    const lines = replayed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.at(-1)).toMatchObject({ type: 'result', pass: true });
    expect(lines).toHaveLength(loadSession(dir, id).events.length);
  });

  it('rerun of an export from another machine: a missing repository says to pass --repo; --repo and --python run it', async () => {
    const exported = join(scratch, 'export.json');
    const doc = JSON.parse(readFileSync(exported, 'utf8'));
    const start = doc.events.find((e: { type: string }) => e.type === 'session.start');
    const python = start.config.python as string;
    start.repo = join(scratch, 'elsewhere', 'shop');
    start.config.python = join(scratch, 'elsewhere', 'venv', 'bin', 'python');
    const moved = join(scratch, 'moved.json');
    writeFileSync(moved, JSON.stringify(doc));
    const missing = await runCli(['rerun', moved], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`ran on the repository ${start.repo}, which does not exist here`);
    expect(missing.stderr).toContain('pass --repo');
    const here = copyFixture('shop');
    try {
      const given = await runCli(['rerun', moved, '--repo', here.dir, '--python', python], { env });
      expect(given.stderr).toBe('');
      expect(given.code).toBe(0);
      expect(given.stdout).toMatch(/^No divergence/);
      // Without --python the gone interpreter is chosen again, as for a new run, and said so.
      const chosen = await runCli(['rerun', moved, '--repo', here.dir], { env });
      expect(chosen.stderr).toContain(`the recorded Python ${start.config.python} does not exist here`);
      expect(chosen.code).toBe(0);
      expect((await runCli(['rerun', moved, '--repo', join(scratch, 'nowhere')], { env })).code).toBe(2);
    } finally {
      here.cleanup();
    }
  }, 120_000);

  it('rerun with the recorded answers reports no divergence, and reports one when the repository changed', async () => {
    const same = await runCli(['rerun', id], { env });
    expect(same.code).toBe(0);
    expect(same.stdout).toMatch(
      /^No divergence: THM's selection, 3 tool outputs, 2 test runs and the result match session/,
    );
    // A fixture change: subtotal now counts every line once, whatever its quantity. test_subtotal
    // fails on the original code too now, so THM's failing set is not the recorded one.
    const cart = join(repo.dir, 'shop', 'cart.py');
    writeFileSync(
      cart,
      readFileSync(cart, 'utf8').replace(
        'sum(price * quantity for _, price, quantity in self.lines)',
        'sum(price for _, price, quantity in self.lines)',
      ),
    );
    const changed = await runCli(['rerun', id, '--json'], { env });
    expect(changed.code).toBe(1);
    const { divergences } = JSON.parse(changed.stdout);
    expect(divergences.map((d: { step: string }) => d.step)).toEqual(
      expect.arrayContaining(['THM failing tests', 'test run 1 (validate)']),
    );
  }, 120_000);

  it('repairs the catalog from the logs', async () => {
    writeFileSync(join(dir, 'index.json'), JSON.stringify({ sessions: [] }));
    expect(new Catalog(dir).list().map((s) => s.id)).toContain(id);
    rmSync(join(dir, 'index.json'));
    expect(new Catalog(dir).list().find((s) => s.id === id)?.status).toBe('passed');
  });

  it('a hand-edited line of the wrong shape is an error naming it, and the list shows the session as damaged', async () => {
    const file = join(dir, id, 'events.jsonl');
    const text = readFileSync(file, 'utf8');
    const lines = text.split('\n');
    const at = lines.findIndex((l) => l.includes('"type":"model.response"'));
    const event = JSON.parse(lines[at]!);
    delete event.usage;
    lines[at] = JSON.stringify(event);
    writeFileSync(file, lines.join('\n'));
    const error = `${file}:${at + 1} is not a valid model.response event (usage: `;
    for (const command of [
      ['show', id],
      ['resume', id],
      ['rerun', id],
    ]) {
      const result = await runCli(command, { env });
      expect(result.code, command[0]).toBe(2);
      expect(result.stderr).toContain(error);
      expect(result.stderr).not.toContain('TypeError');
    }
    const listed = await runCli(['sessions'], { env });
    expect(listed.code).toBe(0);
    const row = listed.stdout.split('\n').find((l) => l.startsWith(id));
    expect(row).toContain(' damaged ');
    expect(row).toContain(error);
    expect(listed.stdout.trim().split('\n').length).toBeGreaterThan(2); // the other sessions are still listed
    writeFileSync(file, text);
    expect((await runCli(['sessions', '--status', 'passed'], { env })).stdout).toContain(id);
  }, 120_000);

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
