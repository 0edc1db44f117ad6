import { describe, expect, it } from 'vitest';
import { hiddenWords } from '../../source/engine/phrase-book';

// Issue 46.10: the page said `2 other failing tests hidden from the agent until evaluation` while the
// result said `hidden tests 31/31`: the page counted the tests taken out of the agent's view, the
// result every failing test the agent was not given. One count, the same everywhere: the result's.

describe('the failing tests the agent was not given', () => {
  it('are counted as the result counts its hidden tests, with how many stayed in view', () => {
    const hidden = Array.from({ length: 2 }, (_, i) => `t.py::h${i}`);
    const words = hiddenWords({ hidden, visible: 29 });
    expect(words).toMatch(/^31 other failing tests not given to the agent \(the evaluation's hidden tests\)/);
    expect(words).toContain('2 out of its view until the evaluation, 29 still in view');
  });
  it('all taken out of view: the same words as before', () => {
    expect(hiddenWords({ hidden: ['a', 'b'] })).toBe(
      '2 other failing tests hidden from the agent until the evaluation',
    );
  });
});
