import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { EngineEvent } from '../../source/engine/events';
import { Footer } from '../../source/ui/screens/agent-footer';
import { initialView, reduceView } from '../../source/ui/view-state';
import type { ViewState } from '../../source/ui/view/types';
import { approvedStart } from './helpers';

// The footer says how much of the model's window the latest request used; a condensation is a line
// of the transcript (live and in replay, which fold the same events).

const fold = (events: EngineEvent[]) =>
  events.reduce<ViewState>((view, event) => reduceView(view, event, 0), initialView());
const request = (round: number, tokens?: number): EngineEvent => ({
  type: 'model.request',
  round,
  messages: 1,
  tools: [],
  newMessages: [],
  ...(tokens ? { context: { tokens, window: 16_384 } } : {}),
});
const footer = (view: ViewState) => render(<Footer view={view} takeover="off" keys={[]} />).lastFrame()!;

describe('context use', () => {
  it('the footer shows the latest request against the window, and nothing when the window is unknown', () => {
    expect(footer(fold([...approvedStart(), request(1, 10_000)]))).toContain('ctx 61% · ');
    expect(footer(fold([...approvedStart(), request(1)]))).not.toContain('ctx');
  });

  it('a condensation updates the share and reads as one line in the transcript', () => {
    const condensed: EngineEvent = {
      type: 'context.condensed',
      round: 2,
      why: 'too-long',
      level: 3,
      replaced: [],
      kinds: { toolOutputs: 2, submissions: 0, prompts: 0, answers: 0 },
      tokensBefore: 15_000,
      tokensAfter: 4_096,
      window: 16_384,
    };
    const view = fold([...approvedStart(), request(1, 10_000), request(2, 15_000), condensed]);
    expect(footer(view)).toContain('ctx 25% · ');
    const notes = view.agent.items.filter((i) => i.kind === 'note').map((i) => (i as { text: string }).text);
    expect(notes).toContain(
      'Context condensed before model call 2 (the provider answered "too long"): 2 tool outputs cut to head and tail or to a one-line reference · 15,000 → 4,096 tokens of a 16,384-token window',
    );
  });
});
