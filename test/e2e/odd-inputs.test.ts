import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { finished, runCli, startCli, type CliResult } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { copyFixture } from '../helpers/fixtures';

/**
 * Issue 43 item 4: two odd inputs that broke a run. An 18 MB generated module of 3,000,000 lines
 * aborted the index (tree-sitter's wasm ran out of memory, and the stack trace ended the run); a
 * sessions folder that cannot be made (`/proc/x`) had tenet retry mkdir forever, saying nothing.
 */
const RIGHT =
  'def apply_discount(price, percent):\n    if percent < 0 or percent > 100:\n        raise ValueError("percent must be within 0..100")\n    return round(price * (100 - percent) / 100, 2)\n';

const runArgs = (repo: string) => [
  'run',
  '--repo',
  repo,
  '--target',
  'shop/pricing.py::apply_discount',
  '--blank',
  '-T',
  '1',
  '--provider',
  'openai',
  '--model',
  'gpt-4o-mini',
  '--approve',
  'auto',
];
const TESTS = ['--tests', 'tests/test_pricing.py'];

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

/** The CLI, stopped if it has not ended in `ms` (the bug was a loop that never ends): the result says so. */
async function runBounded(
  args: string[],
  ms: number,
  env: NodeJS.ProcessEnv = {},
): Promise<CliResult & { stopped: boolean }> {
  const child = startCli(args, { env });
  let stopped = false;
  const timer = setTimeout(() => {
    stopped = true;
    child.kill('SIGKILL');
  }, ms);
  const result = await finished(child);
  clearTimeout(timer);
  return { ...result, stopped };
}

describe('odd inputs (issue 43 item 4)', () => {
  it('an 18 MB generated module is left out of the index with one warning naming it, and the run goes on', async () => {
    const repo = copyFixture('shop');
    try {
      writeFileSync(join(repo.dir, 'shop', 'generated_table.py'), 'x = 1\n'.repeat(3_000_000));
      server = await startFakeModelServer([{ calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] }]);
      const run = await runCli([...runArgs(repo.dir), '--json', ...TESTS], {
        env: { OPENAI_BASE_URL: `${server.url}/v1` },
      });
      expect(run.code, run.stderr).toBe(0);
      expect(run.stderr).not.toMatch(/Aborted|RuntimeError|at Worker/);
      const events = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line) as { type: string; message?: string; pass?: boolean });
      const warnings = events.filter((e) => e.type === 'warning' && e.message?.includes('generated_table.py'));
      expect(warnings.map((w) => w.message)).toEqual([
        "shop/generated_table.py is left out of the index: 18.0 MB, past the index's limit of 5 MB; the agent can still read it with its shell",
      ]);
      expect(events.find((e) => e.type === 'index.ready')).toBeDefined();
      expect(events.at(-1)).toMatchObject({ type: 'result', pass: true });
    } finally {
      repo.cleanup();
    }
  }, 120_000);

  it('a sessions folder that cannot be made is one line and exit 2, at once', async () => {
    const repo = copyFixture('shop');
    try {
      for (const args of [
        ['sessions', '--sessions-dir', '/proc/x'],
        [...runArgs(repo.dir), '--sessions-dir', '/proc/x', ...TESTS],
      ]) {
        const result = await runBounded(args, 20_000, { OPENAI_API_KEY: 'unused' });
        expect(result.stopped, `tenet ${args[0]} did not end`).toBe(false);
        expect(result.code).toBe(2);
        expect(result.stderr).toBe(
          'tenet: the sessions folder /proc/x cannot be made (mkdir /proc/x failed: ENOENT); give tenet a folder it can create or write.\n',
        );
      }
    } finally {
      repo.cleanup();
    }
  }, 60_000);
});
