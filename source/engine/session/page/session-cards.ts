import type { EventOf, EventType } from '../../events';
import type { PAGE_CARD_OF } from '../page-cards';
import type { SessionPageData } from '../page-data';
import { clean, code, facts, fold, h, lazy, prose, textBlock } from './dom';
import { patchView } from './diff-view';
import { dollars, duration, humanise, integer, counted, pretty, timeOf } from './format';
import { testRows } from './agent-cards';
import { looksHuman } from './timeline';
import { head, type Card, type CardView, type Item, type Recorded } from './types';
import { PHASES } from './words';

// The cards of the session's own course: its start, the index, the phases, the patch, the result,
// the one-line notes, and the events of a newer tenet that this page does not know.

export function sessionCard(items: Item[]): CardView {
  const { e } = head(items, 'session.start');
  const config = e.config || {};
  const budget = config.budget || {};
  const limits = config.limits;
  return {
    title: 'Session started',
    meta: e.ts ? `${new Date(timeOf(e)).toISOString().replace('T', ' ').slice(0, 19)} UTC` : '',
    body: h(
      'div',
      null,
      facts([
        ['target', code(e.target)],
        [
          'mode',
          e.mode === 'blank'
            ? 'benchmark (the body was blanked; the original is ground truth)'
            : 'stub (the developer wrote the signature, docstring and tests)',
        ],
        ['strategy', clean(e.strategy)],
        ['model', clean(e.modelLabel || e.model)],
        ['provider', clean(e.provider)],
        ['repository', code(e.repo)],
        ['tests given (T)', config.T === null ? 'all' : config.T],
        [
          'budget',
          budget.pregenRounds
            ? `${budget.pregenRounds} rounds of pre-generation, ${budget.rrwAttempts} refinement attempts of ${budget.rrwRounds} rounds`
            : '',
        ],
        ['sandbox', config.sandbox?.kind],
        [
          'limits',
          limits
            ? [
                limits.maxCostUsd !== undefined ? `${dollars(limits.maxCostUsd)}` : '',
                limits.maxTokens !== undefined ? `${integer(limits.maxTokens)} tokens` : '',
              ]
                .filter(Boolean)
                .join(', ')
            : '',
        ],
      ]),
      fold('every setting', h('pre', { class: 'code' }, clean(pretty(config)))),
    ),
  };
}

export function indexCard(items: Item[]): CardView {
  const { e } = head(items, 'index.ready');
  return {
    title: `Repository index ready: ${counted(e.files, 'file')} (${integer(e.parsed)} parsed) in ${duration(e.ms)}`,
    compact: true,
  };
}

export function phaseCard(items: Item[]): CardView {
  const { e } = head(items, 'agent.phase');
  return { title: clean((PHASES[e.phase] || (() => e.phase))(e)), divider: true };
}

const PATCH_DECISIONS: Record<string, string> = {
  accept: 'The patch was accepted',
  reject: 'The patch was rejected',
  save: 'The patch was saved, not applied',
};

export function patchCard(items: Item[]): CardView {
  const { e } = head(items, 'patch.decision');
  return {
    title: PATCH_DECISIONS[e.decision] || `Patch: ${clean(e.decision)}`,
    tone: 'human',
    body: h(
      'p',
      null,
      e.applied ? 'It went into the developer’s checkout.' : 'The checkout was left as it was.',
      e.reason ? ` Reason: ${clean(e.reason)}` : '',
    ),
  };
}

/** The agent's own tests, measured (TDD strategies), in a few words each. */
function qualityWords(quality: EventOf<'result'>['testQuality']): string[] {
  if (!quality) return [];
  return [
    `${counted(quality.tests, 'test')} in ${quality.file}`,
    quality.groundTruth ? `${quality.groundTruth.passed}/${quality.groundTruth.total} pass on the ground truth` : '',
    quality.coverage
      ? `lines ${quality.coverage.lines.covered}/${quality.coverage.lines.total}, branches ${quality.coverage.branches.covered}/${quality.coverage.branches.total} covered`
      : '',
    quality.mutation
      ? `mutation score ${(quality.mutation.score * 100).toFixed(0)}% (${quality.mutation.killed}/${quality.mutation.total} killed)`
      : '',
    ...(quality.problems || []),
  ].filter(Boolean);
}

export function resultCard(items: Item[], _card: Card, data: SessionPageData): CardView {
  const { i, e } = head(items, 'result');
  // The stop reason as tenet words it (a failed run whose selected tests passed says so, not "passed").
  const stop = data.stops?.[i] || e.stopReason;
  const usage: Partial<EventOf<'result'>['usage']> = e.usage || {};
  const q = qualityWords(e.testQuality);
  return {
    title: h(
      'span',
      null,
      h(
        'span',
        { class: `verdict ${e.pass ? 'pass' : 'fail'}` },
        e.stopReason === 'unverified' ? 'UNVERIFIED' : e.pass ? 'PASS' : 'FAIL',
      ),
      ` Result: ${clean(stop)}`,
    ),
    meta: duration(e.wallMs),
    tone: e.pass ? 'pass' : 'fail',
    body: h(
      'div',
      null,
      facts([
        [
          'selected tests',
          e.selectedTests
            ? e.selectedTests.total
              ? `${e.selectedTests.passed}/${e.selectedTests.total} pass`
              : 'none given to the agent'
            : '',
        ],
        ['hidden tests', e.hiddenTests ? `${e.hiddenTests.passed}/${e.hiddenTests.total} pass` : ''],
        [
          'tokens',
          `${integer(usage.inputTokens)} in, ${integer(usage.outputTokens)} out${e.tokensEstimated ? ' (partly estimated)' : ''}`,
        ],
        ['calls', `${counted(usage.modelCalls || 0, 'model call')}, ${counted(usage.toolCalls || 0, 'tool call')}`],
        [
          'cost',
          `${dollars(e.costUsd)}${e.costUnpriced ? ' (some calls unpriced)' : ''}${e.costOfPass !== null && e.costOfPass !== undefined ? ` · cost of a pass ${dollars(e.costOfPass)}` : ''}`,
        ],
        ['model', clean(e.model)],
        ['the agent’s tests', q.length ? clean(q.join('; ')) : ''],
        [
          'failure',
          e.failure
            ? clean(`${e.failure.kind}${e.failure.hints?.length ? `: ${e.failure.hints.join('; ')}` : ''}`)
            : '',
        ],
        ['message', e.message ? clean(e.message) : ''],
        // A plan's verdict per target, as tenet words it (data.plans).
        ['targets', data.plans?.[i] ? h('pre', { class: 'code' }, clean(data.plans[i])) : ''],
        ['secrets', e.patchSecrets?.length ? clean(e.patchSecrets.join('; ')) : ''],
        ['flagged', e.flagged ? clean(`the submission reaches toward the test harness: ${e.flagged}`) : ''],
      ]),
      Object.keys(e.tests || {}).length ? fold(`every test (${Object.keys(e.tests).length})`, testRows(e.tests)) : null,
      e.patch
        ? h(
            'div',
            null,
            h('div', { class: 'label' }, 'the patch'),
            lazy(() => patchView(e.patch)),
          )
        : h('p', { class: 'muted' }, 'No patch.'),
    ),
  };
}

/** The event types the table (page-cards.ts) makes one-line notes: noteText words each. */
type NoteType = { [K in EventType]: (typeof PAGE_CARD_OF)[K] extends 'note' ? K : never }[EventType];
type NoteEvent = Recorded<EventOf<NoteType>>;

/** A note's line, by its event's type: a type the table makes a note does not type-check until it is worded here. */
function noteText(e: NoteEvent, i: number, data: SessionPageData): string {
  switch (e.type) {
    case 'warning':
      return `Warning: ${e.message}`;
    case 'error':
      return `Error: ${e.message}`;
    case 'session.interrupted':
      return `Interrupted: ${e.reason}`;
    case 'session.resumed':
      return `Resumed ${e.position}${e.provider ? ` with ${e.provider}/${e.model}` : ''}`;
    case 'limit.reached':
      return `Stopped: the session's ${e.limit === 'cost' ? 'cost' : 'token'} limit is reached (${e.limit === 'cost' ? `${dollars(e.spent)} of ${dollars(e.max)}` : `${integer(e.spent)} of ${integer(e.max)} tokens`}): no more model calls`;
    case 'context.condensed':
      // Worded by engine/agent/context-words.ts when the page was made (data.condensed).
      return data.condensed?.[i] || `Context condensed before model call ${e.round}`;
    case 'model.unanswered':
      return `${e.reason === 'cancelled' ? 'The model call was cancelled' : 'The model call got no answer'}; what it used was billed all the same (${dollars(e.costUsd)})`;
    case 'tests.kept':
      return `The agent's tests were kept in the checkout: ${e.file}`;
    case 'session.forked':
      return `Forked from session ${e.parent} at its event ${e.at}: ${e.recorded ? `the first ${e.recorded} model answers are that session's, then ` : ''}${e.provider}/${e.model} answers live`;
    default:
      return (e satisfies never as { type: string }).type;
  }
}

const INFO_NOTES = new Set(['session.resumed', 'session.forked', 'context.condensed', 'tests.kept']);

export function noteCard(items: Item[], _card: Card, data: SessionPageData): CardView {
  const { i, e } = items[0]!;
  return {
    title: clean(noteText(e as NoteEvent, i, data)),
    tone: INFO_NOTES.has(e.type) ? 'info' : 'warning',
    compact: true,
  };
}

/** An event this page does not know: its type as a title, its fields as they were recorded. */
export function unknownCard(items: Item[]): CardView {
  const e = (items[0]?.e || {}) as Record<string, unknown>;
  const fields = Object.entries(e).filter(([k]) => !['type', 'v', 'seq', 'ts'].includes(k));
  const human = looksHuman(e);
  const text = fields.find(([k, v]) => typeof v === 'string' && ['text', 'message', 'content'].includes(k));
  return {
    title: clean(humanise(e.type)),
    tone: human ? 'human' : 'unknown',
    body: h(
      'div',
      null,
      text ? prose(text[1]) : null,
      facts(
        fields
          .filter((f) => f !== text)
          .map(([k, v]) => [
            k,
            typeof v === 'string'
              ? v.includes('\n')
                ? textBlock(v)
                : clean(v)
              : h('pre', { class: 'code' }, clean(pretty(v))),
          ]),
      ),
    ),
  };
}
