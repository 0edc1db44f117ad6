import type { Key } from 'ink';
import { describe, expect, it } from 'vitest';
import { QUIT_LIVE_NOTICE } from '../../source/ui/keys';
import {
  initialReview,
  reviewKey,
  selectionNow,
  type ReviewContext,
  type ReviewEffect,
  type ReviewState,
} from '../../source/ui/screens/thm-review';
import { sampleReport } from './helpers';

// Issue 38's pass over the THM review: its keys are one pure function over one state, tested here
// without rendering; a burst of keys goes through it key by key.

const context = (more: Partial<ReviewContext> = {}): ReviewContext => ({
  report: sampleReport(),
  filter: '',
  developer: [],
  page: 10,
  canWrite: true,
  canShowSource: true,
  ...more,
});

/** Keys in order, each from the state the one before left; the effects they asked for. */
function press(keys: [string, Partial<Key>?][], ctx = context(), from: ReviewState = initialReview) {
  const effects: ReviewEffect[] = [];
  const state = keys.reduce((at, [input, key]) => {
    const { state: next, effect } = reviewKey(at, input, key ?? {}, ctx);
    if (effect) effects.push(effect);
    return next;
  }, from);
  return { state, effects };
}

describe('the THM review as a pure function of its keys', () => {
  // Rows of the sample: ▾ test_direct's cluster, its test, ▸ m.py::g, then the unreached heading and test.
  it('a burst of ↓, space, + and Enter approves what the keys chose, each acting on what the one before left', () => {
    const picked = press([['', { downArrow: true }], ['', { downArrow: true }], [' '], ['+']]);
    expect(picked.state.cursor).toBe(2);
    // Space on m.py::g's cluster took its representative out; + made T=3 and kept the pick.
    expect(picked.state.budget).toBe(3);
    expect(picked.state.notice).toContain('T=3: THM proposed again, and kept your picks');
    const { state, effects } = press([['', { return: true }]], context(), picked.state);
    // At T=3 THM proposes test_b too (filling by the shortest chain); test_a stays out, by hand.
    expect(effects).toEqual([
      { kind: 'approve', choice: { chosen: ['t.py::test_direct', 't.py::test_b'], by: 'human', T: 3 } },
    ]);
    expect(selectionNow(state, context())).toEqual(['t.py::test_direct', 't.py::test_b']);
  });

  it('→ opens a cluster and ← closes it from any of its tests, the cursor back on the cluster', () => {
    const opened = press([
      ['', { downArrow: true }],
      ['', { downArrow: true }],
      ['', { rightArrow: true }],
      ['', { downArrow: true }],
    ]);
    expect([...opened.state.expanded!]).toEqual(['t.py::test_direct', 'm.py::g']);
    const closed = press([['', { leftArrow: true }]], context(), opened.state);
    expect([...closed.state.expanded!]).toEqual(['t.py::test_direct']);
    expect(closed.state.cursor).toBe(2);
  });

  it('q says what quits (nothing here does), and the next key clears it; / opens the filter with what was typed with it', () => {
    const quit = press([['q']]);
    expect(quit.state.notice).toBe(QUIT_LIVE_NOTICE);
    expect(press([['', { downArrow: true }]], context(), quit.state).state.notice).toBeUndefined();
    expect(press([['/gross']]).effects).toEqual([{ kind: 'filter', text: 'gross' }]);
    expect(press([['', { escape: true }]], context({ filter: 'x' })).effects).toEqual([{ kind: 'clear-filter' }]);
  });

  it('n and e ask for the editor only where it can open; v a test source; a approves THM’s proposal as it is', () => {
    expect(press([['n'], ['e']]).effects).toEqual([{ kind: 'write' }, { kind: 'write', nodeid: 't.py::test_direct' }]);
    expect(press([['n']], context({ canWrite: false })).effects).toEqual([]);
    expect(press([['v']]).effects).toEqual([{ kind: 'source', nodeid: 't.py::test_direct' }]);
    expect(press([[' '], ['a']]).effects).toEqual([
      { kind: 'approve', choice: { chosen: ['t.py::test_direct', 't.py::test_a'], by: 'human', T: 2 } },
    ]);
  });
});
