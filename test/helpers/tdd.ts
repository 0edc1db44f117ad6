import { join } from 'node:path';
import { afterEach } from 'vitest';
import { PAPER_BUDGET } from '../../source/engine/agent/tenet-strategy';
import type { EngineEvent, RunResult } from '../../source/engine/events';
import { createModel } from '../../source/engine/model/create-model';
import { headlessPilot, type Pilot } from '../../source/engine/run/pilot';
import { runTask } from '../../source/engine/run/run-task';
import { resolveSettings } from '../../source/engine/run/run-settings';
import type { Strategy } from '../../source/engine/protocol/settings';
import { startFakeModelServer, type FakeModelServer, type FakeTurn } from './fake-model-server';
import { FIXTURES } from './fixtures';

// The TDD-Agent strategy against a fake model server: shared by test/e2e/tdd-*.test.ts.
export const TARGET = 'shop/pricing.py::apply_discount';
export const RIGHT =
  'def apply_discount(price, percent):\n    if not 0 <= percent <= 100:\n        raise ValueError("percent")\n    return round(price * (100 - percent) / 100, 2)\n';
export const NO_CHECK = 'def apply_discount(price, percent):\n    return round(price * (100 - percent) / 100, 2)\n';
export const PLUS_ONE =
  'def apply_discount(price, percent):\n    if not 0 <= percent <= 100:\n        raise ValueError("percent")\n    return round(price * (100 - percent) / 100, 2) + 1\n';

export const tests = (...bodies: string[]) =>
  `import pytest\nfrom shop.pricing import apply_discount\n\n${bodies.join('\n\n')}\n`;
export const T = {
  basic: 'def test_basic():\n    assert apply_discount(100.0, 15) == 85.0',
  zero: 'def test_zero():\n    assert apply_discount(20.0, 0) == 20.0',
  full: 'def test_full():\n    assert apply_discount(20.0, 100) == 0.0',
  rounds: 'def test_rounds():\n    assert apply_discount(9.99, 33) == 6.69',
  rejects: 'def test_rejects():\n    with pytest.raises(ValueError):\n        apply_discount(10.0, 120)',
  wrong: 'def test_wrong():\n    assert apply_discount(100.0, 10) == 91.0',
};
export const call = (name: string, args: Record<string, unknown> = {}) => ({ name, arguments: args });

export let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

export async function session(
  strategy: Strategy,
  turns: FakeTurn[],
  options: {
    iterations?: number;
    measure?: boolean;
    signal?: AbortSignal;
    onEvent?: (event: EngineEvent) => void;
    repo?: string;
    pilot?: Pilot;
  } = {},
): Promise<{ result: RunResult; events: EngineEvent[] }> {
  server = await startFakeModelServer(turns);
  const model = createModel(
    { maxRetries: 2 },
    { provider: 'openai', model: 'test-model' },
    { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` },
  );
  const events: EngineEvent[] = [];
  const result = await runTask({
    repo: options.repo ?? join(FIXTURES, 'shop'),
    target: TARGET,
    blank: true,
    testArgs: ['tests/test_pricing.py'],
    ...resolveSettings(
      {
        T: 2,
        jobs: 1,
        onePass: true,
        testTimeoutSec: 30,
        thmTimeoutSec: 600,
        budget: PAPER_BUDGET,
        strategy,
        tddBudget: { setupRounds: 4, iterations: options.iterations ?? 10, roundsPerIteration: 4 },
        measureTests: options.measure ?? true,
      },
      {},
    ),
    model,
    pilot: options.pilot ?? headlessPilot(false),
    emit: (event) => {
      events.push(event);
      options.onEvent?.(event);
    },
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return { result, events };
}

/** The events before the evaluation: what the agent did (tenet then runs its tests once more on the final code). */
export const beforeEvaluation = (events: EngineEvent[]) =>
  events.slice(
    0,
    events.findIndex((e) => e.type === 'agent.phase' && e.phase === 'evaluate'),
  );
export const phases = (events: EngineEvent[]) =>
  events.flatMap((e) => (e.type === 'agent.phase' ? [`${e.phase}${e.round ? ` ${e.round}` : ''}`] : []));
export const messagesOf = (request: { body: Record<string, unknown> }) => JSON.stringify(request.body.messages);
