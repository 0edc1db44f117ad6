import { describe, expect, it } from 'vitest';
import { pdbTest } from '../../source/engine/agent/tenet-strategy';
import type { EngineEvent, EventOf } from '../../source/engine/events';
import { runCli } from '../helpers/cli';
import type { FakeModelServer } from '../helpers/fake-model-server';
import { shopScratch } from '../helpers/shop-scratch';

// Failure identification suggests `python -m pytest TEST --pdb`: TEST must be one that fails, or the
// model debugs a passing test. Here the first selected test passes and the others fail.

/** Equal to 9.0, so test_total passes; formatted as "?", so the summary and the receipt fail. */
const HALF_RIGHT =
  'def total(self):\n    class Odd(float):\n        def __format__(self, spec):\n            return "?"\n    return Odd(discount(self.subtotal(), self.percent))\n';

const { repo, start, envFor } = shopScratch('tenet-pdb-example-');
let server: FakeModelServer | undefined;

describe('the stage-1 prompt', () => {
  it('names a selected test that failed the validation, not the first selected one when it passed', async () => {
    server = await start([
      { say: 'Submitting.', calls: [{ name: 'submit_implementation', arguments: { code: HALF_RIGHT } }] },
    ]);
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
        'all',
        '--provider',
        'openai',
        '--model',
        'gpt-4.1-mini',
        '--rrw-attempts',
        '1',
        '--rrw-rounds',
        '3',
        '--json',
        '--tests',
        'tests/test_cart.py',
      ],
      { env },
    );
    const events = out.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as EngineEvent);
    const selected = events.find((e): e is EventOf<'thm.approval'> => e.type === 'thm.approval')!.chosen;
    const validation = events.find(
      (e): e is EventOf<'tests.run'> => e.type === 'tests.run' && e.purpose === 'validate',
    )!;
    // The case this guards: the first selected test passes.
    expect(validation.outcomes[selected[0]!], out.stderr).toBe('passed');
    const failing = selected.filter((t) => validation.outcomes[t] === 'failed');
    expect(failing.length).toBeGreaterThan(0);
    const prompt = events
      .filter((e): e is EventOf<'model.request'> => e.type === 'model.request')[1]!
      .newMessages.findLast((m) => m.role === 'user')!.content;
    expect(prompt).toContain(`python -m pytest ${failing[0]} --pdb`);
  }, 120_000);

  it('pdbTest: a failure first, then an error or any test not passed, then the first selected', () => {
    expect(pdbTest(['a', 'b', 'c'], { a: 'passed', b: 'skipped', c: 'error' })).toBe('c');
    expect(pdbTest(['a', 'b'], { a: 'passed', b: 'not run' })).toBe('b');
    expect(pdbTest(['a', 'b'], undefined)).toBe('a');
    expect(pdbTest([], {})).toBe('');
  });
});
