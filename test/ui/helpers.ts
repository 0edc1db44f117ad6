import type { ThmReport } from '../../source/engine/thm/report';

export const tick = (ms = 30) => new Promise((r) => setTimeout(r, ms));

export const KEYS = { up: '\u001B[A', down: '\u001B[B', right: '\u001B[C', left: '\u001B[D', enter: '\r', escape: '\u001B', space: ' ', tab: '\t', backspace: '\u007F' };

const test = (nodeid: string, chain: string[]) => ({
  nodeid, reached: chain.length > 0, chain, chainLines: chain.map(() => 1), depth: chain.length ? chain.length - 1 : null, caller: chain.length ? chain[chain.length - 2]! : null,
  entryKind: chain.length ? ('test' as const) : null, outcome: 'failed' as const, phase: 'call', message: 'NotImplementedError', longrepr: '', file: null, line: null, timedOut: false, crashed: false,
});

/** A small THM report: two clusters (one of two tests), and a test that never reached the target. */
export function sampleReport(): ThmReport {
  return {
    target: 'm.py::f', mode: 'stub', T: 2, testArgs: [], python: { executable: 'python3', version: '3.11', pytest: '9' },
    failing: [
      test('t.py::test_direct', ['t.py::test_direct', 'm.py::f']),
      test('t.py::test_a', ['t.py::test_a', 'm.py::g', 'm.py::f']),
      test('t.py::test_b', ['t.py::test_b', 'm.py::h', 'm.py::g', 'm.py::f']),
      test('t.py::test_subprocess', []),
    ],
    clusters: [
      { caller: 't.py::test_direct', tests: ['t.py::test_direct'], representative: 't.py::test_direct', depth: 1 },
      { caller: 'm.py::g', tests: ['t.py::test_a', 't.py::test_b'], representative: 't.py::test_a', depth: 2 },
    ],
    selected: ['t.py::test_direct', 't.py::test_a'],
    counts: { collected: 9, passed: 5, skipped: 0, failing: 4, unreached: 1, alreadyFailing: 0, collectionErrors: 0, crashed: 0, timedOut: 0 },
    alreadyFailing: [], warnings: [], shards: 1, fork: false, timings: { probeMs: 1, originalMs: 0, blankMs: 0 }, timedOut: false, durationMs: 1200,
  };
}
