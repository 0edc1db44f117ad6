import {
  closeSync,
  mkdirSync,
  mkdtempSync,
  openSync,
  readFileSync,
  rmSync,
  statSync,
  writeFileSync,
  writeSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { loadEvents } from '../../source/engine/session/event-log';
import { runCli } from '../helpers/cli';
import { copyFixture, ROOT } from '../helpers/fixtures';

/**
 * Runaway output must neither fill the disk nor make a session unloadable: one command records
 * its head and tail, a session's log stops the run at its size limit, and a log of any size loads.
 */
const scratch = mkdtempSync(join(tmpdir(), 'tenet-runaway-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';
const script = (name: string, turns: unknown[]) => {
  const file = join(scratch, `${name}.json`);
  writeFileSync(file, JSON.stringify({ turns }));
  return file;
};
const run = (repo: string, file: string, sessions: string) =>
  runCli(
    [
      'run',
      '--repo',
      repo,
      '--target',
      'shop/cart.py::Cart.total',
      '--blank',
      '-T',
      '2',
      '--provider',
      'scripted',
      '--script',
      file,
      '--json',
      '--tests',
      'tests/test_cart.py',
    ],
    { env: { TENET_SESSIONS_DIR: sessions } },
  );

describe('runaway output', () => {
  it('a command printing 50 MB records its head and tail with the count of bytes dropped, not 50 MB', async () => {
    const repo = copyFixture('shop');
    const sessions = join(scratch, 'flood');
    try {
      const file = script('flood', [
        {
          calls: [
            {
              name: 'run_debugger_cmd',
              arguments: { cmd: "head -c 50000000 /dev/zero | tr '\\0' y; echo; echo the end" },
            },
          ],
        },
        { calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] },
      ]);
      const result = await run(repo.dir, file, sessions);
      expect(result.code, result.stderr).toBe(0);
      const id = JSON.parse(result.stdout.trim().split('\n').at(-1)!).sessionId as string;
      const log = join(sessions, id, 'events.jsonl');
      expect(statSync(log).size).toBeLessThan(1_000_000);
      const output = loadEvents(log)
        .events.flatMap((e) => (e.type === 'debugger.output' ? [e.chunk] : []))
        .join('');
      expect(output).toMatch(/\[tenet: \d+ bytes of output dropped\]/);
      expect(output).toContain('the end');
    } finally {
      repo.cleanup();
    }
  }, 180_000);

  it('a session log that reaches its limit stops the run, and the result says why', async () => {
    const repo = copyFixture('shop');
    const sessions = join(scratch, 'limit');
    try {
      writeFileSync(join(repo.dir, '.tenet.json'), JSON.stringify({ maxSessionMb: 0.2 }));
      // Each command prints 30 KB: recorded live, in the tool result, in the transcript entry.
      const chatty = { calls: [{ name: 'run_debugger_cmd', arguments: { cmd: 'seq 1 6000' } }] };
      const file = script('limit', [
        ...Array.from({ length: 14 }, () => chatty),
        { calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] },
      ]);
      const result = await run(repo.dir, file, sessions);
      expect(result.code).toBe(1);
      const last = JSON.parse(result.stdout.trim().split('\n').at(-1)!);
      expect(last).toMatchObject({
        type: 'result',
        pass: false,
        stopReason: 'log-full',
        message: 'The session log reached its size limit (0.2 MB, maxSessionMb): the run was stopped.',
      });
      expect(last.usage.modelCalls).toBeLessThan(15);
      const log = join(sessions, last.sessionId, 'events.jsonl');
      expect(statSync(log).size).toBeLessThan(0.2 * 1024 * 1024 + 100_000);
      const shown = await runCli(['show', last.sessionId], { env: { TENET_SESSIONS_DIR: sessions } });
      expect(shown.stdout).toContain('The session log reached its size limit');
    } finally {
      repo.cleanup();
    }
  }, 180_000);

  it('a 600 MB log (more than a string can hold) loads and shows', async () => {
    // The demo session with 9,600 chunks of 64 KB of debugger output in the middle: what a
    // runaway command recorded before the caps. Reading it whole fails ("Cannot create a string
    // longer than ..."); read as a stream it loads with the run's head and tail.
    const dir = join(scratch, 'big', '20260101-000000-abcdef');
    mkdirSync(dir, { recursive: true });
    const demo = readFileSync(join(ROOT, 'sessions', 'demo', 'events.jsonl'), 'utf8')
      .trimEnd()
      .split('\n');
    const file = join(dir, 'events.jsonl');
    const fd = openSync(file, 'w');
    const chunk = 'y\n'.repeat(32 * 1024);
    let seq = 0;
    const line = (event: Record<string, unknown>) => `${JSON.stringify({ ...event, seq: ++seq })}\n`;
    for (const text of demo.slice(0, 40)) writeSync(fd, line(JSON.parse(text)));
    const batch = Array.from({ length: 100 }, () => ({
      v: 1,
      ts: '2026-01-01T00:00:00.000Z',
      type: 'debugger.output',
      chunk,
    }));
    for (let i = 0; i < 96; i++) writeSync(fd, batch.map(line).join(''));
    for (const text of demo.slice(40)) writeSync(fd, line(JSON.parse(text)));
    closeSync(fd);
    expect(statSync(file).size).toBeGreaterThan(600 * 1024 * 1024);

    const loaded = loadEvents(file);
    expect(loaded.events.length).toBeLessThan(demo.length + 10);
    expect(
      loaded.events.some(
        (e) => e.type === 'debugger.output' && e.chunk.includes('bytes of output dropped when loading the session'),
      ),
    ).toBe(true);
    const env = { TENET_SESSIONS_DIR: join(scratch, 'big') };
    const shown = await runCli(['show', file], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain('## Result: PASS');
    rmSync(join(scratch, 'big'), { recursive: true, force: true });
  }, 300_000);
});
