import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PAPER_BUDGET } from '../../source/engine/agent/tenet-strategy';
import { renderPrompt } from '../../source/engine/agent/prompts';
import type { EngineEvent, RunResult } from '../../source/engine/events';
import { createModel } from '../../source/engine/model/create-model';
import { headlessPilot } from '../../source/engine/run/pilot';
import { runTask } from '../../source/engine/run/run-task';
import { resolveSettings } from '../../source/engine/run/run-settings';
import type { Ablations, TestStage, Selection } from '../../source/engine/protocol/settings';
import { tenetTools } from '../../source/engine/run/strategies';
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

async function session(
  turns: FakeTurn[],
  options: { testStage?: TestStage; select?: Selection; ablations?: Partial<Ablations>; rrwRounds?: number },
): Promise<{ result: RunResult; events: EngineEvent[] }> {
  server = await startFakeModelServer(turns);
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
      {
        T: 2,
        jobs: 1,
        onePass: true,
        testTimeoutSec: 30,
        thmTimeoutSec: 600,
        budget: { ...PAPER_BUDGET, rrwAttempts: 1, rrwRounds: options.rrwRounds ?? 2 },
        ...options,
      },
      {},
    ),
    model,
    pilot: headlessPilot(false),
    emit: (event) => events.push(event),
  });
  return { result, events };
}

const firstMessage = () => String((server!.requests[0]!.body.messages as { content: string }[])[1]!.content);
/** What the model was told: the system prompt and every user message, as the last request carried them. */
const prompts = () =>
  (server!.requests.at(-1)!.body.messages as { role: string; content: string }[])
    .filter((m) => m.role === 'system' || m.role === 'user')
    .map((m) => m.content);
const offered = (index: number) =>
  (server!.requests[index]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
const validations = (events: EngineEvent[]) =>
  events.filter((e) => e.type === 'tests.run' && e.purpose === 'validate').length;
const toolResult = (events: EngineEvent[], name: string) =>
  events.find((e) => e.type === 'tool.result' && e.name === name);

describe('when tests take part (RQ5, --test-stage)', () => {
  it('none: no test is shown, none can be found, nothing validates; the first submission is the answer', async () => {
    const { result, events } = await session([look, submit(WRONG)], { testStage: 'none' });
    expect(firstMessage()).toContain('No tests are shown before your first submission.');
    expect(toolResult(events, 'search_code')).toMatchObject({
      text: 'Could not find code def test_summary in the codebase.',
    });
    expect(events.find((e) => e.type === 'thm.approval')).toMatchObject({ chosen: [], by: 'ablation' });
    expect(validations(events)).toBe(0);
    expect(result).toMatchObject({
      pass: false,
      stopReason: 'submitted',
      selectedTests: { total: 0 },
      hiddenTests: { total: 3 },
    });
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
    const { result, events } = await session(
      [look, submit(WRONG), { say: 'The discount is missing.' }, submit(RIGHT)],
      { testStage: 'postgen' },
    );
    expect(firstMessage()).toContain('No tests are shown before your first submission.');
    expect(toolResult(events, 'search_code')).toMatchObject({
      text: 'Could not find code def test_summary in the codebase.',
    });
    expect(validations(events)).toBe(2);
    expect(events.find((e) => e.type === 'tests.run' && e.purpose === 'validate')).toMatchObject({
      passed: 0,
      total: 2,
    });
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

describe("the paper's ablations (--no-thm, --no-apis, --no-rrw)", () => {
  const ALL_FAILING = [
    'tests/test_cart.py::CartTest::test_receipt',
    'tests/test_cart.py::CartTest::test_summary',
    'tests/test_cart.py::CartTest::test_total',
  ];
  const TENET_ONLY = [
    'search_similar_method',
    'search_target_usage',
    'search_import_statement',
    'run_debugger_cmd',
    'view_directory',
    'read_file',
  ];

  it('--no-thm: every failing test is shown and validates, recorded as an ablation', async () => {
    const { result, events } = await session([submit(RIGHT)], { ablations: { noThm: true } });
    const approval = events.find((e) => e.type === 'thm.approval');
    expect(approval).toMatchObject({ by: 'ablation' });
    expect(approval?.type === 'thm.approval' ? [...approval.chosen].sort() : []).toEqual(ALL_FAILING);
    expect(firstMessage()).toContain('The implementation must pass these tests (3)');
    expect(result).toMatchObject({ pass: true, selectedTests: { passed: 3, total: 3 } });
  }, 120_000);

  it('--no-apis: neither the TENET tools nor the debugger are offered, and no prompt names them', async () => {
    const { result, events } = await session(
      [look, submit(WRONG), { say: 'The discount is missing.' }, { say: 'Nothing similar.' }, submit(RIGHT)],
      { ablations: { noApis: true }, rrwRounds: 3 },
    );
    // Every request, the analysing stages of refinement too (they refuse the submitter), is offered the same tools.
    for (const index of server!.requests.keys()) expect(offered(index)).toEqual(tenetTools(true));
    expect(offered(0)).not.toContain('run_debugger_cmd');
    const told = prompts().join('\n');
    expect(told).toContain('Stage 1 — failure identification'); // the RRW ran, with its prompts
    for (const tool of TENET_ONLY) expect(told).not.toContain(tool);
    expect(told).not.toMatch(/\bpdb\b/);
    expect(events.some((e) => e.type === 'tool.call' && !tenetTools(true).includes(e.name))).toBe(false);
    expect(result).toMatchObject({ pass: true, rounds: { rrwAttempts: 1 } });
    // With the full toolset the same stage does point at the debugger.
    expect(
      renderPrompt('rrw-failure', { attempt: 1, attempts: 1, report: '', test: 't' }, { tools: tenetTools(false) }),
    ).toContain('run_debugger_cmd');
  }, 120_000);

  it('--no-rrw: refinement gets the test feedback only, no stages', async () => {
    const { result, events } = await session([submit(WRONG), submit(RIGHT)], { ablations: { noRrw: true } });
    const stages = events.flatMap((e) => (e.type === 'agent.phase' && e.phase === 'rrw' ? [e.stage] : []));
    expect(stages).toEqual(['naive']);
    const told = prompts();
    const feedback = told.find((m) => m.startsWith('The tests fail:'));
    expect(feedback).toContain('Fix the implementation and submit it again with submit_implementation.');
    expect(feedback).toMatch(/test_total|test_summary/); // the failure report itself
    expect(told.join('\n')).not.toMatch(/Stage \d/);
    expect(result).toMatchObject({ pass: true, rounds: { rrwAttempts: 1 } });
  }, 120_000);
});
