import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { copyFixture } from '../helpers/fixtures';

// A scripted model whose script is over ends the agent's part at once (stop reason script-ended),
// where it used to answer "(The script has no more turns.)" until the whole budget was spent,
// 75 calls and hundreds of thousands of made-up tokens later.

const scratch = mkdtempSync(join(tmpdir(), 'tenet-script-ended-'));
afterAll(() => rmSync(scratch, { recursive: true, force: true }));

describe('a script that runs out', () => {
  it('ends the run promptly with stop reason script-ended; the evaluation runs; rerun agrees', async () => {
    const repo = copyFixture('shop');
    const env = {
      TENET_SESSIONS_DIR: join(scratch, 'sessions'),
      OPENAI_API_KEY: '',
      ANTHROPIC_API_KEY: '',
      XDG_CONFIG_HOME: '/nonexistent',
    };
    const script = join(scratch, 'wrong.json');
    writeFileSync(
      script,
      JSON.stringify({
        turns: [
          {
            say: 'Done.',
            calls: [
              { name: 'submit_implementation', arguments: { code: 'def total(self):\n    return self.subtotal()\n' } },
            ],
          },
        ],
      }),
    );
    try {
      const args = [
        'run',
        '--repo',
        repo.dir,
        '--target',
        'shop/cart.py::Cart.total',
        '--blank',
        '--provider',
        'scripted',
        '--script',
        script,
        '--json',
        '--tests',
        'tests/test_cart.py',
      ];
      const run = await runCli(args, { env });
      expect(run.code, run.stderr).toBe(1);
      const events = run.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line));
      expect(events.filter((e) => e.type === 'model.response')).toHaveLength(1);
      expect(
        events.find(
          (e) => e.type === 'warning' && e.message.startsWith('The model script has no more turns (1 played)'),
        ),
      ).toBeDefined();
      expect(events.some((e) => e.type === 'tests.run' && e.purpose === 'evaluate')).toBe(true);
      const result = events.at(-1);
      // Stopped in refinement attempt 1, after one answered round of pre-generation.
      expect(result).toMatchObject({
        type: 'result',
        pass: false,
        stopReason: 'script-ended',
        usage: { modelCalls: 1 },
        rounds: { pregen: 1, rrwAttempts: 1, total: 1 },
      });
      expect(result.patch).toContain('+        return self.subtotal()');

      const rerun = await runCli(['rerun', result.sessionId], { env });
      expect(rerun.stdout).toContain('No divergence');
      expect(rerun.code).toBe(0);
    } finally {
      repo.cleanup();
    }
  }, 120_000);
});
