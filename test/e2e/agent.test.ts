import { appendFileSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { PAPER_BUDGET } from '../../source/engine/agent/tenet-strategy';
import type { Budget } from '../../source/engine/protocol/settings';
import type { EngineEvent, EventOf, RunResult } from '../../source/engine/events';
import { createModel } from '../../source/engine/model/create-model';
import { headlessPilot, type Pilot } from '../../source/engine/run/pilot';
import type { CommandDecision } from '../../source/engine/protocol/decisions';
import { foldEvents } from '../../source/engine/session/fold';
import { runTask } from '../../source/engine/run/run-task';
import { resolveSettings } from '../../source/engine/run/run-settings';
import { startFakeModelServer, type FakeModelServer, type FakeTurn } from '../helpers/fake-model-server';
import { LOCAL, type SandboxSpec } from '../../source/engine/sandbox/create-sandbox';
import { copyFixture, FIXTURES } from '../helpers/fixtures';
import { SANDBOXES } from '../helpers/sandboxes';

// Correct, and not the original text (that would make an empty patch in benchmark mode).
const RIGHT = 'def total(self):\n    amount = self.subtotal()\n    return discount(amount, self.percent)\n';
const WRONG = 'def total(self):\n    return self.subtotal()\n';
const submit = (code: string): FakeTurn => ({ calls: [{ name: 'submit_implementation', arguments: { code } }] });

let server: FakeModelServer | undefined;
afterEach(async () => {
  await server?.close();
  server = undefined;
});

async function session(
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
      { T: 2, jobs: 1, fork: true, testTimeoutSec: 60, thmTimeoutSec: 600, budget: { ...PAPER_BUDGET, ...budget } },
      {},
    ),
    model,
    pilot: extra.pilot ?? headlessPilot(false),
    emit: (event) => events.push(event),
  });
  return { result, events };
}

const phases = (events: EngineEvent[]) =>
  events.flatMap((e) =>
    e.type === 'agent.phase' ? [`${e.phase}${e.attempt ? ` ${e.attempt}` : ''}${e.stage ? ` ${e.stage}` : ''}`] : [],
  );
const toolMessages = (request: { body: Record<string, unknown> }) =>
  (request.body.messages as { role: string; content: unknown }[])
    .filter((m) => m.role === 'tool')
    .map((m) => String(m.content));

// A whole scripted session, the same in a container as on this machine.
describe.each(SANDBOXES)(
  'the TENET agent against a fake model server (real SDK clients), %s sandbox',
  (_name, sandbox) => {
    it("the evaluation runs in a fresh copy of the checkout: a hook the agent's commands planted does not make a wrong function pass", async () => {
      // The model's shell command makes every test report passed (a hook added to the repository's
      // conftest.py), plants a file, touches a helper module; then it submits a wrong total.
      const hook = String.raw`printf '\nimport pytest\n@pytest.hookimpl(hookwrapper=True)\ndef pytest_runtest_makereport(item, call):\n    outcome = yield\n    outcome.get_result().outcome = "passed"\n' >> tests/conftest.py && echo '# planted' > tests/planted.py && echo '# touched' >> shop/pricing.py`;
      const { result, events } = await session(
        'openai',
        [{ calls: [{ name: 'run_debugger_cmd', arguments: { cmd: hook } }] }, submit(WRONG)],
        { rrwAttempts: 0 },
        sandbox,
      );
      // The hook fooled the validation in the agent's workspace, not the evaluation.
      expect(events.find((e) => e.type === 'tests.run' && e.purpose === 'validate')).toMatchObject({
        passed: 2,
        total: 2,
      });
      expect(result).toMatchObject({ pass: false, selectedTests: { passed: 0, total: 2 } });
      expect(result.tests['tests/test_cart.py::CartTest::test_total']).toBe('failed');
      // Judged in a fresh copy of the checkout: nothing there to undo, nothing to warn about.
      expect(result.stopReason).toBe('passed'); // as validation saw it: "the selected tests passed validation but not the evaluation"
      expect(events.filter((e) => e.type === 'warning' && /evaluation|unverified/.test(e.message))).toEqual([]);
      expect(result.patch).toContain('+        return self.subtotal()');
    });

    it('passes at the first submission; the hidden test decides with the others', async () => {
      const { result, events } = await session(
        'openai',
        [
          {
            say: 'Let me look at subtotal and check that no test is visible beyond mine.',
            calls: [
              { name: 'search_method_in_class', arguments: { method_name: 'subtotal', class_name: 'Cart' } },
              { name: 'search_code', arguments: { code_str: 'def test_receipt' } },
            ],
          },
          submit(RIGHT),
        ],
        {},
        sandbox,
      );
      expect(result).toMatchObject({
        pass: true,
        stopReason: 'passed',
        selectedTests: { passed: 2, total: 2 },
        hiddenTests: { passed: 1, total: 1 },
        usage: { outputTokens: 40, modelCalls: 2, toolCalls: 3 },
        rounds: { pregen: 2, rrwAttempts: 0, total: 2 },
        costOfPass: 0,
      });
      // The tokens are the server's: every input token, and of them those its prompt cache served.
      const served = server!.requests.map((r) => r.usage!);
      expect(result.usage).toMatchObject({
        inputTokens: served[0]!.input + served[1]!.input,
        cacheReadTokens: served[0]!.cacheRead + served[1]!.cacheRead,
        cacheWriteTokens: 0,
      });
      expect(result.tests).toEqual({
        'tests/test_cart.py::CartTest::test_total': 'passed',
        'tests/test_cart.py::CartTest::test_summary': 'passed',
        'tests/test_cart.py::CartTest::test_receipt': 'passed',
      });
      expect(result.patch).toContain(
        '-        return discount(self.subtotal(), self.percent)\n+        amount = self.subtotal()\n+        return discount(amount, self.percent)',
      );
      expect(result.patch.startsWith('--- a/shop/cart.py\n+++ b/shop/cart.py\n')).toBe(true);
      expect(events.find((e) => e.type === 'thm.approval')).toMatchObject({
        chosen: ['tests/test_cart.py::CartTest::test_total', 'tests/test_cart.py::CartTest::test_summary'],
        by: 'auto',
      });
      expect(events.find((e) => e.type === 'tests.hidden')).toMatchObject({
        hidden: ['tests/test_cart.py::CartTest::test_receipt'],
      });
      // The hidden test was out of the workspace while the agent worked.
      expect(toolMessages(server!.requests[1]!)[1]).toBe('Could not find code def test_receipt in the codebase.');
      // The first request holds the task, the selected tests' code and the tools.
      const first = server!.requests[0]!.body;
      const task = String((first.messages as { content: string }[])[1]!.content);
      expect(task).toContain('Implement `Cart.total` in `shop/cart.py`.');
      expect(task).toContain('def test_summary(self):');
      expect(task).not.toContain('test_receipt');
      expect((first.tools as { function: { name: string } }[]).map((t) => t.function.name)).toContain(
        'search_target_usage',
      );
      expect(phases(events)).toEqual(['pregen', 'validate', 'evaluate']);
    });

    it('fails, then is fixed in refinement attempt 2 after a debugger step (the three stages each time)', async () => {
      const { result, events } = await session(
        'anthropic',
        [
          submit(WRONG),
          { say: 'The total ignores the discount.' },
          { say: 'Cart.summary formats total(); nothing else applies a discount.' },
          submit(WRONG),
          {
            say: 'Let me check the value.',
            calls: [
              {
                name: 'run_debugger_cmd',
                arguments: {
                  cmd: `python -c "from shop.cart import Cart; print(Cart(percent=10).add('a', 10.0).total())"`,
                },
              },
            ],
          },
          { say: 'It returns 10.0: the percent is never applied.' },
          { say: 'discount() is imported from shop.pricing for exactly this.' },
          submit(RIGHT),
        ],
        {},
        sandbox,
      );
      expect(result).toMatchObject({
        pass: true,
        stopReason: 'passed',
        rounds: { pregen: 1, rrwAttempts: 2, total: 8 },
      });
      expect(phases(events)).toEqual([
        'pregen',
        'validate',
        'rrw 1 failure-identification',
        'rrw 1 context-review',
        'rrw 1 code-refinement',
        'validate 1',
        'rrw 2 failure-identification',
        'rrw 2 context-review',
        'rrw 2 code-refinement',
        'validate 2',
        'evaluate',
      ]);
      const debuggerEntry = events.find((e) => e.type === 'debugger.entry');
      expect(debuggerEntry).toMatchObject({ entry: { who: 'agent', output: '10.0', mode: 'shell' } });
      // The stage prompts reached the model, inside Anthropic user turns.
      const lastMessages = JSON.stringify(server!.requests.at(-1)!.body.messages);
      expect(lastMessages).toContain('Stage 1 — failure identification');
      expect(lastMessages).toContain('Stage 2 — context review');
      expect(lastMessages).toContain('Stage 3 — code refinement');
      expect(lastMessages).toContain('refinement attempt 2 of 5');
    });
  },
);

describe('the TENET agent against a fake model server (real SDK clients)', () => {
  it('stops when the budget is spent: no submission in pre-generation, then refinement that never passes', async () => {
    const none = await session('openai', [{ say: 'Thinking.' }, { say: 'Still thinking.' }], { pregenRounds: 2 });
    expect(none.result).toMatchObject({ pass: false, stopReason: 'no-implementation', usage: { modelCalls: 2 } });
    // The blank stays: every failing test still fails.
    expect(none.result.selectedTests).toEqual({ passed: 0, total: 2 });
    expect(JSON.stringify(server!.requests[1]!.body.messages)).toContain(
      'Call submit_implementation with the complete function now.',
    );
    await server!.close();
    server = undefined;
    const spent = await session('openai', [submit(WRONG), submit(WRONG)], { rrwAttempts: 1, rrwRounds: 1 });
    expect(spent.result).toMatchObject({ pass: false, stopReason: 'budget', rounds: { rrwAttempts: 1 } });
    expect(spent.result.patch).toContain('+        return self.subtotal()');
  });

  it('sends malformed tool JSON, unknown tools and wrong arguments back to the model as errors', async () => {
    const { result } = await session('openai', [
      {
        calls: [
          { name: 'search_class', arguments: '{"class_name": ' },
          { name: 'search_everything', arguments: {} },
          { name: 'read_file', arguments: { start_line: 'x' } },
        ],
      },
      submit(RIGHT),
    ]);
    expect(result.pass).toBe(true);
    const [malformed, unknown, wrong] = toolMessages(server!.requests[1]!);
    expect(malformed).toMatch(/^The arguments of search_class are not valid JSON/);
    expect(unknown).toMatch(
      /^Unknown tool search_everything\. Did you mean search_[a-z_]+\? Available tools: search_class,.*, submit_implementation, .*\.$/,
    );
    expect(wrong).toBe(
      'Wrong arguments for read_file:\n- file_name: Invalid input: expected string, received undefined\n- start_line: Invalid input: expected number, received NaN',
    );
  });

  it('retries a 429 and a stream cut mid-way, and goes on', async () => {
    const { result, events } = await session('anthropic', [
      { status: 429 },
      { say: 'I will implement it now and', cut: true },
      submit(RIGHT),
    ]);
    expect(result.pass).toBe(true);
    expect(events.filter((e) => e.type === 'model.retry').map((e) => e.type === 'model.retry' && e.reason)).toEqual([
      'rate limited (429): Rate limit reached',
      expect.stringMatching(/^connection lost/),
    ]);
    expect(result.usage.modelCalls).toBe(1);
  });
});

describe('the Reflective Refinement Workflow: stages enforced, not only prompted', () => {
  const offered = (index: number) =>
    (server!.requests[index]!.body.tools as { function: { name: string } }[]).map((t) => t.function.name);
  const search: FakeTurn = {
    calls: [{ name: 'search_method_in_class', arguments: { method_name: 'subtotal', class_name: 'Cart' } }],
  };

  it('attempt 1 goes through failure identification, context review and code refinement; a submission before stage 3 is refused', async () => {
    const { result, events } = await session('openai', [
      submit(WRONG),
      { say: 'I know the fix already.', calls: [{ name: 'submit_implementation', arguments: { code: RIGHT } }] },
      { say: 'The total ignores the discount.' },
      { say: 'Cart.summary formats total(); discount() in shop.pricing applies a percent.' },
      submit(RIGHT),
    ]);
    expect(result).toMatchObject({ pass: true, stopReason: 'passed', rounds: { pregen: 1, rrwAttempts: 1, total: 5 } });
    expect(phases(events)).toEqual([
      'pregen',
      'validate',
      'rrw 1 failure-identification',
      'rrw 1 context-review',
      'rrw 1 code-refinement',
      'validate 1',
      'evaluate',
    ]);
    // The stage-1 submission got a refusal the model can act on, and was no submission.
    expect(events.find((e) => e.type === 'tool.result' && e.name === 'submit_implementation' && !e.ok)).toMatchObject({
      text: 'submit_implementation is not available in stage 1 (failure identification): the refinement workflow takes submissions in stage 3 (code refinement). Answer without a tool call to end this stage.',
    });
    const accepted = events.flatMap((e, i) => (e.type === 'submission' && e.ok ? [i] : []));
    expect(accepted).toHaveLength(2);
    const refinement = events.findIndex((e) => e.type === 'agent.phase' && e.stage === 'code-refinement');
    expect(accepted[1]).toBeGreaterThan(refinement);
    // Every stage is offered the same tools, byte for byte (they head the cached prefix): stages 1
    // and 2 refuse the submitter instead of leaving it out.
    expect(offered(1)).toContain('submit_implementation');
    expect(offered(1)).toContain('run_debugger_cmd');
    const tools = server!.requests.map((request) => JSON.stringify(request.body.tools));
    expect(new Set(tools).size).toBe(1);
  });

  it("a stage whose rounds are used up ends; the attempt's rounds are shared, and code refinement always keeps one", async () => {
    // 3 rounds: failure identification may use 1, context review up to the 2nd, refinement the 3rd.
    const { result, events } = await session('openai', [submit(WRONG), search, search, submit(RIGHT)], {
      rrwRounds: 3,
    });
    expect(phases(events)).toEqual([
      'pregen',
      'validate',
      'rrw 1 failure-identification',
      'rrw 1 context-review',
      'rrw 1 code-refinement',
      'validate 1',
      'evaluate',
    ]);
    expect(result).toMatchObject({ pass: true, rounds: { pregen: 1, rrwAttempts: 1, total: 4 } });
    await server!.close();
    // One round per attempt: it goes to code refinement.
    const tight = await session('openai', [submit(WRONG), submit(RIGHT)], { rrwRounds: 1 });
    expect(phases(tight.events)).toEqual(['pregen', 'validate', 'rrw 1 code-refinement', 'validate 1', 'evaluate']);
    expect(tight.result.pass).toBe(true);
  });
});

describe("the developer's decisions, recorded as events", () => {
  const debuggerCall = (cmd: string): FakeTurn => ({ calls: [{ name: 'run_debugger_cmd', arguments: { cmd } }] });
  const of = <T extends EngineEvent['type']>(events: EngineEvent[], type: T) =>
    events.filter((e): e is EventOf<T> => e.type === type);

  it('shell commands: approved, approved for the session, denied; Esc stops the agent and the pending call still gets its result', async () => {
    const answers: CommandDecision[] = [
      { run: true },
      { run: true, session: true },
      { run: false, reason: 'not that one' },
      { stop: true },
    ];
    const pilot: Pilot = { ...headlessPilot(false), approveCommand: async () => answers.shift()! };
    const { result, events } = await session(
      'openai',
      [
        debuggerCall('echo one'),
        debuggerCall('echo two'),
        debuggerCall('echo three'),
        debuggerCall('echo four'),
        submit(RIGHT),
      ],
      {},
      LOCAL,
      { pilot },
    );
    expect(of(events, 'command.approval').map((e) => [e.command, e.decision, e.reason])).toEqual([
      ['echo one', 'approved', undefined],
      ['echo two', 'approved-session', undefined],
      ['echo three', 'denied', 'not that one'],
      ['echo four', 'stopped', undefined],
    ]);
    expect(result.stopReason).toBe('cancelled');
    // Every call that started has its result: nothing shows as running forever.
    const results = new Map(of(events, 'tool.result').map((e) => [e.id, e]));
    expect(of(events, 'tool.call').filter((c) => !results.has(c.id))).toEqual([]);
    const last = of(events, 'tool.call').at(-1)!;
    expect(results.get(last.id)).toMatchObject({ ok: false, text: 'Not run to the end: stopped by the developer.' });
    expect(foldEvents(events).unansweredCalls).toEqual([]);
  });

  it('the patch: accepted and applied; accepted but refused when the checkout changed meanwhile', async () => {
    const repo = copyFixture('shop');
    const file = join(repo.dir, 'shop', 'cart.py');
    try {
      const applied = await session('openai', [submit(RIGHT)], {}, LOCAL, {
        repo: repo.dir,
        pilot: { ...headlessPilot(false), acceptPatch: async () => 'accept' },
      });
      expect(of(applied.events, 'patch.decision')).toEqual([
        { type: 'patch.decision', decision: 'accept', applied: true },
      ]);
      expect(applied.result.applied).toBe(true);
      expect(readFileSync(file, 'utf8')).toContain('amount = self.subtotal()');

      await server!.close();
      // The developer edits the file while the run goes on; accepting must not overwrite that.
      const edit = async () => (appendFileSync(file, '# edited meanwhile\n'), true);
      const refused = await session('openai', [submit(WRONG)], { rrwAttempts: 0 }, LOCAL, {
        repo: repo.dir,
        pilot: { ...headlessPilot(false), acceptPatch: edit },
      });
      expect(of(refused.events, 'patch.decision')).toEqual([
        {
          type: 'patch.decision',
          decision: 'accept',
          applied: false,
          reason: expect.stringContaining('changed in the checkout since the run started'),
        },
      ]);
      expect(refused.result.applied).toBe(false);
      expect(refused.events.at(-1)).toMatchObject({ type: 'result', applied: false });
      expect(readFileSync(file, 'utf8')).toContain('# edited meanwhile');
    } finally {
      repo.cleanup();
    }
  });
});
