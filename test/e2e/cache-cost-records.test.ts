import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { readResults } from '../../source/engine/bench/run-dir';
import { runCli } from '../helpers/cli';
import { PRICES } from '../helpers/published-prices';
import { closeServer, envFor, type Json, repo, run, scratch, sessionsDir, start, sum } from '../helpers/cache-cost';

// The cache's figures in what records a run: a session of an older tenet, bench results and reports.
describe('a session recorded before tenet counted the cache', () => {
  it('still loads, shows, replays and reruns, and claims nothing about the cache', async () => {
    const { result, env } = await run('openai', true);
    await closeServer();
    // Strip what this version adds, as an older tenet wrote the log.
    const file = join(sessionsDir, result.sessionId, 'events.jsonl');
    const old = readFileSync(file, 'utf8')
      .trim()
      .split('\n')
      .map((line) => {
        const event = JSON.parse(line) as Json;
        delete event.cacheSavedUsd;
        if (event.usage) {
          delete event.usage.cacheReadTokens;
          delete event.usage.cacheWriteTokens;
        }
        return JSON.stringify(event);
      });
    writeFileSync(file, `${old.join('\n')}\n`);
    const shown = await runCli(['show', result.sessionId], { env });
    expect(shown.code, shown.stderr).toBe(0);
    expect(shown.stdout).toContain(`- ${result.usage.inputTokens.toLocaleString('en')} tokens in / `);
    expect(shown.stdout).not.toContain('cache');
    const replayed = await runCli(['replay', result.sessionId, '--json'], { env });
    expect(replayed.code, replayed.stderr).toBe(0);
    expect(JSON.parse(replayed.stdout.trim().split('\n').at(-1)!)).toMatchObject({
      type: 'result',
      usage: { inputTokens: result.usage.inputTokens },
    });
    const rerun = await runCli(['rerun', result.sessionId], { env });
    expect(rerun.code, rerun.stdout + rerun.stderr).toBe(0);
    const listed = await runCli(['sessions', '--json'], { env });
    expect(listed.code).toBe(0);
  }, 120_000);
});

describe('bench run and bench report against the fake OpenAI server', () => {
  it("each result carries its cache figures, and the report's cached share and saving are their sums", async () => {
    const tasks = join(scratch, 'tasks.jsonl');
    const made = await runCli(['bench', 'make', '--repo', repo.dir, '--out', tasks, '--count', '3'], {
      env: { TENET_SESSIONS_DIR: sessionsDir },
    });
    expect(made.code, made.stderr).toBe(0);
    // Two model calls a task, one after the other: a file read, then no code (the task fails; its cost counts all the same).
    const server = await start(
      Array.from({ length: 3 }, () => [
        { calls: [{ name: 'read_file', arguments: { file_name: 'shop/cart.py' } }] },
        { say: 'Not sure yet.' },
      ]).flat(),
    );
    const out = join(scratch, 'bench');
    const ran = await runCli(
      [
        'bench',
        'run',
        tasks,
        '--out',
        out,
        '--provider',
        'openai',
        '--model',
        'gpt-4.1-mini',
        '--pregen-rounds',
        '2',
        '--rrw-attempts',
        '0',
        '--json',
      ],
      { env: envFor(server) },
    );
    expect(ran.code, ran.stderr).toBe(0);
    const served = server.requests.map((r) => r.usage!);
    expect(served).toHaveLength(6);
    const results = readResults(out);
    expect(results).toHaveLength(3);
    // The results add up to what the server reported, request by request.
    const price = PRICES.openai;
    expect(sum(results.map((r) => r.usage.inputTokens))).toBe(sum(served.map((u) => u.input)));
    expect(sum(results.map((r) => r.usage.cacheReadTokens!))).toBe(sum(served.map((u) => u.cacheRead)));
    expect(sum(results.map((r) => r.costUsd))).toBeCloseTo(
      sum(
        served.map(
          (u) => ((u.input - u.cacheRead) * price.input + u.cacheRead * price.read + u.output * price.output) / 1e6,
        ),
      ),
      12,
    );
    expect(sum(results.map((r) => r.cacheSavedUsd!))).toBeCloseTo(
      sum(served.map((u) => (u.cacheRead * (price.input - price.read)) / 1e6)),
      12,
    );
    // Later tasks read the tool definitions and system prompt the first task's requests left in the cache.
    expect(results.every((r) => r.usage.cacheReadTokens! > 0)).toBe(true);

    const json = await runCli(['bench', 'report', out, '--format', 'json']);
    expect(json.code).toBe(0);
    const overall = (JSON.parse(json.stdout) as { configurations: { overall: Record<string, number> }[] })
      .configurations[0]!.overall;
    const share = sum(served.map((u) => u.cacheRead)) / sum(served.map((u) => u.input));
    expect(overall.cachedShare).toBeCloseTo(share, 12);
    expect(overall.avgCacheSavedUsd).toBeCloseTo(sum(results.map((r) => r.cacheSavedUsd!)) / 3, 12);
    const md = await runCli(['bench', 'report', out]);
    expect(md.stdout).toContain('| Cached input | Avg cost (USD) | Avg saved by caching (USD) |');
    expect(md.stdout).toContain(
      `| ${(share * 100).toFixed(2)}% | ${overall.avgCostUsd!.toFixed(4)} | ${overall.avgCacheSavedUsd!.toFixed(4)} |`,
    );
  }, 240_000);
});
