import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { startFakeModelServer } from '../helpers/fake-model-server';
import { FIXTURES } from '../helpers/fixtures';

/**
 * `--json` printed a 30 MB tool argument twice (issue 34.7): in the `model.response` event and in
 * the `tool.call` event; a submission's code a third time, in the `submission` event. Each is
 * printed once now, in `tool.call`.
 */
const scratch = mkdtempSync(join(tmpdir(), 'tenet-json-once-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

const count = (text: string, part: string) => text.split(part).length - 1;

describe('the --json stream', () => {
  it("prints a big tool argument once, in its tool.call event, and a submission's code once", async () => {
    const repo = join(scratch, 'shop');
    cpSync(join(FIXTURES, 'shop'), repo, { recursive: true });
    // Words, not one long run of a letter: the fake server's tokenizer is slow on such a run.
    const big = `needle ${Array.from({ length: 400_000 }, (_, i) => `w${i}`).join(' ')} end`;
    const code = `def total(self):\n    # submitted ${Array.from({ length: 20_000 }, (_, i) => `c${i}`).join(' ')}\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n`;
    const server = await startFakeModelServer([
      { calls: [{ name: 'view_directory', arguments: { path: big } }], usage: { input: 100, output: 20 } },
      { calls: [{ name: 'submit_implementation', arguments: { code } }], usage: { input: 100, output: 20 } },
    ]);
    try {
      const run = await runCli(
        [
          'run',
          '--repo',
          repo,
          '--target',
          'shop/cart.py::Cart.total',
          '--blank',
          '-T',
          '1',
          '--rrw-attempts',
          '0',
          '--provider',
          'openai',
          '--model',
          'gpt-4o-mini',
          '--json',
          '--tests',
          'tests/test_cart.py',
        ],
        { env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` } },
      );
      const lines = run.stdout.trim().split('\n');
      const events = lines.map((line) => JSON.parse(line));
      expect({ ...events.at(-1), patch: undefined }, run.stderr.slice(-2000)).toMatchObject({
        type: 'result',
        pass: true,
      });
      // Once in all of the output, in the tool.call of the listing.
      expect(count(run.stdout, big)).toBe(1);
      const holding = (part: string) =>
        lines.filter((line) => line.includes(part)).map((line) => JSON.parse(line).type);
      expect(holding(big)).toEqual(['tool.call']);
      expect(
        events.find((e) => e.type === 'tool.call' && e.name === 'view_directory').arguments ===
          JSON.stringify({ path: big }),
      ).toBe(true);
      // The submitted code: in its tool.call, and in the result's patch (the diff, a different text).
      expect(holding('c19998 c19999')).toEqual(['tool.call', 'result']);
      // The response names its calls; the submission says how it went.
      const responses = events.filter((e) => e.type === 'model.response');
      expect(responses[0].toolCalls).toEqual([{ id: expect.any(String), name: 'view_directory' }]);
      expect(events.find((e) => e.type === 'submission')).toMatchObject({ ok: true });
      expect(events.find((e) => e.type === 'submission')).not.toHaveProperty('code');
    } finally {
      await server.close();
    }
  }, 180_000);
});
