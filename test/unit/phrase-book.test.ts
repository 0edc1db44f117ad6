import { describe, expect, it } from 'vitest';
import { progressLine } from '../../source/commands/progress-line';
import { textPrinter } from '../../source/commands/run-printer';
import type { EngineEvent } from '../../source/engine/events';
import { markdownTranscript } from '../../source/engine/session/transcript';
import { initialView, reduceView } from '../../source/ui/view-state';

/** What each renderer makes of `events`: the printer's lines, the transcript, the TUI's transcript items. */
function rendered(events: EngineEvent[]): { printed: string; shown: string; items: string[] } {
  let printed = '';
  const print = textPrinter((text) => (printed += text));
  for (const event of events) print(event);
  const view = events.reduce((state, event) => reduceView(state, event, 0), initialView());
  return { printed, shown: markdownTranscript('s', events), items: view.agent.items.map((item) => ('text' in item ? item.text : '')) };
}

describe('the phrase book: the renderers word events alike', () => {
  it.each([
    [{ type: 'agent.phase', phase: 'tdd-setup', rounds: 15 }, 'tests first'],
    [{ type: 'agent.phase', phase: 'tdd', round: 2, rounds: 10 }, 'test run 2/10'],
    [{ type: 'agent.phase', phase: 'quality' }, "measuring the agent's tests"],
    [{ type: 'agent.phase', phase: 'rrw', attempt: 1, attempts: 5, stage: 'context-review' }, 'refinement attempt 1/5'],
  ] as [EngineEvent, string][])('%o', (event, words) => {
    const { printed, shown, items } = rendered([event]);
    for (const text of [printed, shown, items.join('\n')]) expect(text.toLowerCase()).toContain(words);
  });

  it('an ablation says which one chose the tests', () => {
    const start: EngineEvent = {
      type: 'session.start', sessionId: 's', target: 'm.py::f', mode: 'blank', strategy: 'tenet', model: 'm', modelLabel: 'm', provider: 'openai', repo: '/r',
      config: { provider: 'openai', model: 'm', temperature: 0, maxTokens: 1, budget: { pregenRounds: 1, rrwAttempts: 1, rrwRounds: 1 }, ablations: { noThm: false, noApis: false, noRrw: false }, select: 'longest' },
    };
    const { printed, shown } = rendered([start, { type: 'thm.approval', proposed: ['t::a'], chosen: ['t::b'], by: 'ablation', T: 1 }]);
    expect(printed).toContain('tests the agent sees (chosen by --select longest)');
    expect(shown).toContain('Tests given to the agent (chosen by --select longest)');
  });

  it("the progress line names fork mode's blank re-run as such", () => {
    let written = '';
    const stream = { isTTY: true, write: (text: string) => (written += text) } as unknown as NodeJS.WriteStream;
    progressLine(stream).onEvent({ type: 'thm.phase', phase: 'blank', tests: 2 });
    expect(written).toContain('running blank the tests fork mode could not decide');
    expect(written).not.toContain('original code');
  });

  it('tokens and cost: the share read from the prompt cache and what caching saved, the same in the printer and in show', () => {
    const result = (usage: Record<string, number>, saved?: number): EngineEvent => ({
      type: 'result', sessionId: 's', target: 'm.py::f', strategy: 'tenet', pass: true, stopReason: 'passed', selectedTests: { passed: 1, total: 1 }, hiddenTests: { passed: 0, total: 0 }, tests: {},
      usage: { inputTokens: 10_000, outputTokens: 500, modelCalls: 3, toolCalls: 4, ...usage }, rounds: { pregen: 3, rrwAttempts: 0, total: 3 }, costUsd: 0.0123, ...(saved === undefined ? {} : { cacheSavedUsd: saved }),
      costOfPass: 0.0123, wallMs: 1000, patch: '', model: 'm',
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
});
