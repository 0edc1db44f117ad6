import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PAPER_BUDGET } from '../../source/engine/agent/tenet-strategy';
import type { EngineEvent, RunResult } from '../../source/engine/events';
import { createModel } from '../../source/engine/model/create-model';
import { headlessPilot } from '../../source/engine/run/pilot';
import { runTask, type TestStage } from '../../source/engine/run/run-task';
import type { Selection } from '../../source/engine/thm/alt-selection';
import { startFakeModelServer, type FakeModelServer, type FakeTurn } from '../helpers/fake-model-server';
import { FIXTURES } from '../helpers/fixtures';

const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';
const WRONG = 'def total(self):\n    return self.subtotal()\n';
const submit = (code: string): FakeTurn => ({ calls: [{ name: 'submit_implementation', arguments: { code } }] });
const look: FakeTurn = { calls: [{ name: 'search_code', arguments: { code_str: 'def test_summary' } }] };

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function session(turns: FakeTurn[], options: { testStage?: TestStage; select?: Selection }): Promise<{ result: RunResult; events: EngineEvent[] }> {
  server = await startFakeModelServer(turns);
  const model = createModel({ maxRetries: 2 }, { provider: 'openai', model: 'test-model' }, { OPENAI_API_KEY: 'sk-test', OPENAI_BASE_URL: `${server.url}/v1` });
  const events: EngineEvent[] = [];
  const result = await runTask({
    repo: join(FIXTURES, 'shop'),
    target: 'shop/cart.py::Cart.total',
    blank: true,
    testArgs: ['tests/test_cart.py'],
    T: 2,
    jobs: 1,
    fork: true,
    testTimeoutSec: 30,
    thmTimeoutSec: 600,
    budget: { ...PAPER_BUDGET, rrwAttempts: 1, rrwRounds: 2 },
    ablations: { noThm: false, noApis: false, noRrw: false },
    ...(options.testStage ? { testStage: options.testStage } : {}),
    ...(options.select ? { select: options.select } : {}),
    model,
    pilot: headlessPilot(false),
    emit: (event) => events.push(event),
  });
  return { result, events };
}

const firstMessage = () => String((server!.requests[0]!.body.messages as { content: string }[])[1]!.content);
const validations = (events: EngineEvent[]) => events.filter((e) => e.type === 'tests.run' && e.purpose === 'validate').length;
const toolResult = (events: EngineEvent[], name: string) => events.find((e) => e.type === 'tool.result' && e.name === name);

describe('when tests take part (RQ5, --test-stage)', () => {
  it('none: no test is shown, none can be found, nothing validates; the first submission is the answer', async () => {
    const { result, events } = await session([look, submit(WRONG)], { testStage: 'none' });
    expect(firstMessage()).toContain('No tests are shown before your first submission.');
    expect(toolResult(events, 'search_code')).toMatchObject({ text: 'Could not find code def test_summary in the codebase.' });
    expect(events.find((e) => e.type === 'thm.approval')).toMatchObject({ chosen: [], by: 'ablation' });
    expect(validations(events)).toBe(0);
    expect(result).toMatchObject({ pass: false, stopReason: 'submitted', selectedTests: { total: 0 }, hiddenTests: { total: 3 } });
  }, 120_000);

  it('pregen: the tests are shown and can be read, but nothing validates the submission', async () => {
    const { result, events } = await session([look, submit(RIGHT)], { testStage: 'pregen' });
    expect(firstMessage()).toContain('The implementation must pass these tests (2)');
    const found = toolResult(events, 'search_code');
    expect(found?.type === 'tool.result' ? found.text : '').toContain('def test_summary');
    expect(validations(events)).toBe(0);
    expect(result).toMatchObject({ pass: true, stopReason: 'passed', rounds: { rrwAttempts: 0 } });
  }, 120_000);

  it('postgen: hidden before the first submission, then validation and refinement with them', async () => {
    const { result, events } = await session([look, submit(WRONG), { say: 'The discount is missing.' }, submit(RIGHT)], { testStage: 'postgen' });
    expect(firstMessage()).toContain('No tests are shown before your first submission.');
    expect(toolResult(events, 'search_code')).toMatchObject({ text: 'Could not find code def test_summary in the codebase.' });
    expect(validations(events)).toBe(2);
    expect(events.find((e) => e.type === 'tests.run' && e.purpose === 'validate')).toMatchObject({ passed: 0, total: 2 });
    expect(result).toMatchObject({ pass: true, selectedTests: { passed: 2, total: 2 }, rounds: { rrwAttempts: 1 } });
  }, 120_000);
});

describe('how the tests are chosen (RQ4, --select)', () => {
  it('longest: the two deepest call chains, recorded as an ablation with what THM proposed', async () => {
    const { events } = await session([submit(RIGHT)], { select: 'longest' });
    expect(events.find((e) => e.type === 'thm.approval')).toMatchObject({
      by: 'ablation',
      proposed: ['tests/test_cart.py::CartTest::test_total', 'tests/test_cart.py::CartTest::test_summary'],
      chosen: ['tests/test_cart.py::CartTest::test_receipt', 'tests/test_cart.py::CartTest::test_summary'],
    });
  }, 120_000);
});
