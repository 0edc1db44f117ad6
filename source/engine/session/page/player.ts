import type { SessionPageData } from '../page-data';
import { clean, fillLazy, h, keepInPlace } from './dom';
import { duration, counted, timeOf } from './format';
import { renderCard } from './render-card';
import { renderSidebar, sessionStates } from './sidebar';
import { buildTimeline, eventsAt, isDecision } from './timeline';
import type { Card, PageEvent } from './types';

// The player: lays out the page and moves through the stops — play/pause, step, the scrubber,
// jumps to the next tool call, submission or test run, and the same from the keyboard. The
// position is kept in the address as the number of the event shown (#event=N): the number
// `tenet replay` shows and `tenet replay --at` and `tenet fork --at` take, so a link can point at
// a moment of the session, and the same moment can be opened in the terminal or forked from.
// This is the page script's entry: the build bundles it and what it imports into one script.

const SPEEDS = [0.5, 1, 2, 4, 10];
/** Between two stops at 1×: the recorded gap, but at least this (so each step can be seen)… */
const SHORTEST_GAP_MS = 450;
/** …and at most this (a two-minute test run is not waited out). */
const LONGEST_GAP_MS = 1500;
/** Past this many cards, the browser skips drawing those far from the screen (see page.css). */
const MANY_CARDS = 300;

const JUMPS: Record<string, { kind: (card: Card, event: PageEvent | undefined) => boolean; what: string }> = {
  n: { kind: (card) => card.kind === 'tool', what: 'tool call' },
  s: { kind: (card) => card.kind === 'submission' || card.kind === 'tests-submission', what: 'submission' },
  t: { kind: (card, event) => card.kind === 'tests' || event?.type === 'tests.run', what: 'test run' },
  d: { kind: (card, event) => isDecision(card, event), what: 'decision or message of the developer' },
};

// Icons drawn as SVG paths (16×16): fonts differ in which media symbols they have.
const ICONS = {
  first: 'M1 3h2v10H1z M9 3v10L4 8z M15 3v10L10 8z',
  back: 'M3 3h2v10H3z M13 3v10L6 8z',
  play: 'M4 2.5v11L13 8z',
  pause: 'M3.5 3h3v10h-3z M9.5 3h3v10h-3z',
  forward: 'M3 3v10l7-5z M11 3h2v10h-2z',
  last: 'M1 3v10l5-5z M7 3v10l5-5z M13 3h2v10h-2z',
};

function icon(name: keyof typeof ICONS): SVGSVGElement {
  const svg = document.createElementNS('http://www.w3.org/2000/svg', 'svg');
  svg.setAttribute('viewBox', '0 0 16 16');
  svg.setAttribute('width', '16');
  svg.setAttribute('height', '16');
  svg.setAttribute('aria-hidden', 'true');
  const path = document.createElementNS('http://www.w3.org/2000/svg', 'path');
  path.setAttribute('d', ICONS[name]);
  path.setAttribute('fill', 'currentColor');
  svg.append(path);
  return svg;
}

function button(id: string, label: string, iconName: keyof typeof ICONS, onclick: () => void): HTMLButtonElement {
  return h('button', { type: 'button', id, class: 'ctl', title: label, 'aria-label': label, onclick }, icon(iconName));
}

function pageHeader(data: SessionPageData, events: readonly PageEvent[]): HTMLElement {
  const start = events.find((e) => e?.type === 'session.start');
  const last = events.findLastIndex((e) => e?.type === 'result');
  const result = last >= 0 ? events[last] : undefined;
  const parts =
    start?.type === 'session.start'
      ? [
          `session ${data.id}`,
          start.strategy,
          start.modelLabel || start.model,
          start.mode === 'blank' ? 'benchmark mode' : 'stub mode',
          start.ts ? new Date(timeOf(start)).toISOString().slice(0, 10) : '',
        ]
      : [`session ${data.id}`];
  return h(
    'header',
    { class: 'top' },
    h(
      'div',
      { class: 'title' },
      h('span', { class: 'brand' }, 'tenet'),
      h('h1', null, clean(start?.type === 'session.start' ? start.target : data.id)),
      result?.type === 'result'
        ? h(
            'span',
            {
              class: `verdict ${result.pass ? 'pass' : 'fail'}`,
              title: `stop reason: ${data.stops?.[last] || result.stopReason}`,
            },
            result.stopReason === 'unverified' ? 'UNVERIFIED' : result.pass ? 'PASS' : 'FAIL',
          )
        : null,
    ),
    h('p', { class: 'subtitle' }, clean(parts.filter(Boolean).join(' · '))),
  );
}

function main(): void {
  const app = document.getElementById('app')!;
  let data: SessionPageData;
  try {
    data = JSON.parse(document.getElementById('tenet-session')!.textContent!);
  } catch (error) {
    app.append(
      h('p', { class: 'note warning' }, `This page's session data cannot be read: ${(error as Error).message}`),
    );
    return;
  }
  const events: readonly PageEvent[] = Array.isArray(data.events) ? data.events : [];
  const { cards, stops, cardOf } = buildTimeline(events);
  const stateAt = sessionStates(events);
  const last = Math.max(0, stops.length - 1);
  /** An event's number: its sequence number in the session's log (as tenet numbers events everywhere). */
  const numberOf = (pos: number): number => {
    const seq = events[pos]?.seq;
    return Number.isInteger(seq) ? (seq as number) : pos + 1;
  };
  /** The stop at `k`, which is there (`k` is between 0 and `last`). */
  const stopAt = (k: number): number => stops[k]!;
  document.body.classList.toggle('many', cards.length > MANY_CARDS);

  const timeline = h('div', { class: 'timeline', id: 'timeline' });
  const aside = h('aside', { class: 'side', id: 'side' });
  const scrubber = h('input', {
    type: 'range',
    id: 'scrubber',
    min: 0,
    max: last,
    step: 1,
    value: 0,
    'aria-label': 'position in the session',
  });
  const position = h('span', { class: 'position', id: 'position', 'aria-live': 'polite' });
  const speedSelect = h(
    'select',
    { id: 'speed', 'aria-label': 'speed' },
    SPEEDS.map((s) => h('option', { value: s, selected: s === 1 }, `${s}×`)),
  );
  const playButton = button('play', 'play (Space)', 'play', () => toggle());
  const ticks = h('div', { class: 'ticks', 'aria-hidden': 'true' });
  const controls = h(
    'nav',
    { class: 'controls', 'aria-label': 'replay controls' },
    h(
      'div',
      { class: 'buttons' },
      button('first', 'to the start (Home)', 'first', () => manual(0)),
      button('back', 'step back (←)', 'back', () => manual(current - 1)),
      playButton,
      button('forward', 'step forward (→)', 'forward', () => manual(current + 1)),
      button('last', 'to the end (End)', 'last', () => manual(last)),
    ),
    h('div', { class: 'track' }, scrubber, ticks),
    position,
    h('label', { class: 'speed' }, 'speed ', speedSelect),
  );
  const keys =
    'Space play/pause · ← → step · Home/End · n tool call · s submission · t test run · d decision (Shift: back)';
  app.append(
    pageHeader(data, events),
    controls,
    h('main', { class: 'layout' }, timeline, aside),
    h(
      'footer',
      null,
      h('p', null, keys),
      h(
        'p',
        null,
        clean(
          `${data.generator || 'tenet'} · session ${data.id} · ${counted(events.length, 'event')} · ${counted(cards.length, 'card')}`,
        ),
      ),
    ),
  );
  if (!events.length) {
    timeline.append(h('p', { class: 'muted' }, 'This session has no events.'));
    return;
  }

  // Marks under the scrubber: submissions, test runs (by verdict), the developer's decisions, the end.
  stops.forEach((pos, k) => {
    const card = cards[cardOf[pos]!]!;
    const event = events[pos]!;
    let cls = '';
    if (card.kind === 'submission' || card.kind === 'tests-submission') cls = 'submission';
    else if (event.type === 'tests.run') cls = event.total && event.passed === event.total ? 'pass' : 'fail';
    else if (card.kind === 'result') cls = (event as { pass?: boolean }).pass ? 'pass' : 'fail';
    else if (isDecision(card, event)) cls = 'human';
    if (cls) ticks.append(h('span', { class: `tick ${cls}`, 'data-left': (last ? (k / last) * 100 : 0).toFixed(3) }));
  });
  // Positions set through the CSSOM, which the page's Content-Security-Policy allows (style attributes it does not).
  for (const tick of ticks.children) (tick as HTMLElement).style.left = `${tick.getAttribute('data-left')}%`;

  const elements: HTMLElement[] = [];
  const rendered: number[] = [];
  let built = 0;
  let current = -1;
  let currentCard: HTMLElement | null = null;
  let playing = false;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let speed = 1;

  function show(to: number, { scroll = true } = {}): void {
    showEarlier?.();
    const k = Math.max(0, Math.min(last, to));
    current = k;
    const pos = stopAt(k);
    let visible = 0;
    let hi = cards.length;
    while (visible < hi) {
      const mid = (visible + hi) >> 1;
      if (cards[mid]!.first <= pos) visible = mid + 1;
      else hi = mid;
    }
    // Of thousands of cards, only those whose state changes are touched.
    for (let c = 0; c < Math.max(visible, built); c++) {
      if (c >= visible) {
        if (!elements[c]!.hidden) elements[c]!.hidden = true;
        continue;
      }
      const count = eventsAt(cards[c]!, pos);
      if (rendered[c] !== count) {
        const el = renderCard(cards[c]!, count, events, data);
        if (c < built) elements[c]!.replaceWith(el);
        else timeline.append(el);
        elements[c] = el;
        rendered[c] = count;
      }
      if (elements[c]!.hidden) elements[c]!.hidden = false;
    }
    built = Math.max(built, visible);
    // The panel first: on a narrow screen it sits above the cards, and its height moves them.
    renderSidebar(aside, stateAt(pos));
    if (currentCard) currentCard.classList.remove('current');
    currentCard = elements[cardOf[pos]!] || null;
    if (currentCard) {
      currentCard.classList.add('current');
      // Its contents now, not when they scroll near: the card must have its height before it is revealed.
      for (const slot of currentCard.querySelectorAll('.lazy')) fillLazy(slot);
      if (scroll) reveal(currentCard);
    }
    scrubber.value = String(k);
    const event = events[pos]!;
    const since = timeOf(event) - timeOf(events[0]);
    position.textContent = `event ${numberOf(pos)} of ${numberOf(events.length - 1)} · ${event.type}${since > 0 ? ` · +${duration(since)}` : ''}`;
  }

  function reveal(el: HTMLElement): void {
    const box = el.getBoundingClientRect();
    const top = controls.getBoundingClientRect().bottom;
    if (box.top >= top && box.bottom <= window.innerHeight) return;
    el.scrollIntoView({
      block: box.height > window.innerHeight - top ? 'start' : 'nearest',
      behavior: playing ? 'smooth' : 'auto',
    });
  }

  function remember(): void {
    try {
      history.replaceState(null, '', `#event=${numberOf(stopAt(current))}`);
    } catch {
      // Some browsers refuse to touch the address of a file: page; the position is only a nicety.
    }
  }

  function setPlaying(on: boolean): void {
    playing = on;
    clearTimeout(timer);
    playButton.replaceChildren(icon(on ? 'pause' : 'play'));
    playButton.setAttribute('aria-label', on ? 'pause (Space)' : 'play (Space)');
    playButton.title = on ? 'pause (Space)' : 'play (Space)';
    if (on) schedule();
    else remember();
  }

  function schedule(): void {
    clearTimeout(timer);
    if (!playing) return;
    if (current >= last) {
      setPlaying(false);
      return;
    }
    const a = timeOf(events[stopAt(current)]);
    const b = timeOf(events[stopAt(current + 1)]);
    const gap = Math.min(LONGEST_GAP_MS, Math.max(SHORTEST_GAP_MS, a && b ? b - a : 0)) / speed;
    timer = setTimeout(() => {
      show(current + 1);
      schedule();
    }, gap);
  }

  function toggle(): void {
    if (playing) {
      setPlaying(false);
      return;
    }
    if (current >= last) show(0);
    setPlaying(true);
  }

  /** A move by the reader: it pauses playback. */
  function manual(k: number): void {
    if (playing) setPlaying(false);
    show(k);
    remember();
  }

  function jump(key: string, direction: 1 | -1): void {
    const spec = JUMPS[key]!;
    for (let k = current + direction; k >= 0 && k <= last; k += direction) {
      const pos = stopAt(k);
      if (spec.kind(cards[cardOf[pos]!]!, events[pos])) {
        manual(k);
        return;
      }
    }
    position.textContent = `no ${direction > 0 ? 'later' : 'earlier'} ${spec.what}`;
  }

  scrubber.addEventListener('input', () => {
    if (playing) setPlaying(false);
    show(Number(scrubber.value));
  });
  scrubber.addEventListener('change', remember);
  speedSelect.addEventListener('change', () => {
    speed = Number(speedSelect.value) || 1;
    schedule();
  });
  document.addEventListener('keydown', (ev) => {
    if (ev.altKey || ev.ctrlKey || ev.metaKey) return;
    const tag = (ev.target as Element | null)?.tagName;
    if (tag === 'SELECT' || tag === 'TEXTAREA') return;
    // The scrubber moves itself with arrows, Home and End (its input event follows).
    if (
      tag === 'INPUT' &&
      ['ArrowLeft', 'ArrowRight', 'ArrowUp', 'ArrowDown', 'Home', 'End', 'PageUp', 'PageDown'].includes(ev.key)
    )
      return;
    const key = ev.key;
    if (key === ' ' || key === 'k') {
      if (tag === 'BUTTON' && key === ' ') return;
      toggle();
    } else if (key === 'ArrowRight' || key === 'l') manual(current + 1);
    else if (key === 'ArrowLeft' || key === 'h') manual(current - 1);
    else if (key === 'Home') manual(0);
    else if (key === 'End') manual(last);
    else if (JUMPS[key.toLowerCase()] && key.length === 1) jump(key.toLowerCase(), ev.shiftKey ? -1 : 1);
    else return;
    ev.preventDefault();
  });

  keepInPlace(() => currentCard);
  /** Brings back the cards before a linked event (see openAt), while they are out of the layout. */
  let showEarlier: (() => void) | undefined;
  const linked = linkedStop(location.hash);
  if (linked === undefined) show(0, { scroll: false });
  else openAt(linked);

  /**
   * A link to an event (`#event=N`): the first paint shows that event's card without scrolling.
   * Scrolled to at once, a screenshot taken at the first paint (headless chromium's --screenshot)
   * showed only the background: the tiles far down the page were not drawn yet. So the earlier
   * cards wait out of the layout until that paint is done; then they come back, the view kept on
   * the event.
   */
  function openAt(k: number): void {
    show(k, { scroll: false });
    const upTo = cardOf[stopAt(k)]!;
    const earlier = elements.slice(0, upTo).filter((el): el is HTMLElement => !!el);
    if (!earlier.length) return;
    for (const el of earlier) el.classList.add('before-link');
    const more = h('button', { class: 'earlier', type: 'button' }, `↑ ${counted(earlier.length, 'earlier card')}`);
    timeline.insertBefore(more, elements[upTo] ?? null);
    // Back on the reader's first wish to see them (the button, a scroll up, any move of the player),
    // the card of the event staying where it is on the screen.
    // At the top of the page a scroll up moves nothing, so the wheel and the keys are asked instead.
    const onWheel = (ev: WheelEvent) => ev.deltaY < 0 && window.scrollY === 0 && restore();
    const onKey = (ev: KeyboardEvent) =>
      (ev.key === 'PageUp' || ev.key === 'ArrowUp') && window.scrollY === 0 && restore();
    const restore = () => {
      showEarlier = undefined;
      removeEventListener('wheel', onWheel);
      removeEventListener('keydown', onKey);
      const anchor = currentCard;
      const top = anchor ? anchor.getBoundingClientRect().top : 0;
      more.remove();
      for (const el of earlier) el.classList.remove('before-link');
      if (anchor) window.scrollBy(0, anchor.getBoundingClientRect().top - top);
    };
    more.addEventListener('click', restore);
    addEventListener('wheel', onWheel, { passive: true });
    addEventListener('keydown', onKey);
    showEarlier = restore;
  }

  /**
   * The stop a link points at: `#event=N`, the first stop that shows event N (an event folded into
   * a later stop, streamed text say, shows there); `#step=N`, the N-th stop, as links made before
   * pages numbered events.
   */
  function linkedStop(hash: string): number | undefined {
    const event = /^#event=(\d+)$/.exec(hash);
    if (event) {
      const wanted = Number(event[1]);
      const k = stops.findIndex((pos) => numberOf(pos) >= wanted);
      return k === -1 ? last : k;
    }
    const step = /^#step=(\d+)$/.exec(hash);
    return step ? Number(step[1]) - 1 : undefined;
  }
}

main();
