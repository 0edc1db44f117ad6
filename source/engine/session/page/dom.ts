import { kilobytes } from './format';

// Text and DOM helpers of the session page. Every string from the session reaches the page as a
// text node (never innerHTML, never an href or src): markup in a model's answer or in a tool's
// output is shown as written, not parsed.

const FORBIDDEN_ATTRIBUTES = new Set(['href', 'src', 'srcdoc', 'style', 'action', 'formaction']);

/** An attribute's value: left out when absent or false; `on…` attributes take a listener. */
type Attribute = string | number | boolean | null | undefined | EventListener;
/** What goes into an element: nodes, and strings and numbers as text; absent ones and `false` are left out. */
export type Child = Node | string | number | null | undefined | false | readonly Child[];

/** An element with attributes (`on…` ones are listeners) and children (strings become text). */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs?: Record<string, Attribute> | null,
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const el = document.createElement(tag);
  for (const [key, value] of Object.entries(attrs || {})) {
    if (value === undefined || value === null || value === false) continue;
    if (FORBIDDEN_ATTRIBUTES.has(key)) throw new Error(`the page never sets ${key}`);
    if (key === 'class') el.className = String(value);
    else if (key.startsWith('on')) el.addEventListener(key.slice(2), value as EventListener);
    else el.setAttribute(key, value === true ? '' : String(value));
  }
  append(el, children);
  return el;
}

export function append<E extends Element>(el: E, children: readonly Child[]): E {
  for (const child of (children as unknown[]).flat(Number.POSITIVE_INFINITY)) {
    if (child === undefined || child === null || child === false) continue;
    el.append(child instanceof Node ? child : document.createTextNode(String(child)));
  }
  return el;
}

// Terminal escapes (colours, cursor moves, titles) mean nothing on a page; other control
// characters are shown as their Unicode pictures (␛, ␀ …) so nothing is silently hidden, and
// bidirectional overrides are spelled out so they cannot reorder what a reader sees.
const ANSI = /\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]/g;
const CONTROL = /[\x00-\x08\x0b\x0c\x0e-\x1f\x7f]/g;
const C1 = /[\x80-\x9f]/g;
const BIDI = /[\u202a-\u202e\u2066-\u2069]/g;

export function clean(text: unknown): string {
  return String(text ?? '')
    .replace(ANSI, '')
    .replace(/\r\n/g, '\n')
    .replace(/\r/g, '\n')
    .replace(CONTROL, (c) => String.fromCharCode(c === '\x7f' ? 0x2421 : 0x2400 + c.charCodeAt(0)))
    .replace(C1, '\ufffd')
    .replace(BIDI, (c) => `<U+${c.charCodeAt(0).toString(16).toUpperCase()}>`);
}

const HEAD_LINES = 150;
const HEAD_CHARS = 15000;

/**
 * A block of program output or code. Long text shows its head and a button that renders the
 * rest: a 100,000-character tool output costs nothing until someone asks to read it.
 */
export function textBlock(text: unknown, cls = 'output'): HTMLElement {
  const all = clean(text);
  const pre = h('pre', { class: cls });
  const lines = all.split('\n');
  if (lines.length <= HEAD_LINES * 1.5 && all.length <= HEAD_CHARS * 1.5) {
    pre.textContent = all;
    return pre;
  }
  let head = lines.slice(0, HEAD_LINES).join('\n');
  if (head.length > HEAD_CHARS) head = head.slice(0, HEAD_CHARS);
  pre.textContent = head;
  const shownLines = head.split('\n').length;
  const more = h(
    'button',
    {
      type: 'button',
      class: 'more',
      onclick: () => {
        pre.textContent = all;
        more.remove();
      },
    },
    `Show all ${lines.length.toLocaleString('en-US')} lines (${kilobytes(all.length)}; ${(lines.length - shownLines).toLocaleString('en-US')} more)`,
  );
  return h('div', { class: 'long' }, pre, more);
}

// Bodies that are costly to build (outputs, diffs, chains) are built when they come near the
// viewport: scrubbing to the end of a long session creates cards, not their contents. Filling
// the ones above the current card makes it move down; it is put back where it was, since the
// browser's own scroll anchoring does not always catch this.
const lazyRenders = new WeakMap<Element, () => Node>();
let lazyAnchor: () => Element | null = () => null;
const lazyObserver =
  typeof IntersectionObserver === 'function'
    ? new IntersectionObserver(
        (entries) => {
          const anchor = lazyAnchor();
          const before = anchor ? anchor.getBoundingClientRect() : null;
          const onScreen = before && before.bottom > 0 && before.top < window.innerHeight;
          for (const entry of entries) if (entry.isIntersecting) fillLazy(entry.target);
          if (anchor && before && onScreen) {
            const moved = anchor.getBoundingClientRect().top - before.top;
            if (moved) window.scrollBy(0, moved);
          }
        },
        { rootMargin: '1200px 0px' },
      )
    : null;

/** The element to keep in place while lazy bodies above it are filled (the player's current card). */
export function keepInPlace(anchor: () => Element | null): void {
  lazyAnchor = anchor;
}

export function lazy(render: () => Node): HTMLElement {
  const slot = h('div', { class: 'lazy' });
  if (!lazyObserver) {
    slot.append(render());
    return slot;
  }
  lazyRenders.set(slot, render);
  lazyObserver.observe(slot);
  return slot;
}

export function fillLazy(slot: Element): void {
  const render = lazyRenders.get(slot);
  if (!render) return;
  lazyRenders.delete(slot);
  lazyObserver?.unobserve(slot);
  slot.classList.remove('lazy');
  slot.replaceChildren(render());
}

/** A model's prose: paragraphs, fenced code blocks and `inline code`; nothing else is interpreted. */
export function prose(text: unknown): HTMLElement {
  const box = h('div', { class: 'prose' });
  const source = clean(text);
  const fence = /```[^\n]*\n([\s\S]*?)(?:\n```|$)/g;
  let at = 0;
  for (const match of source.matchAll(fence)) {
    paragraphs(box, source.slice(at, match.index));
    box.append(h('pre', { class: 'code' }, match[1]));
    at = match.index + match[0].length;
  }
  paragraphs(box, source.slice(at));
  return box;
}

function paragraphs(box: HTMLElement, text: string): void {
  for (const para of text.split(/\n\s*\n/)) {
    if (!para.trim()) continue;
    const p = h('p');
    // Odd parts are what stood between backquotes.
    const parts = para.trim().split(/`([^`\n]+)`/);
    parts.forEach((part, i) => {
      p.append(i % 2 ? h('code', null, part) : document.createTextNode(part));
    });
    box.append(p);
  }
}

export function chip(text: Child, cls?: string, title?: string): HTMLElement {
  return h('span', { class: `chip ${cls || ''}`, title }, text);
}

/** A titled section that opens on click (a native <details>, so it needs no script to work). */
export function fold(summary: Child, content: Child, open = false): HTMLElement {
  return h('details', { class: 'fold', open }, h('summary', null, summary), content);
}

/** Facts as a two-column list; empty values are left out. */
export function facts(rows: readonly (readonly [string, Child])[]): HTMLElement {
  const dl = h('dl', { class: 'facts' });
  for (const [term, value] of rows)
    if (value !== undefined && value !== null && value !== '')
      dl.append(h('dt', null, clean(term)), h('dd', null, typeof value === 'string' ? clean(value) : value));
  return dl;
}

export const code = (text: unknown): HTMLElement => h('code', null, clean(text));
