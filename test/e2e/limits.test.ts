import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { readResults } from '../../source/engine/bench/run-dir';
import { loadSession } from '../../source/engine/session/load';
import { runCli } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { copyFixture } from '../helpers/fixtures';

// Issue 14.6: a run never surprises the developer with its bill. `--max-cost USD` and
// `--max-tokens N` (also the config's `limits`, and per task in `bench run`) stop a session
// before the model call that would go past them: stop reason `cost-limit` / `token-limit`, the
// patch so far kept, exit 1.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-limits-'));
let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const WRONG = 'def total(self):\n    return self.subtotal()\n';
const args = (repo: string) => [
  'run',
  '--repo',
  repo,
  '--target',
  'shop/cart.py::Cart.total',
  '--blank',
  '-T',
  '2',
  '--provider',
  'openai',
  '--model',
  'gpt-4o-mini',
  '--json',
];

describe('spend limits', () => {
  it('--max-cost stops before the call that would go past it: stop reason cost-limit, the patch so far kept, exit 1', async () => {
    // gpt-4o-mini: $0.15 per million input tokens. The first answer costs $0.15: over $0.10.
    server = await startFakeModelServer([
      {
        calls: [{ name: 'submit_implementation', arguments: { code: WRONG } }],
        usage: { input: 1_000_000, output: 10 },
      },
      { say: 'never asked for' },
    ]);
    const repo = copyFixture('shop');
    try {
      const env = {
        TENET_SESSIONS_DIR: join(scratch, 'cost'),
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: `${server.url}/v1`,
        XDG_CONFIG_HOME: '/nonexistent',
      };
      const result = await runCli([...args(repo.dir), '--max-cost', '0.1', '--tests', 'tests/test_cart.py'], { env });
      expect(result.code, result.stderr).toBe(1);
      expect(server.requests).toHaveLength(1);
      const events = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(events[0].config.limits).toEqual({ maxCostUsd: 0.1 });
      const reached = events.find((e) => e.type === 'limit.reached');
      expect(reached).toMatchObject({ limit: 'cost', max: 0.1 });
      expect(reached.spent).toBeCloseTo(0.15 + 10 * 0.6e-6, 8);
      // Refinement would have asked the model again: the limit came first; the evaluation still ran.
      expect(events.some((e) => e.type === 'tests.run' && e.purpose === 'evaluate')).toBe(true);
      const last = events.at(-1);
      // It stopped as refinement attempt 1 was about to ask the model: counted there, not as pre-generation.
      expect(last).toMatchObject({
        type: 'result',
        pass: false,
        stopReason: 'cost-limit',
        rounds: { pregen: 1, rrwAttempts: 1, total: 1 },
      });
      expect(last.patch).toContain('+        return self.subtotal()');
    } finally {
      repo.cleanup();
    }
  }, 120_000);

  it("the config's limits.maxTokens stops at token-limit; show says so; rerun stops at the same place and agrees", async () => {
    server = await startFakeModelServer([
      {
        say: 'Looking.',
        calls: [{ name: 'search_class', arguments: { class_name: 'Cart' } }],
        usage: { input: 1000, output: 600 },
      },
      { say: 'never asked for' },
    ]);
    const repo = copyFixture('shop');
    try {
      // The first request (some 2,300 tokens) fits; the second, larger, would pass what the first
      // call left (3,500 − 1,600): it is not made (issue 46.13: its input is counted before it goes).
      writeFileSync(join(repo.dir, '.tenet.json'), JSON.stringify({ limits: { maxTokens: 3500 } }));
      const dir = join(scratch, 'tokens');
      const env = {
        TENET_SESSIONS_DIR: dir,
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: `${server.url}/v1`,
        XDG_CONFIG_HOME: '/nonexistent',
      };
      const result = await runCli([...args(repo.dir), '--tests', 'tests/test_cart.py'], { env });
      expect(result.code, result.stderr).toBe(1);
      expect(server.requests).toHaveLength(1);
      const events = result.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(events.find((e) => e.type === 'limit.reached')).toEqual({
        type: 'limit.reached',
        limit: 'tokens',
        spent: 1600,
        max: 3500,
      });
      expect(events.at(-1)).toMatchObject({ type: 'result', pass: false, stopReason: 'token-limit', patch: '' });
      const id = events[0].sessionId as string;
      const shown = await runCli(['show', id], { env });
      expect(shown.stdout).toContain("> **Stopped:** The session's token limit is reached (1,600 of 3,500 tokens)");
      const rerun = await runCli(['rerun', id], { env });
      expect(rerun.stdout).toContain('No divergence');
      expect(rerun.code).toBe(0);
      const rerunId = /rerun saved as (\S+)\)/.exec(rerun.stdout)![1]!;
      expect(loadSession(dir, rerunId).events.find((e) => e.type === 'result')).toMatchObject({
        stopReason: 'token-limit',
      });
      // A bad limit in the config is bad input.
      writeFileSync(join(repo.dir, '.tenet.json'), JSON.stringify({ limits: { maxTokens: -5 } }));
      const bad = await runCli([...args(repo.dir), '--tests', 'tests/test_cart.py'], { env });
      expect(bad.code).toBe(2);
      expect(bad.stderr).toContain('limits.maxTokens');
    } finally {
      repo.cleanup();
    }
  }, 120_000);

  it('bench run --max-tokens stops each task at its limit, and the run folder records the limit', async () => {
    const shop = copyFixture('shop');
    try {
      const tasks = join(scratch, 'tasks.jsonl');
      const made = await runCli(['bench', 'make', '--repo', shop.dir, '--out', tasks, '--count', '1']);
      expect(made.code, made.stderr).toBe(0);
      const script = join(scratch, 'look-then-submit.json');
      writeFileSync(
        script,
        JSON.stringify({
          turns: [
            { say: 'Looking first.', calls: [{ name: 'search_target_usage', arguments: { n: 3 } }] },
            { calls: [{ name: 'submit_implementation', arguments: { code: '{{full_function}}' } }] },
          ],
        }),
      );
      const out = join(scratch, 'bench');
      const run = await runCli([
        'bench',
        'run',
        tasks,
        '--out',
        out,
        '--provider',
        'scripted',
        '--script',
        script,
        '--max-tokens',
        '10',
        '--json',
      ]);
      expect(run.code, run.stderr).toBe(0);
      expect(JSON.parse(run.stdout)).toMatchObject({ label: 'tenet/scripted max=10tok', finished: 1, passed: 0 });
      expect(readResults(out).map((r) => [r.pass, r.stopReason])).toEqual([[false, 'token-limit']]);
      expect(JSON.parse(readFileSync(join(out, 'run.json'), 'utf8')).config.limits).toEqual({ maxTokens: 10 });
    } finally {
      shop.cleanup();
    }
  }, 240_000);
});
