import { diffText } from '../components/code-arguments';
import type { TranscriptItem, ViewState } from './types';

type WithoutId<T> = T extends unknown ? Omit<T, 'id'> : never;

/** An item at the transcript's end, numbered in the order items come. */
export function push(state: ViewState, item: WithoutId<TranscriptItem>): void {
  state.agent.items = [...state.agent.items, { ...item, id: state.agent.items.length + 1 } as TranscriptItem];
}

/**
 * An item about the call under way (the developer's answer to its command) goes before it: the
 * live screen prints every item but the last for good (Ink's <Static>), so the call must stay
 * last until its result comes, or its output never reaches the transcript.
 */
export function pushBeforeOpenCall(state: ViewState, item: WithoutId<TranscriptItem>): void {
  const last = state.agent.items.at(-1);
  push(state, item);
  if (last?.kind !== 'tool' || last.result) return;
  const items = state.agent.items;
  state.agent.items = [...items.slice(0, -2), items.at(-1)!, last];
}

/** A submission of the code or of the agent's tests becomes a revision item; TDD notes which side its iteration touched. */
export function revise(
  state: ViewState,
  side: 'tests' | 'code',
  before: string,
  after: string,
  about: { number: number; against: string; ok: boolean },
): void {
  const tdd = state.agent.tdd;
  if (tdd && about.ok) state.agent.tdd = { ...tdd, revisions: [...tdd.revisions, { iteration: tdd.iteration, side }] };
  push(state, {
    kind: 'revision',
    side,
    ...about,
    ...(tdd ? { iteration: tdd.iteration } : {}),
    ...diffText(before, after),
  });
}
