import { cpSync, existsSync, mkdtempSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { Catalog } from '../../source/engine/session/catalog';
import { parseEvents } from '../../source/engine/session/event-log';
import { foldEvents } from '../../source/engine/session/fold';
import { loadSession } from '../../source/engine/session/load';
import { finished, runCli, startCli, waitFor } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer, type FakeTurn } from '../helpers/fake-model-server';
import { copyFixture, ROOT } from '../helpers/fixtures';

const scratch = mkdtempSync(join(tmpdir(), 'tenet-sessions-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const lineCount = (file: string) => (existsSync(file) ? readFileSync(file, 'utf8').split('\n').length - 1 : 0);

/**
 * Events a log holds that come the same in every run of the demo: all but the debugger's output,
 * whose chunks depend on how the shell's output arrives.
 */
function steadyEvents(text: string): number {
  return text.split('\n').filter((line) => {
    try {
      return (JSON.parse(line) as { type: string }).type !== 'debugger.output';
    } catch {
      return false; // the line being written
    }
  }).length;
}
const steadyIn = (file: string) => (existsSync(file) ? steadyEvents(readFileSync(file, 'utf8')) : 0);

/** Where the demo's evaluation starts, in steady events: after it come the evaluation's test run and the result, which a kill must beat. */
const DEMO_LINES = readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8').split('\n');
const EVALUATION = steadyEvents(
  DEMO_LINES.slice(0, DEMO_LINES.findIndex((line) => line.includes('"phase":"evaluate"')) + 1).join('\n'),
);

/** A small deterministic generator (mulberry32): the same "random" kill points on every run. */
function seeded(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

describe('a session killed with SIGKILL at many points stays loadable, and resume finishes it', () => {
  const dir = join(scratch, 'killed');
  const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };
  // Kill points, as a number of steady events logged, from THM to the start of the evaluation of
  // the demo session (its evaluation's pytest run leaves time for the kill to land): fixed ones,
  // spread over that range, and a few more drawn from a seeded generator.
  const random = seeded(20260501);
  const spread = [0, 0.1, 0.2, 0.35, 0.5, 0.65, 0.8, 1].map(
    (at) => [3 + Math.round(at * (EVALUATION - 3)), ''] as [number, string],
  );
  const points = [
    ...spread,
    ...Array.from(
      { length: 4 },
      () => [3 + Math.floor(random() * (EVALUATION - 2)), ' (seeded draw)'] as [number, string],
    ),
  ];

  /** Starts the demo and kills it once its log has `point` steady events; the session's id, and whether the run had ended first. */
  async function killAt(point: number): Promise<{ id: string; endedFirst: boolean }> {
    const before = new Set(existsSync(dir) ? new Catalog(dir).list().map((s) => s.id) : []);
    const child = startCli(['demo'], { env });
    const ended = finished(child);
    let exited = false;
    void ended.then(() => (exited = true));
    let id: string | undefined;
    await waitFor(
      () => {
        id ??= new Catalog(dir).list().find((s) => !before.has(s.id))?.id;
        return exited || (!!id && steadyIn(join(dir, id, 'events.jsonl')) >= point);
      },
      60_000,
      `${point} events`,
    );
    const endedFirst = exited;
    child.kill('SIGKILL');
    await ended;
    return { id: id!, endedFirst };
  }

  it('kills at points the demo reaches, up to its evaluation', () => {
    expect(EVALUATION).toBeGreaterThan(50);
    expect(points.every(([point]) => point >= 3 && point <= EVALUATION)).toBe(true);
  });

  for (const [point, drawn] of points) {
    it(`killed after ${point} events${drawn}`, async () => {
      const { id, endedFirst } = await killAt(point);
      // The kill landed while the run went on: a point it never reached would test nothing.
      expect(endedFirst).toBe(false);
      const session = loadSession(dir, id);
      const state = foldEvents(session.events);
      expect(session.events.length).toBeGreaterThanOrEqual(point - 1);
      expect(state.result).toBeUndefined();
      expect(new Catalog(dir).list().find((s) => s.id === id)?.status).toBe('interrupted');
      const resumed = await runCli(['resume', id], { env });
      expect(resumed.stderr).toBe('');
      expect(resumed.code).toBe(0);
      expect(resumed.stdout).toContain('PASS · selected 3/3 · hidden 9/9');
      const after = foldEvents(loadSession(dir, id).events);
      expect(after.result?.pass).toBe(true);
      expect(new Catalog(dir).list().find((s) => s.id === id)?.status).toBe('passed');
    }, 120_000);
  }

  it('a torn write (the log cut in the middle of a line) is dropped on resume, and the session stays loadable', async () => {
    const { id } = await killAt(60);
    // As if the kill had landed in the middle of writing line 60: keep 59 lines and half of the next.
    const file = join(dir, id, 'events.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    writeFileSync(file, `${lines.slice(0, 59).join('\n')}\n${lines[59]!.slice(0, Math.floor(lines[59]!.length / 2))}`);
    const resumed = await runCli(['resume', id], { env });
    expect(resumed.stderr).toMatch(/warning: .*events\.jsonl: dropped the last line/);
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/^PASS · selected/m);
    const shown = await runCli(['show', id], { env });
    expect(shown.stderr).toBe('');
    expect(shown.code).toBe(0);
    expect(shown.stdout).toContain('## Result: PASS\n');
    const session = loadSession(dir, id);
    expect(session.warnings).toEqual([]);
    expect(session.events.every((e, i) => e.seq === i + 1)).toBe(true);
    expect(new Catalog(dir).list().find((s) => s.id === id)).toMatchObject({
      status: 'passed',
      events: session.events.length,
    });
  }, 120_000);
});

describe('one writer per session', () => {
  const dir = join(scratch, 'locked');
  const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };

  it('resume and rerun of a session another live tenet writes exit 2 naming its pid; once it is gone, resume takes the stale lock over', async () => {
    const child = startCli(['demo'], { env });
    const ended = finished(child);
    let id: string | undefined;
    await waitFor(
      () => {
        id ??= existsSync(dir) ? new Catalog(dir).list()[0]?.id : undefined;
        return !!id && lineCount(join(dir, id, 'events.jsonl')) >= 10;
      },
      60_000,
      'the demo to log 10 events',
    );
    // Frozen, not dead: it still holds the session.
    child.kill('SIGSTOP');
    try {
      const before = readFileSync(join(dir, id!, 'events.jsonl'), 'utf8');
      for (const command of ['resume', 'rerun']) {
        const refused = await runCli([command, id!], { env });
        expect(refused.code).toBe(2);
        expect(refused.stderr).toContain(`being written by another tenet (pid ${child.pid})`);
        expect(refused.stderr).toContain(`kill ${child.pid}`);
      }
      // Nothing was appended by the refused commands.
      expect(readFileSync(join(dir, id!, 'events.jsonl'), 'utf8')).toBe(before);
    } finally {
      child.kill('SIGKILL');
      child.kill('SIGCONT');
      await ended;
    }
    expect(existsSync(join(dir, id!, 'lock'))).toBe(true);
    const resumed = await runCli(['resume', id!], { env });
    expect(resumed.stderr).toBe('');
    expect(resumed.code).toBe(0);
    expect(existsSync(join(dir, id!, 'lock'))).toBe(false);
    const seqs = loadSession(dir, id!).events.map((e) => e.seq);
    expect(new Set(seqs).size).toBe(seqs.length);
  }, 120_000);
});

describe('Ctrl+C in a headless run', () => {
  it('exits 130 and says how to resume the session', async () => {
    const dir = join(scratch, 'interrupted');
    const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };
    const child = startCli(['demo'], { env });
    const ended = finished(child);
    let id: string | undefined;
    await waitFor(
      () => {
        id ??= existsSync(dir) ? new Catalog(dir).list()[0]?.id : undefined;
        return !!id && lineCount(join(dir, id, 'events.jsonl')) >= 5;
      },
      60_000,
      'the demo to log 5 events',
    );
    child.kill('SIGINT');
    const result = await ended;
    expect(result.code).toBe(130);
    expect(result.stderr).toContain(`Session ${id} is saved; go on with it: tenet resume ${id}`);
  }, 60_000);

  for (const [signal, code] of [
    ['SIGTERM', 143],
    ['SIGHUP', 129],
  ] as const) {
    it(`${signal} ends a --json run like Ctrl+C: a last result line (interrupted), the session resumable, the workspace gone`, async () => {
      const dir = join(scratch, `stopped-${signal}`);
      const tmp = mkdtempSync(join(tmpdir(), 'tenet-stop-tmp-'));
      const env = {
        TENET_SESSIONS_DIR: dir,
        TMPDIR: tmp,
        OPENAI_API_KEY: '',
        ANTHROPIC_API_KEY: '',
        XDG_CONFIG_HOME: '/nonexistent',
      };
      const child = startCli(['demo', '--json'], { env });
      const ended = finished(child);
      await waitFor(
        () =>
          child.output.stdout.includes('"type":"tests.hidden"') || child.output.stdout.includes('"type":"agent.phase"'),
        60_000,
        'the agent to start',
      );
      child.kill(signal);
      const result = await ended;
      expect(result.code).toBe(code);
      const last = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
      expect(last).toMatchObject({ type: 'result', pass: false, stopReason: 'interrupted' });
      expect(last.message).toContain(`tenet resume ${last.sessionId}`);
      expect(new Catalog(dir).list().find((s) => s.id === last.sessionId)?.status).toBe('interrupted');
      expect(readdirSync(tmp).filter((name) => name.startsWith('tenet-'))).toEqual([]);
      const resumed = await runCli(['resume', last.sessionId], { env });
      expect(resumed.code, resumed.stderr).toBe(0);
      rmSync(tmp, { recursive: true, force: true });
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

describe('resume with another model, on a repository that moved', () => {
  const dir = join(scratch, 'overrides');
  const key = 'sk-planted-openai-key-424242';
  const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: key, ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };
  const script = join(ROOT, 'examples', 'invoicing.demo.json');
  const turns = (JSON.parse(readFileSync(script, 'utf8')) as { turns: FakeTurn[] }).turns;
  let server: FakeModelServer;
  afterAll(() => server?.close());

  /** Keeps the log's lines before the first event of `type` (`keep`: and that one too). */
  function cutAt(file: string, type: string, keep = false): void {
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = lines.findIndex((l) => l.includes(`"type":"${type}"`));
    expect(at).toBeGreaterThan(0);
    writeFileSync(file, `${lines.slice(0, at + (keep ? 1 : 0)).join('\n')}\n`);
  }

  it('records the new model settings; the catalog and a second resume use them', async () => {
    const first = join(scratch, 'invoicing');
    cpSync(join(ROOT, 'examples', 'invoicing'), first, { recursive: true });
    const run = await runCli(
      ['run', '--repo', first, '--target', 'invoicing/tax.py::tax_for', '--provider', 'scripted', '--script', script],
      { env },
    );
    expect(run.code).toBe(0);
    const id = new Catalog(dir).list()[0]!.id;
    const file = join(dir, id, 'events.jsonl');
    // Interrupted before the first model call; then the checkout moved.
    cutAt(file, 'model.request');
    const moved = join(scratch, 'invoicing-moved');
    renameSync(first, moved);
    const missing = await runCli(['resume', id], { env });
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('pass --repo');

    server = await startFakeModelServer([...turns, ...turns]);
    const baseUrl = `${server.url}/v1`;
    const resumed = await runCli(
      ['resume', id, '--repo', moved, '--provider', 'openai', '--model', 'gpt-4o-mini', '--base-url', baseUrl],
      { env },
    );
    expect(resumed.code).toBe(0);
    expect(resumed.stdout).toMatch(/^PASS · selected/m);
    expect(server.remaining()).toBe(turns.length);
    const settings = { provider: 'openai', model: 'gpt-4o-mini', baseUrl };
    const resumedEvents = () => loadSession(dir, id).events.filter((e) => e.type === 'session.resumed');
    expect(resumedEvents()).toEqual([expect.objectContaining(settings)]);
    expect(new Catalog(dir).list().find((s) => s.id === id)).toMatchObject({
      provider: 'openai',
      model: 'gpt-4o-mini',
      status: 'passed',
    });
    expect(readFileSync(file, 'utf8')).not.toContain(key);

    // Interrupted again right after that resume: a plain `resume` goes on with the latest settings.
    cutAt(file, 'session.resumed', true);
    const again = await runCli(['resume', id, '--repo', moved], { env });
    expect(again.code).toBe(0);
    expect(server.remaining()).toBe(0);
    expect(server.requests.map((r) => r.body.model)).toEqual(Array(2 * turns.length).fill('gpt-4o-mini'));
    expect(resumedEvents()).toEqual([expect.objectContaining(settings), expect.objectContaining(settings)]);
    expect((await runCli(['show', id], { env })).stdout).toContain('with openai/gpt-4o-mini._');
  }, 120_000);
});

describe('resume continues where the work was', () => {
  const dir = join(scratch, 'continue');
  const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };
  const script = join(ROOT, 'examples', 'invoicing.demo.json');

  /** Runs the demo script on a copy of the example, then cuts its log after the line `cut` picks: the session's id. */
  async function cutSession(name: string, cut: (events: EngineEvent[]) => number): Promise<string> {
    const repo = join(scratch, name);
    cpSync(join(ROOT, 'examples', 'invoicing'), repo, { recursive: true });
    const run = await runCli(
      ['run', '--repo', repo, '--target', 'invoicing/tax.py::tax_for', '--provider', 'scripted', '--script', script],
      { env },
    );
    expect(run.code, run.stderr).toBe(0);
    const id = new Catalog(dir).list().find((s) => s.repo === repo)!.id;
    const file = join(dir, id, 'events.jsonl');
    const lines = readFileSync(file, 'utf8').split('\n');
    const at = cut(loadSession(dir, id).events as EngineEvent[]);
    expect(at).toBeGreaterThan(0);
    writeFileSync(file, `${lines.slice(0, at + 1).join('\n')}\n`);
    return id;
  }

  /** The steps a resume took, from its --json events. */
  async function resumeSteps(id: string): Promise<{ steps: string[]; events: EngineEvent[] }> {
    const resumed = await runCli(['resume', id, '--json'], { env });
    expect(resumed.code, resumed.stderr).toBe(0);
    const events = resumed.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as EngineEvent);
    const steps = events.flatMap((e) => {
      if (e.type === 'agent.phase')
        return [`${e.phase}${e.attempt ? ` ${e.attempt}` : ''}${e.stage ? ` ${e.stage}` : ''}`];
      if (e.type === 'tests.run') return [`${e.purpose} run ${e.passed}/${e.total}`];
      if (e.type === 'model.request' || e.type === 'submission') return [e.type];
      return [];
    });
    return { steps, events };
  }

  it('killed after a submission and before its validation: resume validates the recorded submission and goes on into RRW', async () => {
    // As if killed right after the first submission was recorded (the demo's has a bug).
    const id = await cutSession('invoicing-submitted', (events) => events.findIndex((e) => e.type === 'submission'));
    expect(foldEvents(loadSession(dir, id).events).submissions).toHaveLength(1);
    const { steps, events } = await resumeSteps(id);
    // The recorded submission is validated before any model call, then the workflow goes on.
    expect(steps.slice(0, 4)).toEqual([
      'validate',
      'validate run 2/3',
      'rrw 1 failure-identification',
      'model.request',
    ]);
    expect(steps).not.toContain('pregen');
    expect(events.at(-1)).toMatchObject({ type: 'result', pass: true, rounds: { pregen: 3, rrwAttempts: 1 } });
  }, 120_000);

  it('killed after the answer that ends failure identification: resume goes on with context review', async () => {
    const id = await cutSession('invoicing-answered', (events) => {
      const stage = events.findIndex((e) => e.type === 'agent.phase' && e.stage === 'failure-identification');
      return events.findIndex((e, i) => i > stage && e.type === 'model.response' && !e.toolCalls.length);
    });
    const { steps, events } = await resumeSteps(id);
    expect(steps.slice(0, 3)).toEqual(['rrw 1 failure-identification', 'rrw 1 context-review', 'model.request']);
    expect(steps.filter((s) => s === 'submission')).toHaveLength(1); // the fix, in code refinement
    expect(events.at(-1)).toMatchObject({ type: 'result', pass: true });
  }, 120_000);
});

describe('rerun of a session whose patch was applied to the checkout', () => {
  it('names what makes the rest differ first: the target file changed since, and the run that found nothing to generate against', async () => {
    const dir = join(scratch, 'applied');
    const repo = join(scratch, 'applied-repo');
    cpSync(join(ROOT, 'examples', 'invoicing'), repo, { recursive: true });
    const env = { TENET_SESSIONS_DIR: dir, OPENAI_API_KEY: '', ANTHROPIC_API_KEY: '', XDG_CONFIG_HOME: '/nonexistent' };
    const script = join(ROOT, 'examples', 'invoicing.demo.json');
    const ran = await runCli(
      [
        'run',
        '--repo',
        repo,
        '--target',
        'invoicing/tax.py::tax_for',
        '--provider',
        'scripted',
        '--script',
        script,
        '--apply',
        '--headless',
      ],
      { env },
    );
    expect(ran.code, ran.stderr).toBe(0);
    const id = new Catalog(dir).list()[0]!.id;
    const rerun = await runCli(['rerun', id], { env });
    expect(rerun.code).toBe(1);
    const steps = [...rerun.stdout.matchAll(/^- (.+)$/gm)].map((match) => match[1]);
    expect(steps.slice(0, 2)).toEqual(['target file', 'run']);
    expect(rerun.stdout).toContain("invoicing/tax.py has changed since (the session's own patch, applied, changes it)");
    expect(rerun.stdout).toContain('stopped: No test fails against invoicing/tax.py::tax_for as it is');
  }, 120_000);
});
