import { join } from 'node:path';
import { afterEach } from 'vitest';
import { PAPER_BUDGET } from '../../source/engine/agent/tenet-strategy';
import type { Budget } from '../../source/engine/protocol/settings';
import type { EngineEvent, RunResult } from '../../source/engine/events';
import { createModel } from '../../source/engine/model/create-model';
import { headlessPilot, type Pilot } from '../../source/engine/run/pilot';
import { runTask } from '../../source/engine/run/run-task';
import { resolveSettings } from '../../source/engine/run/run-settings';
import { startFakeModelServer, type FakeModelServer, type FakeTurn } from './fake-model-server';
import { LOCAL, type SandboxSpec } from '../../source/engine/sandbox/create-sandbox';
import { FIXTURES } from './fixtures';

// The TENET agent against a fake model server (real SDK clients): shared by test/e2e/agent-*.test.ts.
// Correct, and not the original text (that would make an empty patch in benchmark mode).
export const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';
export const WRONG = 'def total(self):\n    return self.subtotal()\n';
export const submit = (code: string): FakeTurn => ({ calls: [{ name: 'submit_implementation', arguments: { code } }] });

export let server: FakeModelServer | undefined;
/** Closes the fake server of the session before (a test that runs two), as the hook after each test does. */
export async function closeServer(): Promise<void> {
  await server?.close();
  server = undefined;
}
afterEach(closeServer);

export async function session(
  provider: 'openai' | 'anthropic',
  turns: FakeTurn[],
  budget: Partial<Budget> = {},
  sandbox: SandboxSpec = LOCAL,
  extra: { pilot?: Pilot; repo?: string } = {},
): Promise<{ result: RunResult; events: EngineEvent[] }> {
  server = await startFakeModelServer(turns);
  const env =
    provider === 'openai'
      ? { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` }
      : { ANTHROPIC_API_KEY: 'sk-ant-test', ANTHROPIC_BASE_URL: server.url };
  const model = createModel({ maxRetries: 3 }, { provider, model: 'test-model' }, env);
  const events: EngineEvent[] = [];
  const result = await runTask({
    repo: extra.repo ?? join(FIXTURES, 'shop'),
    target: 'shop/cart.py::Cart.total',
    sandbox,
    blank: true,
    testArgs: ['tests/test_cart.py'],
    ...resolveSettings(
      { T: 2, jobs: 1, onePass: true, testTimeoutSec: 60, thmTimeoutSec: 600, budget: { ...PAPER_BUDGET, ...budget } },
      {},
    ),
    model,
    pilot: extra.pilot ?? headlessPilot(false),
    emit: (event) => events.push(event),
  });
  return { result, events };
}

export const phases = (events: EngineEvent[]) =>
  events.flatMap((e) =>
    e.type === 'agent.phase' ? [`${e.phase}${e.attempt ? ` ${e.attempt}` : ''}${e.stage ? ` ${e.stage}` : ''}`] : [],
  );
export const toolMessages = (request: { body: Record<string, unknown> }) =>
  (request.body.messages as { role: string; content: unknown }[])
    .filter((m) => m.role === 'tool')
    .map((m) => String(m.content));
