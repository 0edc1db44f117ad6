import type { SessionPageData } from '../page-data';
import {
  commandCard,
  debuggerCard,
  messageCard,
  stepCard,
  submissionCard,
  testsCard,
  toolCard,
  turnCard,
} from './agent-cards';
import { clean, h } from './dom';
import { humanise, pretty } from './format';
import { indexCard, noteCard, patchCard, phaseCard, resultCard, sessionCard, unknownCard } from './session-cards';
import { planEventCard } from './plan-cards';
import { approvalCard, developerTestsCard, hiddenCard, thmCard } from './thm-cards';
import type { Card, CardKind, CardView, Item, PageEvent } from './types';

/**
 * Draws a card from the events of it that had happened at the player's position (`items`). A
 * renderer that throws shows the card's raw events instead.
 */
type Renderer = (items: Item[], card: Card, data: SessionPageData) => CardView;

/**
 * One renderer per kind of card, typed over every kind: a kind added to the event table
 * (page-cards.ts) does not type-check until it is drawn here. A kind this page does not know (an
 * event type added to tenet after the page was made) is drawn generically, never dropped.
 */
const RENDERERS: Record<CardKind, Renderer> = {
  session: sessionCard,
  thm: thmCard,
  approval: approvalCard,
  hidden: hiddenCard,
  index: indexCard,
  phase: phaseCard,
  turn: turnCard,
  tool: toolCard,
  submission: submissionCard,
  'tests-submission': submissionCard,
  tests: testsCard,
  command: commandCard,
  debugger: debuggerCard,
  'human-debugger': debuggerCard,
  patch: patchCard,
  message: messageCard,
  step: stepCard,
  'developer-tests': developerTestsCard,
  result: resultCard,
  plan: planEventCard,
  note: noteCard,
  unknown: unknownCard,
};

/** The card's element for its first `count` events; a renderer that throws shows the raw events instead. */
export function renderCard(
  card: Card,
  count: number,
  events: readonly PageEvent[],
  data: SessionPageData,
): HTMLElement {
  const items = card.events.slice(0, count).map((i) => ({ i, e: events[i]! }));
  let view: CardView;
  try {
    view = (RENDERERS[card.kind] || unknownCard)(items, card, data);
  } catch (error) {
    view = {
      title: `${humanise(items[0]?.e?.type)} (shown raw: ${(error as Error | undefined)?.message})`,
      tone: 'unknown',
      body: h('pre', { class: 'code' }, clean(items.map((x) => pretty(x.e)).join('\n'))),
    };
  }
  const seq = items[0]?.e?.seq;
  const classes = [
    'card',
    `kind-${card.kind}`,
    view.tone ? `tone-${view.tone}` : '',
    view.compact ? 'compact' : '',
    view.divider ? 'divider' : '',
  ]
    .filter(Boolean)
    .join(' ');
  return h(
    'section',
    { class: classes, 'data-kind': card.kind, 'data-card': card.index, 'data-seq': seq },
    h('header', null, h('h3', null, view.title), view.meta ? h('span', { class: 'meta' }, view.meta) : null),
    view.body ? h('div', { class: 'body' }, view.body) : null,
  );
}
