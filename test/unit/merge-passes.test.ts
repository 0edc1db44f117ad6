import { describe, expect, it } from 'vitest';
import { mergePasses } from '../../source/engine/thm/merge-passes';
import type { PassResult } from '../../source/engine/thm/pass-types';
import type { PluginTestEvent } from '../../source/engine/thm/plugin-lines';
import { emptyPass } from '../../source/engine/thm/pytest-pass';
import { judgedLanes } from '../../source/engine/thm/thm-options';
import { lanesForCores } from '../../source/engine/thm/run-thm';

const test = (nodeid: string, order?: number, outcome: PluginTestEvent['outcome'] = 'passed'): PluginTestEvent => ({
  e: 'test',
  nodeid,
  ...(order !== undefined ? { order } : {}),
  outcome,
  phase: 'call',
  message: '',
  longrepr: '',
  file: null,
  line: null,
  durationMs: 1,
  chain: null,
  entryKind: null,
  timedOut: false,
});

const pass = (tests: PluginTestEvent[], extra: Partial<PassResult> = {}): PassResult => ({
  ...emptyPass(1),
  collected: 6,
  tests: new Map(tests.map((t) => [t.nodeid, t])),
  targetLoaded: true,
  ...extra,
});

describe("a judged run's lanes merged into one run", () => {
  it("orders the tests as one process ran them (a file's chunks in two lanes), those without a place last", () => {
    const merged = mergePasses([
      pass([test('t.py::a', 0), test('t.py::b', 1), test('u.py::e', 4)]),
      pass([test('t.py::c', 2), test('t.py::d', 3, 'failed'), test('v.py::lost')]),
    ]);
    expect([...merged.tests.keys()]).toEqual(['t.py::a', 't.py::b', 't.py::c', 't.py::d', 'u.py::e', 'v.py::lost']);
    expect(merged).toMatchObject({ shards: 2, collected: 6 });
  });

  it('a trip or a forged report in any lane is the whole run’s, and a problem every lane met is said once', () => {
    const trip = { e: 'tripped' as const, event: 'gc.get_objects', detail: '', file: 'p.py', line: 3 };
    const merged = mergePasses([
      pass([test('a', 0)], { problems: ['pytest exited with code 4'] }),
      pass([test('b', 1)], { tripped: [trip], forged: 'an unsigned line', problems: ['pytest exited with code 4'] }),
    ]);
    expect(merged).toMatchObject({
      tripped: [trip],
      forged: 'an unsigned line',
      problems: ['pytest exited with code 4'],
    });
  });

  it('an abort or a timeout in any lane is the run’s', () => {
    expect(mergePasses([pass([]), pass([], { aborted: true })]).aborted).toBe(true);
    expect(mergePasses([pass([], { timedOut: true }), pass([])]).timedOut).toBe(true);
  });
});

describe('how many lanes a judged run takes', () => {
  it('a few tests stay in one process; --jobs caps the lanes; auto is THM’s count', () => {
    expect(judgedLanes(4, 3)).toBe(1);
    expect(judgedLanes(4, 17)).toBe(2);
    expect(judgedLanes(2, 600)).toBe(2);
    expect(judgedLanes(1, 600)).toBe(1);
    expect(judgedLanes('auto', 600)).toBe(lanesForCores());
  });
});
