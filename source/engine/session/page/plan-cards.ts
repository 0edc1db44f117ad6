import type { SessionPageData } from '../page-data';
import { clean, code, h } from './dom';
import { counted } from './format';
import { head, type Card, type CardView, type Item } from './types';

// The cards of a plan (several stubs, one at a time): the plan as approved, each target's start
// and end, the final evaluation. Their words are tenet's own (`tenet show` prints the same),
// computed when the page was written (SessionPageData.plans).

const said = (data: SessionPageData, i: number, fallback: string) => clean(data.plans?.[i] ?? fallback);

/** The plan: its targets in order, what the code shows of each, and why the order is so. */
function planCard(items: Item[], _card: Card, data: SessionPageData): CardView {
  const { i, e } = head(items, 'plan');
  const targets = e.targets || [];
  return {
    title: said(data, i, `Plan of ${counted(targets.length, 'target')}`),
    tone: e.by === 'human' ? 'human' : 'info',
    body: h(
      'div',
      null,
      h(
        'ol',
        null,
        ...(e.order || []).map((target) => {
          const t = targets.find((x) => x.target === target);
          return h(
            'li',
            null,
            code(target),
            t ? ` ${clean(t.signature)}` : '',
            t?.summary ? ` — ${clean(t.summary)}` : '',
            t ? ` (${counted(t.reaches.length, 'test')} reach it by the call graph)` : '',
          );
        }),
      ),
      ...(e.why || []).map((line) => h('p', { class: 'muted' }, clean(line))),
    ),
  };
}

/** A target starts: a divider, as a phase is. */
function targetCard(items: Item[], _card: Card, data: SessionPageData): CardView {
  const { i, e } = head(items, 'plan.target');
  return { title: said(data, i, `Target ${e.index}/${e.total}: ${e.target}`), divider: true };
}

/** A target's verdict, or why it waits. */
function endCard(items: Item[], _card: Card, data: SessionPageData): CardView {
  const { i, e } = head(items, 'plan.target.end');
  return {
    title: said(data, i, `${e.target}: ${e.pass ? 'passed' : 'not passed'}`),
    tone: e.after ? 'info' : e.pass ? 'pass' : 'fail',
    compact: true,
  };
}

/** The final evaluation of every kept target together: a divider. */
function finalCard(items: Item[], _card: Card, data: SessionPageData): CardView {
  const { i } = head(items, 'plan.final');
  return { title: said(data, i, 'The final evaluation'), divider: true };
}

/** A plan card of whichever of its events it holds. */
export function planEventCard(items: Item[], card: Card, data: SessionPageData): CardView {
  const type = items[0]?.e?.type;
  if (type === 'plan.target') return targetCard(items, card, data);
  if (type === 'plan.target.end') return endCard(items, card, data);
  if (type === 'plan.final') return finalCard(items, card, data);
  return planCard(items, card, data);
}
