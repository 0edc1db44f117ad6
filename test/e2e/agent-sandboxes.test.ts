import { describe, expect, it } from 'vitest';
import { SANDBOXES } from '../helpers/sandboxes';
import { RIGHT, WRONG, phases, server, session, submit, toolMessages } from '../helpers/agent-session';

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
