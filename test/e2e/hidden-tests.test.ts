import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PAPER_BUDGET } from '../../source/engine/agent/tenet-strategy';
import type { EngineEvent } from '../../source/engine/events';
import { createModel } from '../../source/engine/model/create-model';
import { headlessPilot } from '../../source/engine/run/pilot';
import { runTask } from '../../source/engine/run/run-task';
import { resolveSettings } from '../../source/engine/run/run-settings';
import { finished, startCli, waitFor } from '../helpers/cli';
import { startFakeModelServer, type FakeModelServer } from '../helpers/fake-model-server';
import { copyFixture, FIXTURES, treeHash } from '../helpers/fixtures';

const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

// THM on the shop fixture finds test_total, test_summary and test_receipt failing; with T=2 the
// agent gets the first two, and test_receipt is hidden until the evaluation.
describe('hidden tests, while the agent works', () => {
  it('are gone from what it reads and searches, without a marker; they are back for the evaluation', async () => {
    server = await startFakeModelServer([
      {
        calls: [
          { name: 'read_file', arguments: { file_name: 'tests/test_cart.py' } },
          { name: 'search_code', arguments: { code_str: 'hides' } },
        ],
      },
      { calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] },
    ]);
    const model = createModel(
      { maxRetries: 2 },
      { provider: 'openai', model: 'test-model' },
      { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` },
    );
    const events: EngineEvent[] = [];
    const result = await runTask({
      repo: join(FIXTURES, 'shop'),
      target: 'shop/cart.py::Cart.total',
      blank: true,
      testArgs: ['tests/test_cart.py'],
      ...resolveSettings(
        { T: 2, jobs: 1, onePass: true, testTimeoutSec: 60, thmTimeoutSec: 600, budget: PAPER_BUDGET },
        {},
      ),
      model,
      pilot: headlessPilot(false),
      emit: (event) => events.push(event),
    });
    const results = events.filter((e) => e.type === 'tool.result').map((e) => (e.type === 'tool.result' ? e.text : ''));
    const shown = readFileSync(join(FIXTURES, 'shop', 'tests', 'test_cart.py'), 'utf8')
      .replace(
        '    def test_receipt(self):\n        self.assertTrue(receipt(self.cart).endswith("TOTAL 9.00"))\n\n',
        '',
      )
      .trimEnd()
      .split('\n')
      .map((line, i) => `${i + 1} ${line}`.replace(/ $/, ''));
    // The file as the agent reads it: the hidden test is simply not there.
    const code = results[0]!.slice(results[0]!.indexOf('<code>\n') + 7, results[0]!.indexOf('\n</code>'));
    expect(code.split('\n').map((l) => l.replace(/^ +/, '').replace(/ $/, ''))).toEqual(shown);
    expect(results[1]).toBe('Could not find code hides in the codebase.');
    // The module still imports and collects: the selected tests ran; the hidden one decided too.
    expect(result).toMatchObject({
      pass: true,
      selectedTests: { passed: 2, total: 2 },
      hiddenTests: { passed: 1, total: 1 },
    });
  });

  it('a SIGKILL while they are hidden leaves the checkout byte-identical: only the workspace copy was changed', async () => {
    // The model answers slowly: the kill lands while the agent works, with the test hidden.
    server = await startFakeModelServer([{ say: 'Let me think.', delayMs: 60_000 }]);
    const repo = copyFixture('shop');
    const scratch = mkdtempSync(join(tmpdir(), 'tenet-hidden-kill-'));
    try {
      const before = treeHash(repo.dir);
      const child = startCli(
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
          'test-model',
          '--json',
          '--tests',
          'tests/test_cart.py',
        ],
        {
          env: { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1`, TMPDIR: scratch },
        },
      );
      const ended = finished(child);
      await waitFor(
        () => child.output.stdout.includes('"type":"tests.hidden"') && server!.requests.length > 0,
        60_000,
        'the agent to work with the test hidden',
      );
      const start = JSON.parse(child.output.stdout.split('\n')[0]!) as { config: { workspace: string } };
      const copy = readFileSync(join(start.config.workspace, 'tests', 'test_cart.py'), 'utf8');
      expect(copy).not.toContain('test_receipt');
      child.kill('SIGKILL');
      await ended;
      expect(treeHash(repo.dir)).toBe(before);
      expect(readFileSync(join(repo.dir, 'tests', 'test_cart.py'), 'utf8')).toContain('def test_receipt(self):');
    } finally {
      repo.cleanup();
      rmSync(scratch, { recursive: true, force: true });
    }
  }, 120_000);
});
