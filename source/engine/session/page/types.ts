import type { EngineEvent, EventOf, EventType } from '../../events';
import type { PageCardKind } from '../page-cards';

/** An event as the session log recorded it: its fields, with the log's version, sequence number and time. */
export type Recorded<E> = E & { v?: number; seq?: number; ts?: string };
export type PageEvent = Recorded<EngineEvent>;

/** A card's kind: one of the event table's (page-cards.ts), the developer's own debugger session, or an event this page does not know. */
export type CardKind = PageCardKind | 'human-debugger' | 'unknown';

/** What the page draws as one card: the events that belong to it, by index, in order. */
export interface Card {
  kind: CardKind;
  /** Its first event's index. */
  first: number;
  /** Its place among the cards. */
  index: number;
  events: number[];
  /** A tool card's tool, until its call is seen. */
  name?: string;
}

/** One of a card's events, with its index in the session. */
export interface Item<E = PageEvent> {
  i: number;
  e: E;
}

type ItemOf<T extends EventType> = Item<Recorded<EventOf<T>>>;

/** The card's first event of a type. */
export const itemOf = <T extends EventType>(items: readonly Item[], type: T): ItemOf<T> | undefined =>
  items.find((x) => x.e?.type === type) as ItemOf<T> | undefined;

/** The card's events of a type. */
export const itemsOf = <T extends EventType>(items: readonly Item[], type: T): ItemOf<T>[] =>
  items.filter((x) => x.e?.type === type) as ItemOf<T>[];

/**
 * The event a card of one event begins with, as the type its kind is made of (the timeline put it
 * there). Anything else is not what the renderer can draw: it throws, and the card shows the raw events.
 */
export function head<T extends EventType>(items: readonly Item[], ...types: T[]): ItemOf<T> {
  const first = items[0];
  if (!first || !types.includes(first.e?.type as T)) throw new Error(`not a ${types.join(' or ')} event`);
  return first as ItemOf<T>;
}

/** What a renderer makes of a card: its title and meta line, its tone (a CSS class), its body; compact cards are one line, dividers head a phase. */
export interface CardView {
  title: Node | string;
  meta?: Node | string;
  tone?: string;
  body?: Node | null;
  compact?: boolean;
  divider?: boolean;
}
