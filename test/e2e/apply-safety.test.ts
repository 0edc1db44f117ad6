import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { runCli } from '../helpers/cli';
import { recordedDemo } from '../helpers/demo-session';
import { startFakeModelServer, type FakeModelServer, type FakeTurn } from '../helpers/fake-model-server';
import { copyFixture, treeHash } from '../helpers/fixtures';
import { SANDBOXES } from '../helpers/sandboxes';

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';
const WRONG = 'def total(self):\n    return self.subtotal()\n';
const STUB = 'def total(self):\n    raise NotImplementedError\n';

/** A headless run on a copy of the shop fixture against a fake OpenAI server; its events and exit code. */
async function run(turns: FakeTurn[], extra: string[], sandbox: string[] = []) {
  server = await startFakeModelServer(turns);
  const repo = copyFixture('shop');
  const file = join(repo.dir, 'shop', 'cart.py');
  const before = readFileSync(file, 'utf8');
  const hashBefore = treeHash(repo.dir);
  const result = await runCli(
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
      'gpt-4o-mini',
      '--pregen-rounds',
      '2',
      '--rrw-attempts',
      '0',
      '--json',
      ...sandbox,
      ...extra,
      '--tests',
      'tests/test_cart.py',
    ],
    { env: { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: `${server.url}/v1` } },
  );
  const events = result.stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l));
  return {
    result,
    events,
    file,
    before,
    hashBefore,
    after: readFileSync(file, 'utf8'),
    hashAfter: treeHash(repo.dir),
    cleanup: repo.cleanup,
  };
}

describe.each(SANDBOXES)('the patch is the submitted function (%s sandbox)', (_name, spec) => {
  const sandbox = spec.kind === 'docker' ? ['--sandbox', 'docker', '--memory', '1g', '--pids', '256'] : [];
  it('code a shell command appended to the target file after the last submission reaches neither the patch, the evaluation, nor the checkout', async () => {
    const append = `printf '\\nimport os\\nos.environ["TENET_PLANTED"] = "1"\\nPLANTED = True\\n' >> shop/cart.py && tail -2 shop/cart.py`;
    const r = await run(
      [
        {
          calls: [
            { name: 'submit_implementation', arguments: { code: RIGHT } },
            { name: 'run_debugger_cmd', arguments: { cmd: append } },
          ],
        },
      ],
      ['--apply'],
      sandbox,
    );
    try {
      // The command did run: its output shows the planted line in the workspace.
      expect(r.events.find((e) => e.type === 'tool.result' && e.name === 'run_debugger_cmd')?.text).toContain(
        'PLANTED = True',
      );
      const result = r.events.at(-1);
      expect(result).toMatchObject({ type: 'result', pass: true, applied: true });
      expect(result.patch).toContain('+        amount = self.subtotal()');
      expect(result.patch).not.toContain('PLANTED');
      expect(r.after).not.toContain('PLANTED');
      expect(r.after).toContain('        amount = self.subtotal()\n        return discount(amount, self.percent)\n');
    } finally {
      r.cleanup();
    }
  }, 180_000);
});

describe('--apply respects the result', () => {
  it('a failing run is not applied with --apply (exit 1, the reason recorded); --apply-failing applies it', async () => {
    const refused = await run(
      [{ calls: [{ name: 'submit_implementation', arguments: { code: WRONG } }] }],
      ['--apply'],
    );
    try {
      expect(refused.result.code).toBe(1);
      expect(refused.events.find((e) => e.type === 'patch.decision')).toEqual({
        type: 'patch.decision',
        decision: 'accept',
        applied: false,
        reason: expect.stringContaining('--apply-failing'),
      });
      expect(refused.events.at(-1)).toMatchObject({ type: 'result', pass: false, applied: false });
      expect(refused.hashAfter).toBe(refused.hashBefore);
    } finally {
      refused.cleanup();
    }
    const forced = await run(
      [{ calls: [{ name: 'submit_implementation', arguments: { code: WRONG } }] }],
      ['--apply-failing'],
    );
    try {
      expect(forced.result.code).toBe(1);
      expect(forced.events.at(-1)).toMatchObject({ type: 'result', pass: false, applied: true });
      expect(forced.after).toContain('        return self.subtotal()\n');
    } finally {
      forced.cleanup();
    }
  }, 180_000);

  it('benchmark mode never writes the blanked body: no submission is no patch, a stub submission is refused', async () => {
    const none = await run([{ say: 'I give up.' }, { say: 'Still nothing.' }], ['--apply-failing']);
    try {
      expect(none.events.at(-1)).toMatchObject({
        type: 'result',
        pass: false,
        stopReason: 'no-implementation',
        patch: '',
        applied: false,
      });
      expect(none.hashAfter).toBe(none.hashBefore);
    } finally {
      none.cleanup();
    }
    const stub = await run(
      [{ calls: [{ name: 'submit_implementation', arguments: { code: STUB } }] }],
      ['--apply-failing'],
    );
    try {
      expect(stub.events.at(-1)).toMatchObject({ type: 'result', pass: false, applied: false });
      expect(stub.events.find((e) => e.type === 'patch.decision')).toMatchObject({
        applied: false,
        reason: expect.stringContaining('still a stub'),
      });
      expect(stub.after).toBe(stub.before);
    } finally {
      stub.cleanup();
    }
  }, 180_000);
});

describe('the demo works on a copy of the example', () => {
  it('the session records a repository in its own folder, and the shipped example is untouched', () => {
    // The demo the global setup recorded (test/setup/demo-session.ts), as `npm start` runs it.
    const { sessions, id, code } = recordedDemo();
    expect(code).toBe(0);
    const start = JSON.parse(readFileSync(join(sessions, id, 'events.jsonl'), 'utf8').split('\n')[0]!);
    expect(start).toMatchObject({ type: 'session.start', sessionId: id });
    expect(start.repo).toBe(join(sessions, start.sessionId, 'example'));
    expect(readFileSync(join(start.repo, 'invoicing', 'tax.py'), 'utf8')).toContain('def tax_for');
  });
});
