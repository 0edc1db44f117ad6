import type { EngineEvent } from '../../source/engine/events';
import type { SessionConfig } from '../../source/engine/protocol/settings';
import type { ThmReport } from '../../source/engine/protocol/thm-report';

export const KEYS = {
  pageUp: '\u001B[5~',
  pageDown: '\u001B[6~',
  home: '\u001B[H',
  end: '\u001B[F',
  ctrlC: '\u0003',
  up: '\u001B[A',
  down: '\u001B[B',
  right: '\u001B[C',
  left: '\u001B[D',
  enter: '\r',
  escape: '\u001B',
  space: ' ',
  tab: '\t',
  backspace: '\u007F',
};

const test = (nodeid: string, chain: string[]) => ({
  nodeid,
  reached: chain.length > 0,
  chain,
  chainLines: chain.map(() => 1),
  depth: chain.length ? chain.length - 1 : null,
  caller: chain.length ? chain[chain.length - 2]! : null,
  entryKind: chain.length ? ('test' as const) : null,
  outcome: 'failed' as const,
  phase: 'call',
  message: 'NotImplementedError',
  longrepr: '',
  file: null,
  line: null,
  timedOut: false,
  crashed: false,
});

/** The settings a session.start records, as a run with the paper's defaults would. */
export const sampleConfig = (): SessionConfig => ({
  provider: 'openai',
  model: 'm',
  temperature: 0,
  maxTokens: 4096,
  budget: { pregenRounds: 15, rrwAttempts: 5, rrwRounds: 15 },
  ablations: { noThm: false, noApis: false, noRrw: false },
});

/** A small THM report: two clusters (one of two tests), and a test that never reached the target. */
export function sampleReport(): ThmReport {
  return {
    target: 'm.py::f',
    mode: 'stub',
    T: 2,
    testArgs: [],
    python: { executable: 'python3', version: '3.11', pytest: '9' },
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
    counts: {
      collected: 9,
      passed: 5,
      skipped: 0,
      failing: 4,
      unreached: 1,
      alreadyFailing: 0,
      collectionErrors: 0,
      crashed: 0,
      timedOut: 0,
    },
    alreadyFailing: [],
    warnings: [],
    shards: 1,
    twins: false,
    timings: { probeMs: 1, originalMs: 0, blankMs: 0 },
    timedOut: false,
    durationMs: 1200,
  };
}

/** ink-testing-library's terminal is 100 columns and has no rows: give it a size, as a resize would. */
export function resize(stdout: NodeJS.EventEmitter, columns: number, rows: number): void {
  Object.defineProperty(stdout, 'columns', { value: columns, configurable: true });
  Object.defineProperty(stdout, 'rows', { value: rows, configurable: true });
  stdout.emit('resize');
}

/** A frame's rows (ink-testing-library's frames have no trailing newline). */
export const rowsOf = (frame: string | undefined) => (frame ?? '').split('\n');

/**
 * THM's report on a large suite: `clusters` clusters of two tests each, every chain `depth` frames
 * deep through long qualified names (like networkx's dispatch wrappers), so chains wrap.
 */
export function largeReport(clusters = 12, depth = 4): ThmReport {
  const base = sampleReport();
  const failing = [];
  const groups = [];
  for (let c = 0; c < clusters; c++) {
    const caller = `pkg/utils/backends.py::_dispatchable._call_if_no_backends_installed_${c}`;
    const tests = [0, 1].map(
      (t) => `pkg/algorithms/shortest_paths/tests/test_generic_${c}.py::TestGenericPath::test_has_path_${t}`,
    );
    for (const nodeid of tests) {
      const chain = [
        nodeid.replace('::TestGenericPath::', '::TestGenericPath.'),
        ...Array.from(
          { length: depth - 2 },
          (_, i) => `<class 'pkg.utils.decorators.argmap'> compilation::argmap_has_path_${i}`,
        ),
        caller,
        'pkg/algorithms/shortest_paths/generic.py::has_path',
      ];
      failing.push({
        ...base.failing[1]!,
        nodeid,
        chain,
        chainLines: chain.map(() => 1),
        depth: chain.length - 1,
        caller,
        longrepr: `${nodeid}:3: in test\n    assert has_path(G, 0, 0)\nE   NotImplementedError`,
      });
    }
    groups.push({ caller, tests, representative: tests[0]!, depth: depth });
  }
  return {
    ...base,
    target: 'pkg/algorithms/shortest_paths/generic.py::has_path',
    T: 3,
    failing,
    clusters: groups,
    selected: groups.slice(0, 3).map((g) => g.representative),
    counts: { ...base.counts, collected: 4000, passed: 4000 - failing.length, failing: failing.length, unreached: 0 },
  };
}

/**
 * Lets React run what a render scheduled: the effects that subscribe a newly drawn component to
 * keys, and what those effects start. Not a pause of some milliseconds: the event loop's turns
 * that React's scheduler queued its work on (setImmediate in Node), then one timer turn.
 */
export async function settle(): Promise<void> {
  for (let i = 0; i < 3; i++) await new Promise((r) => setImmediate(r));
  await new Promise((r) => setTimeout(r, 0));
}

/**
 * Waits until `check` holds (a frame shows what a key should have drawn), polling: on a loaded
 * machine a fixed pause is sometimes too short. Throws with the last frame after `timeoutMs`.
 * Then lets the effects of that frame run (settle): a frame is drawn before React runs the effects
 * that subscribe the new components to keys, and a key sent before them would be lost.
 */
export async function until(check: () => boolean, describe: () => string = () => '', timeoutMs = 5000): Promise<void> {
  // performance's clock, not Date's: a test may hold Date still (vi.useFakeTimers({ toFake: ['Date'] })).
  const started = performance.now();
  while (!check()) {
    if (performance.now() - started > timeoutMs) throw new Error(`timed out; the last frame:\n${describe()}`);
    await new Promise((r) => setTimeout(r, 10));
  }
  await settle();
}

/** Waits until the last frame contains `text` (or matches it). */
export const frameShows = (lastFrame: () => string | undefined, text: string | RegExp, timeoutMs?: number) =>
  until(
    () => (typeof text === 'string' ? (lastFrame() ?? '').includes(text) : text.test(lastFrame() ?? '')),
    () => lastFrame() ?? '',
    timeoutMs,
  );

/** Waits until the last frame no longer contains `text`: what a key closed is gone. */
export const frameLacks = (lastFrame: () => string | undefined, text: string, timeoutMs?: number) =>
  until(
    () => !(lastFrame() ?? '').includes(text),
    () => lastFrame() ?? '',
    timeoutMs,
  );

/**
 * Types `text` a key at a time, as a person does (a chunk of several keys is a paste): each key
 * once the one before is drawn and its effects have run, so that a field whose key handler is
 * set anew on each render never gets a key on the handler of the frame before.
 */
export async function typeKeys(ui: { stdin: { write(data: string): void }; frames: string[] }, text: string) {
  for (const char of text) {
    const drawn = ui.frames.length;
    ui.stdin.write(char);
    await until(
      () => ui.frames.length > drawn,
      () => ui.frames.at(-1) ?? '',
    );
  }
}

/**
 * THM's report on click-like suite: one cluster of `size` tests behind one caller (long ids in a
 * deep folder), and a small second cluster.
 */
export function bigClusterReport(size = 236): ThmReport {
  const base = sampleReport();
  const id = (i: number) =>
    `tests/integration/formatting/test_text_wrapping_behaviour.py::TestWrapText::test_wrap_text_case_${String(i).padStart(3, '0')}`;
  const caller = 'src/click/formatting.py::HelpFormatter.write_text';
  const tests = Array.from({ length: size }, (_, i) => id(i + 1));
  const failing = tests.map((nodeid) => {
    const chain = [nodeid, caller, 'src/click/formatting.py::wrap_text'];
    return { ...base.failing[1]!, nodeid, chain, chainLines: chain.map(() => 1), depth: 2, caller };
  });
  const small = 'tests/test_basic.py::test_echo';
  failing.push({
    ...base.failing[0]!,
    nodeid: small,
    chain: [small, 'src/click/formatting.py::wrap_text'],
    chainLines: [1, 1],
    depth: 1,
    caller: small,
  });
  return {
    ...base,
    target: 'src/click/formatting.py::wrap_text',
    T: 2,
    failing,
    clusters: [
      { caller: small, tests: [small], representative: small, depth: 1 },
      { caller, tests, representative: tests[0]!, depth: 2 },
    ],
    selected: [small, tests[0]!],
    counts: { ...base.counts, collected: 2016, passed: 2016 - failing.length, failing: failing.length, unreached: 0 },
  };
}

/** A session's start, as a live OpenAI run of the paper's defaults records it. */
export const sampleStart = (): EngineEvent => ({
  type: 'session.start',
  sessionId: 's1',
  target: 'm.py::f',
  mode: 'stub',
  strategy: 'tenet',
  model: 'm',
  modelLabel: 'gpt-test (OpenAI)',
  provider: 'openai',
  repo: '/r',
  config: sampleConfig(),
});

/** From the start to the agent's first phase: THM's proposal approved as it was. */
export const approvedStart = (): EngineEvent[] => [
  sampleStart(),
  { type: 'thm.report', report: sampleReport() },
  { type: 'thm.approval', proposed: sampleReport().selected, chosen: sampleReport().selected, by: 'auto', T: 2 },
  { type: 'agent.phase', phase: 'pregen', rounds: 15 },
];
