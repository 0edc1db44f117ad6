import { describe, expect, it, vi } from 'vitest';
import { progressLine } from '../../source/commands/progress-line';
import { join } from 'node:path';
import { textPrinter } from '../../source/commands/run-printer';
import { loadEvents } from '../../source/engine/session/event-log';
import { ROOT } from '../helpers/fixtures';
import type { EngineEvent, RunResult } from '../../source/engine/events';
import { failingWords, stopLabel, verdictLabel } from '../../source/engine/phrase-book';
import { formatThmReport } from '../../source/commands/format-thm';
import { sampleReport } from '../ui/helpers';
import { sessionPage } from '../../source/engine/session/export-html';
import type { SessionPageData } from '../../source/engine/session/page-data';
import { markdownTranscript } from '../../source/engine/session/transcript';
import { verdictText } from '../../source/ui/screens/result-screen';
import { initialView, reduceView } from '../../source/ui/view-state';

/** What each renderer makes of `events`: the printer's lines, the transcript, the TUI's transcript items. */
function rendered(events: EngineEvent[]): { printed: string; shown: string; items: string[] } {
  let printed = '';
  const print = textPrinter((text) => (printed += text));
  for (const event of events) print(event);
  const view = events.reduce((state, event) => reduceView(state, event, 0), initialView());
  return {
    printed,
    shown: markdownTranscript('s', events),
    items: view.agent.items.map((item) => ('text' in item ? item.text : '')),
  };
}

describe('the phrase book: the renderers word events alike', () => {
  it.each([
    [{ type: 'agent.phase', phase: 'tdd-setup', rounds: 15 }, 'tests first'],
    [{ type: 'agent.phase', phase: 'tdd', round: 2, rounds: 10 }, 'test run 2/10'],
    [{ type: 'agent.phase', phase: 'quality' }, "measuring the agent's tests"],
    [{ type: 'agent.phase', phase: 'rrw', attempt: 1, attempts: 5, stage: 'context-review' }, 'refinement attempt 1/5'],
    // A headless resume said nothing of where it went on from (its log has no new session.start).
    [
      {
        type: 'session.resumed',
        fromSeq: 9,
        position: 'pre-generation, after 2 rounds',
        provider: 'scripted',
        model: 'scripted',
      },
      'resumed pre-generation, after 2 rounds with scripted/scripted',
    ],
  ] as [EngineEvent, string][])('%o', (event, words) => {
    const { printed, shown, items } = rendered([event]);
    for (const text of [printed, shown, items.join('\n')]) expect(text.toLowerCase()).toContain(words);
  });

  it('the failing tests kept from the agent: how many are hidden, and how many stay in view and why, in the printer and the transcript', () => {
    const { printed, shown } = rendered([
      { type: 'tests.hidden', hidden: ['t.py::a', 't.py::b'], files: ['t.py'], visible: 1 },
    ]);
    const words =
      "3 other failing tests not given to the agent (the evaluation's hidden tests): 2 out of its view until the evaluation, 1 still in view (its function serves a test the agent gets, or tenet could not find it)";
    expect(printed).toBe(`${words}\n`);
    expect(shown).toContain(`${words.charAt(0).toUpperCase()}${words.slice(1)}.`);
    expect(rendered([{ type: 'tests.hidden', hidden: [], files: [], visible: 3 }]).printed).toBe(
      "3 other failing tests not given to the agent (the evaluation's hidden tests): all stay in view (their functions serve a test the agent gets, or tenet could not find them)\n",
    );
  });

  it("THM's line counts one test and one cluster in the singular", () => {
    const report = {
      counts: { collected: 1, failing: 1, unreached: 0 },
      failing: [{ nodeid: 't.py::test_a', reached: true }],
      clusters: [{}],
      durationMs: 1200,
    };
    let printed = '';
    textPrinter((text) => (printed += text))({ type: 'thm.report', report } as unknown as EngineEvent);
    expect(printed).toBe('THM: 1 test · 1 failing (0 unreached) · 1 cluster · 1.2 s\n');
  });

  it("THM's failing count says which of it is a test module whose import fails blank (one entry, not among the tests in scope), in the printer and the TUI alike", () => {
    const report = {
      mode: 'blank',
      counts: { collected: 3, passed: 1, failing: 3, unreached: 0 },
      clusters: [{}, {}],
      durationMs: 800,
      failing: [
        { nodeid: 't.py::test_a', reached: true },
        { nodeid: 't.py::test_b', reached: true },
        { nodeid: 'test_table.py', reached: true },
      ],
      importErrors: [
        { module: 'test_table.py', message: 'NotImplementedError', broken: false },
        { module: 'test_paths.py', message: 'ModuleNotFoundError', broken: true },
      ],
    };
    let printed = '';
    textPrinter((text) => (printed += text))({ type: 'thm.report', report } as unknown as EngineEvent);
    expect(printed).toBe('THM: 3 tests · 3 failing (0 unreached, 1 of them a module) · 2 clusters · 0.8 s\n');
  });

  it("tenet thm's text spells the failing count's notes out, in the words of its mode", () => {
    expect(formatThmReport(sampleReport())).toContain(' · 4 failing (1 never reached the target)\n');
    expect(failingWords({ failing: 5, unreached: 1, modules: 2 }, { spelledOut: 'stub' })).toBe(
      '5 failing (1 never reached the target; 2 of them test modules that fail to import stubbed)',
    );
    expect(failingWords({ failing: 5, unreached: 0, modules: 0 }, { spelledOut: 'blank' })).toBe('5 failing');
  });

  it('an ablation says which one chose the tests', () => {
    const start: EngineEvent = {
      type: 'session.start',
      sessionId: 's',
      target: 'm.py::f',
      mode: 'blank',
      strategy: 'tenet',
      model: 'm',
      modelLabel: 'm',
      provider: 'openai',
      repo: '/r',
      config: {
        provider: 'openai',
        model: 'm',
        temperature: 0,
        maxTokens: 1,
        budget: { pregenRounds: 1, rrwAttempts: 1, rrwRounds: 1 },
        ablations: { noThm: false, noApis: false, noRrw: false },
        select: 'longest',
      },
    };
    const { printed, shown } = rendered([
      start,
      { type: 'thm.approval', proposed: ['t::a'], chosen: ['t::b'], by: 'ablation', T: 1 },
    ]);
    expect(printed).toContain('tests the agent sees (chosen by --select longest)');
    expect(shown).toContain('Tests given to the agent (chosen by --select longest)');
  });

  it("a failed call's line is printed whole: an unknown tool's list of tools reaches the submission tools", () => {
    const tools = [
      'search_class',
      'search_class_in_file',
      'search_method',
      'search_method_in_class',
      'search_method_in_file',
      'search_code',
      'read_file',
      'submit_implementation',
      'finish',
    ];
    const text = `Unknown tool submit_code. Did you mean submit_implementation? Available tools: ${tools.join(', ')}.`;
    const { printed } = rendered([
      { type: 'tool.call', id: 'c1', name: 'submit_code', arguments: '{}' },
      { type: 'tool.result', id: 'c1', name: 'submit_code', ok: false, text, durationMs: 1 },
      { type: 'tool.call', id: 'c2', name: 'read_file', arguments: '{}' },
      { type: 'tool.result', id: 'c2', name: 'read_file', ok: true, text: 'x'.repeat(300), durationMs: 1 },
    ]);
    expect(printed).toContain(`    ✗ ${text}\n`);
    // A result that went well is still one short line.
    expect(printed).toContain(`    ✓ ${'x'.repeat(139)}…\n`);
  });

  it("the progress line names twin mode's blank re-run as such", () => {
    let written = '';
    const stream = {
      isTTY: true,
      columns: 200,
      write: (text: string) => (written += text),
    } as unknown as NodeJS.WriteStream;
    const progress = progressLine(stream);
    progress.onEvent({ type: 'thm.phase', phase: 'blank', tests: 2 });
    progress.clear();
    expect(written).toContain('running blank the tests twin mode could not decide');
    expect(written).not.toContain('original code');
  });

  it('not in a terminal (a CI log), the progress is a plain line every 15 seconds of a phase, not a redrawn one', () => {
    vi.useFakeTimers({ now: 0 });
    try {
      const lines: string[] = [];
      const progress = progressLine({
        isTTY: false,
        write: (text: string) => void lines.push(text),
      } as unknown as NodeJS.WriteStream);
      progress.onEvent({ type: 'thm.phase', phase: 'probe' });
      progress.onEvent({ type: 'thm.collected', phase: 'probe', total: 560 });
      const test = (at: number, outcome: string) => {
        vi.setSystemTime(at);
        progress.onEvent({
          type: 'thm.test',
          phase: 'probe',
          nodeid: `t.py::t${at}`,
          outcome,
          reached: true,
          durationMs: 1,
        });
      };
      test(5_000, 'failed');
      expect(lines).toEqual([]);
      test(15_500, 'passed');
      test(20_000, 'passed');
      test(31_000, 'failed');
      expect(lines).toEqual([
        'THM: 2/560 tests · 1 failing · 16 s · running the suite against the unimplemented target\n',
        'THM: 4/560 tests · 2 failing · 31 s · running the suite against the unimplemented target\n',
      ]);
      progress.clear();
      expect(lines).toHaveLength(2);
    } finally {
      vi.useRealTimers();
    }
  });

  it('tokens and cost: the share read from the prompt cache and what caching saved, the same in the printer and in show', () => {
    const result = (usage: Record<string, number>, saved?: number): EngineEvent => ({
      type: 'result',
      sessionId: 's',
      target: 'm.py::f',
      strategy: 'tenet',
      pass: true,
      stopReason: 'passed',
      selectedTests: { passed: 1, total: 1 },
      hiddenTests: { passed: 0, total: 0 },
      tests: {},
      usage: { inputTokens: 10_000, outputTokens: 500, modelCalls: 3, toolCalls: 4, ...usage },
      rounds: { pregen: 3, rrwAttempts: 0, total: 3 },
      costUsd: 0.0123,
      ...(saved === undefined ? {} : { cacheSavedUsd: saved }),
      costOfPass: 0.0123,
      wallMs: 1000,
      patch: '',
      model: 'm',
    });
    const cached = rendered([result({ cacheReadTokens: 8_000, cacheWriteTokens: 1_200 }, 0.0301)]);
    for (const text of [cached.printed, cached.shown]) {
      expect(text).toContain('10,000 tokens in (80% from cache, 1,200 written to it) / 500 out');
      expect(text).toContain('$0.0123 (caching saved $0.0301)');
    }
    // A session recorded before tenet counted the cache claims nothing about it.
    const old = rendered([result({})]);
    for (const text of [old.printed, old.shown]) {
      expect(text).toContain('10,000 tokens in / 500 out');
      expect(text).not.toContain('cach');
    }
  });

  it("a run that failed after its selected tests passed says so everywhere, never a contradictory 'FAIL (passed)'", () => {
    const failed = (
      selected: [number, number],
      hidden: [number, number],
    ): Extract<EngineEvent, { type: 'result' }> => ({
      type: 'result',
      sessionId: 's',
      target: 'm.py::f',
      strategy: 'tenet',
      pass: false,
      stopReason: 'passed',
      selectedTests: { passed: selected[0], total: selected[1] },
      hiddenTests: { passed: hidden[0], total: hidden[1] },
      tests: {},
      usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 1 },
      rounds: { pregen: 1, rrwAttempts: 0, total: 1 },
      costUsd: 0,
      costOfPass: null,
      wallMs: 1000,
      patch: '',
      model: 'm',
    });
    const words = 'the selected tests passed but hidden tests failed';
    const hidden = failed([1, 1], [10, 11]);
    const { printed, shown } = rendered([hidden]);
    expect(printed).toContain(`FAIL (${words}) · selected 1/1 · hidden 10/11`);
    expect(shown).toContain(`## Result: FAIL (${words})`);
    expect(verdictText(hidden)).toBe(`FAIL: 1/1 selected passed, 10/11 hidden passed (${words})`);
    const page = sessionPage('s', [hidden]);
    const open = '<script type="application/json" id="tenet-session">';
    const data = JSON.parse(
      page.slice(page.indexOf(open) + open.length, page.indexOf('</script>', page.indexOf(open))),
    ) as SessionPageData;
    expect(data.stops).toEqual({ 0: words });
    for (const text of [printed, shown, verdictText(hidden), JSON.stringify(data.stops)])
      expect(text).not.toMatch(/FAIL \(passed\)|"passed"/);
    // A selected test that passed validation and failed in the evaluation (a flaky one) is named as such.
    expect(rendered([failed([1, 2], [3, 3])]).printed).toContain(
      'FAIL (the selected tests passed validation but not the evaluation) · selected 1/2 · hidden 3/3',
    );
    expect(verdictText(failed([1, 2], [2, 3]))).toContain(
      '(the selected tests passed validation but not the evaluation, and hidden tests failed)',
    );
    // Where only the verdict is kept (bench run's line per task), without the counts.
    expect(stopLabel({ pass: false, stopReason: 'passed' })).toBe(
      'the selected tests passed but the evaluation failed',
    );
    // A used-up budget is counted, never "budget" (it reads as money); other stop reasons keep their names in printed lines.
    expect(rendered([{ ...hidden, stopReason: 'budget' }]).printed).toContain(
      'FAIL (the 1 pre-generation round was used up) · selected 1/1',
    );
    expect(
      rendered([{ ...hidden, stopReason: 'budget', rounds: { pregen: 3, rrwAttempts: 5, total: 9 } }]).printed,
    ).toContain('FAIL (the 5 refinement attempts were used up) · selected 1/1');
    expect(stopLabel({ pass: false, stopReason: 'budget' })).toBe('budget');
  });

  it('an unverified verdict says UNVERIFIED and its reason everywhere, never PASS or FAIL', () => {
    const reason =
      "the checkout changed while the agent worked (.planted_fifo): tenet cannot tell the repository from what the agent's code wrote there";
    const unverified: RunResult = {
      type: 'result',
      sessionId: 's',
      target: 'm.py::f',
      strategy: 'tenet',
      pass: false,
      stopReason: 'unverified',
      message: reason,
      selectedTests: { passed: 0, total: 1 },
      hiddenTests: { passed: 0, total: 2 },
      tests: {},
      usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 1 },
      rounds: { pregen: 1, rrwAttempts: 0, total: 1 },
      costUsd: 0,
      costOfPass: null,
      wallMs: 1000,
      patch: '',
      model: 'm',
    };
    const { printed, shown } = rendered([unverified]);
    expect(printed).toContain(`UNVERIFIED (${reason}) · selected 0/1 · hidden 0/2`);
    expect(shown).toContain(`## Result: UNVERIFIED (${reason})`);
    expect(verdictText(unverified)).toBe(`UNVERIFIED: 0/1 selected passed, 0/2 hidden passed (${reason})`);
    for (const text of [printed, shown, verdictText(unverified)]) expect(text).not.toMatch(/\b(PASS|FAIL)\b/);
    // The session page says why too (its result card and title read the stop label).
    const page = sessionPage('s', [unverified]);
    const open = '<script type="application/json" id="tenet-session">';
    expect(
      (
        JSON.parse(
          page.slice(page.indexOf(open) + open.length, page.indexOf('</script>', page.indexOf(open))),
        ) as SessionPageData
      ).stops,
    ).toEqual({ 0: reason });
    expect(page).toMatch(/=== ["']unverified["'] \? ["']UNVERIFIED["']/);
  });

  it('a run stopped before the agent submitted anything says so after its reason, where the submissions were counted', () => {
    const stopped = (stopReason: RunResult['stopReason']): RunResult => ({
      type: 'result',
      sessionId: 's',
      target: 'm.py::f',
      strategy: 'tenet',
      pass: false,
      stopReason,
      selectedTests: { passed: 0, total: 2 },
      hiddenTests: { passed: 0, total: 3 },
      tests: {},
      usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 1 },
      rounds: { pregen: 1, rrwAttempts: 0, total: 1 },
      costUsd: 0,
      costOfPass: null,
      wallMs: 1000,
      patch: '',
      model: 'm',
    });
    expect(verdictText(stopped('cancelled'), 0)).toBe(
      'FAIL: 0/2 selected passed, 0/3 hidden passed (stopped by you before anything was submitted)',
    );
    expect(verdictText(stopped('budget'), 0)).toBe(
      'FAIL: 0/2 selected passed, 0/3 hidden passed (the 1 pre-generation round was used up before anything was submitted)',
    );
    expect(verdictText(stopped('no-implementation'), 0)).toBe(
      'FAIL: 0/2 selected passed, 0/3 hidden passed (nothing was submitted)',
    );
    // After a submission, or where nobody counted them (a benchmark's line per task), the reason alone.
    expect(verdictText(stopped('cancelled'), 1)).toBe('FAIL: 0/2 selected passed, 0/3 hidden passed (stopped by you)');
    expect(stopLabel({ pass: false, stopReason: 'cancelled' })).toBe('cancelled');
  });

  it("a run that passed because its tests passed is PASS alone, not 'PASS (passed)'; the JSON keeps the stop reason", () => {
    const passed: Extract<EngineEvent, { type: 'result' }> = {
      type: 'result',
      sessionId: 's',
      target: 'm.py::f',
      strategy: 'tenet',
      pass: true,
      stopReason: 'passed',
      selectedTests: { passed: 1, total: 1 },
      hiddenTests: { passed: 11, total: 11 },
      tests: {},
      usage: { inputTokens: 1, outputTokens: 1, modelCalls: 1, toolCalls: 1 },
      rounds: { pregen: 1, rrwAttempts: 0, total: 1 },
      costUsd: 0,
      costOfPass: 0,
      wallMs: 1000,
      patch: '',
      model: 'm',
    };
    const { printed, shown } = rendered([passed]);
    expect(printed).toMatch(/^PASS · selected 1\/1 · hidden 11\/11/m);
    expect(shown).toContain('## Result: PASS\n');
    for (const text of [printed, shown]) expect(text).not.toContain('(passed)');
    expect(verdictLabel(passed)).toBe('PASS');
    // A pass for another reason still says which (TDD's agent finished).
    expect(verdictLabel({ ...passed, stopReason: 'finished' })).toBe('PASS (finished)');
    expect(verdictLabel({ ...passed, pass: false, stopReason: 'budget' })).toBe(
      'FAIL (the 1 pre-generation round was used up)',
    );
  });
});

describe('the end of a headless run', () => {
  const demo = loadEvents(join(ROOT, 'sessions', 'demo', 'events.jsonl')).events;
  const result = demo.find((e) => e.type === 'result')!;

  it('prints the patch, or says there is none (a submission that leaves the target as it was; --apply had nothing to apply)', () => {
    expect(rendered([result]).printed).toContain('--- a/');
    const unchanged = rendered([{ ...result, patch: '' } as EngineEvent]).printed;
    expect(unchanged).toContain('No change to the target: no patch.');
    expect(unchanged).not.toContain('--- a/');
  });
});

describe('which sandbox ran, said at the start (headless line, TUI header) from the session record', () => {
  const start = (sandbox: unknown) =>
    ({
      type: 'session.start',
      sessionId: 's',
      target: 'm.py::f',
      mode: 'stub',
      strategy: 'tenet',
      model: 'x',
      modelLabel: 'x',
      provider: 'scripted',
      repo: '/r',
      config: { sandbox },
    }) as unknown as EngineEvent;
  it.each([
    [{ kind: 'local', confinement: 'bubblewrap' }, 'local (bubblewrap)'],
    [{ kind: 'local', confinement: 'bubblewrap', network: true }, 'local (bubblewrap, with network)'],
    [{ kind: 'local', confinement: 'none' }, 'local-unconfined'],
    // A session from before confinement ran unconfined.
    [{ kind: 'local' }, 'local-unconfined'],
    [{ kind: 'docker', image: 'tenet-python:bookworm', mount: false, limits: {} }, 'docker (tenet-python:bookworm)'],
  ])('%o: %s', (sandbox, words) => {
    const { printed } = rendered([start(sandbox)]);
    expect(printed.split('\n')).toContain(`sandbox: ${words}`);
    expect(reduceView(initialView(), start(sandbox), 0).session?.sandbox).toBe(words);
  });
});
