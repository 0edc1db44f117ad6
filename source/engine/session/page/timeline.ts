import type { EventType } from '../../events';
import { PAGE_CARD_OF } from '../page-cards';
import type { Card, CardKind, PageEvent } from './types';

// The session as cards and stops. A card is what the page draws — a model turn, a tool call with
// its output, a submission, a decision — and gathers the events that belong to it. A stop is a
// position the player can be at: the index of an event after which something new is worth
// seeing. Streamed text, pytest's per-test lines and the debugger's output are never stops; they
// are folded into the stop that completes them. Positions are event indices, so a card that spans
// several stops (a tool call that waits for the developer's approval) shows exactly what had
// happened by then.

const QUIET = new Set<string>([
  'step.pause',
  'model.request',
  'model.delta',
  'tool.call',
  'debugger.input',
  'debugger.output',
  'debugger.entry',
  'thm.phase',
  'thm.collected',
  'thm.test',
  'thm.collecting',
  'thm.running',
] satisfies EventType[]);

/**
 * The card kind of each event type, or 'ignored' (engine/session/page-cards.ts, typed over every
 * event type there). An event of a type it does not name (a newer tenet's) gets an 'unknown' card.
 */
const cardKindOf = (type: string | undefined): CardKind | 'ignored' =>
  (type !== undefined && Object.hasOwn(PAGE_CARD_OF, type) && PAGE_CARD_OF[type as EventType]) || 'unknown';

export const isHuman = (value: unknown): boolean => value === 'human' || value === 'developer' || value === 'user';

/** An event of a type this page does not know is the developer's when a field says so (`who: 'human'`…). */
export const looksHuman = (event: unknown): boolean =>
  ['who', 'by', 'from', 'author', 'role'].some((key) => isHuman((event as Record<string, unknown> | null)?.[key]));

/** What the developer decided or said: the scrubber marks these, and `d` jumps to them. */
export function isDecision(card: Card, event: PageEvent | undefined): boolean {
  // The developer's edit of a tool call's arguments is a stop of the call's card.
  if (event?.type === 'tool.edit') return true;
  switch (card.kind) {
    case 'approval':
    case 'command':
      return isHuman((event as { by?: unknown } | undefined)?.by);
    case 'human-debugger':
    case 'patch':
    case 'message':
    case 'developer-tests':
      return true;
    case 'unknown':
      return looksHuman(event);
    default:
      return false;
  }
}

/** A human's line in the debugger is a decision, and a stop of its own. */
const humanDebuggerEntry = (event: PageEvent): boolean =>
  event.type === 'debugger.entry' && !!event.entry && isHuman(event.entry.who);

export interface Timeline {
  cards: Card[];
  /** The positions (event indices) the player stops at, in order. */
  stops: number[];
  /** The card each event belongs to, by the event's index. */
  cardOf: number[];
}

export function buildTimeline(events: readonly PageEvent[]): Timeline {
  const cards: Card[] = [];
  const stops: number[] = [];
  const cardOf: number[] = [];
  let turn: Card | null = null;
  let thm: Card | null = null;
  let debuggerSink: Card | null = null;
  let openTool: Card | null = null;
  const tools = new Map<string, Card>();

  const open = (kind: CardKind, index: number, extra?: { name: string }): Card => {
    const card: Card = { kind, first: index, index: cards.length, events: [], ...extra };
    cards.push(card);
    return card;
  };
  const add = (card: Card, index: number): Card => {
    card.events.push(index);
    cardOf[index] = card.index;
    return card;
  };

  events.forEach((event, i) => {
    const type = event?.type;
    if (cardKindOf(type) === 'ignored') {
      // No card of its own and never a stop: it stays with the card before it.
      if (cards.length) cardOf[i] = cards.length - 1;
      return;
    }
    switch (event?.type) {
      case 'model.request':
        turn = add(open('turn', i), i);
        break;
      case 'model.delta':
      case 'model.retry':
        turn = add(turn || open('turn', i), i);
        break;
      case 'model.response':
        add(turn || open('turn', i), i);
        turn = null;
        break;
      case 'tool.call': {
        const card = add(open('tool', i, { name: event.name }), i);
        tools.set(event.id, card);
        openTool = card;
        break;
      }
      case 'tool.edit':
        add(tools.get(event.id) || open('tool', i, { name: event.name }), i);
        break;
      case 'tool.result': {
        const card = tools.get(event.id);
        add(card || open('tool', i, { name: event.name }), i);
        tools.delete(event.id);
        if (openTool === card) openTool = null;
        break;
      }
      case 'debugger.input':
        // The agent's commands belong to its tool call; the developer's (a takeover) are a card, and
        // so is the pdb tenet starts for a takeover (no tool call of the agent's ran it).
        if (isHuman(event.who)) debuggerSink = add(open('human-debugger', i), i);
        else if (event.who === 'tenet') debuggerSink = add(open('debugger', i), i);
        else debuggerSink = add(openTool || open('debugger', i), i);
        break;
      case 'debugger.output':
        debuggerSink = add(debuggerSink || openTool || open('debugger', i), i);
        break;
      case 'debugger.entry':
        if (humanDebuggerEntry(event))
          add(debuggerSink?.kind === 'human-debugger' ? debuggerSink : open('human-debugger', i), i);
        else add(debuggerSink || openTool || open('debugger', i), i);
        debuggerSink = null;
        break;
      case 'thm.start':
        thm = add(open('thm', i), i);
        break;
      case 'thm.phase':
      case 'thm.collected':
      case 'thm.test':
      case 'thm.collecting':
      case 'thm.running':
        thm = add(thm || open('thm', i), i);
        break;
      case 'thm.report':
        add(thm || open('thm', i), i);
        thm = null;
        break;
      case 'tests.run':
        // The agent's own run_tests: its grid goes with the call that ran it.
        if (event.purpose === 'agent' && openTool) add(openTool, i);
        else add(open('tests', i), i);
        break;
      default:
        add(open(cardKindOf(type) as CardKind, i), i);
    }
    const quiet = type !== undefined && QUIET.has(type) && !humanDebuggerEntry(event);
    const done = event?.type === 'agent.phase' && event.phase === 'done';
    if (!quiet && !done) stops.push(i);
  });
  // A session cut off mid-stream (killed while the model was answering) still ends on its last event.
  if (events.length && stops[stops.length - 1] !== events.length - 1) stops.push(events.length - 1);
  return { cards, stops, cardOf };
}

/** How many of a card's events had happened at position `pos` (its events are in order). */
export function eventsAt(card: Card, pos: number): number {
  const list = card.events;
  if (list[list.length - 1]! <= pos) return list.length;
  let n = 0;
  while (n < list.length && list[n]! <= pos) n++;
  return n;
}
