import { mkdtempSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { EngineEvent, EventOf } from '../../source/engine/events';
import { foldEvents } from '../../source/engine/session/fold';
import { MAX_INSTRUCTION_BYTES, readProjectInstructions } from '../../source/engine/task/project-instructions';
import { runCli } from '../helpers/cli';
import type { FakeModelServer } from '../helpers/fake-model-server';
import { shopScratch } from '../helpers/shop-scratch';

// The repository's AGENTS.md reaches the model (the system prompt of the first request) and the
// session; --no-project-instructions keeps it out of both.

const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';
const AGENTS =
  '# Notes for agents\n\nMoney is in integer cents: never use float for prices. Run pytest -q tests/test_cart.py.\n';
const { scratch, repo, start, envFor } = shopScratch('tenet-instructions-');
writeFileSync(join(repo.dir, 'AGENTS.md'), AGENTS);
let server: FakeModelServer | undefined;

async function run(...flags: string[]) {
  server = await start([{ say: 'Done.', calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] }]);
  const env = envFor(server);
  const out = await runCli(
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
      'gpt-4.1-mini',
      ...flags,
      '--json',
      '--tests',
      'tests/test_cart.py',
    ],
    { env },
  );
  expect(out.code, out.stderr).toBe(0);
  const events = out.stdout
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as EngineEvent);
  const first = server.requests[0]!.body as { messages: { role: string; content: string }[] };
  return { events, system: first.messages.find((m) => m.role === 'system')?.content ?? '' };
}

describe('project instructions', () => {
  it("AGENTS.md goes into the first request's system prompt and into the session, said with its size", async () => {
    const { events, system } = await run();
    expect(system).toContain("## The repository's instructions (AGENTS.md)");
    expect(system).toContain('Money is in integer cents');
    const start = events.find((e): e is EventOf<'session.start'> => e.type === 'session.start')!;
    expect(start.config.instructions).toEqual({
      file: 'AGENTS.md',
      text: AGENTS.trim(),
      bytes: Buffer.byteLength(AGENTS),
    });
    // The session's conversation has the prompt as sent: a resume goes on with it.
    expect(foldEvents(events).system).toBe(system);
  }, 120_000);

  it('--no-project-instructions leaves it out of the request and records that', async () => {
    const { events, system } = await run('--no-project-instructions');
    expect(system).not.toContain('integer cents');
    expect(system).not.toContain("repository's instructions");
    expect(events.find((e): e is EventOf<'session.start'> => e.type === 'session.start')!.config.instructions).toBe(
      'off',
    );
  }, 120_000);

  it('the headless start says which file and how large', async () => {
    server = await start([{ say: 'Done.', calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] }]);
    const env = envFor(server);
    const out = await runCli(
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
        'gpt-4.1-mini',
        '--headless',
        '--tests',
        'tests/test_cart.py',
      ],
      { env },
    );
    expect(out.stdout).toContain(`instructions: AGENTS.md, ${Buffer.byteLength(AGENTS)} B\n`);
  }, 120_000);
});

describe('reading the instructions', () => {
  it('TENET.md wins over AGENTS.md; an empty file counts as none; a long one is cut at the cap, and says so', () => {
    const dir = mkdtempSync(join(scratch, 'read-'));
    expect(readProjectInstructions(dir)).toBeUndefined();
    writeFileSync(join(dir, 'AGENTS.md'), 'agents');
    writeFileSync(join(dir, 'TENET.md'), '  \n');
    expect(readProjectInstructions(dir)).toMatchObject({ file: 'AGENTS.md', text: 'agents' });
    writeFileSync(join(dir, 'TENET.md'), 'tenet only');
    expect(readProjectInstructions(dir)).toMatchObject({ file: 'TENET.md', text: 'tenet only' });
    writeFileSync(join(dir, 'TENET.md'), 'é'.repeat(MAX_INSTRUCTION_BYTES));
    const cut = readProjectInstructions(dir)!;
    expect(cut).toMatchObject({ file: 'TENET.md', bytes: 2 * MAX_INSTRUCTION_BYTES, cut: true });
    expect(cut.text).toMatch(/^é+\n\n\[tenet cut TENET.md here: it is 32,768 bytes, past the 16 KiB tenet reads\]$/);
    expect(Buffer.byteLength(cut.text)).toBeLessThan(MAX_INSTRUCTION_BYTES + 200);
  });
});
