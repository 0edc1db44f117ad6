import type { EventType } from '../events';

/**
 * The session page's cards (page/render-card.ts draws each kind; RENDERERS there has one per
 * kind, typed). `turn`, `tool`, `debugger`, `thm` and `tests` gather several events
 * (page/timeline.ts decides which card of the kind an event joins); every other kind is a card of
 * its own.
 */
export type PageCardKind =
  | 'session'
  | 'thm'
  | 'approval'
  | 'hidden'
  | 'index'
  | 'phase'
  | 'turn'
  | 'tool'
  | 'submission'
  | 'tests-submission'
  | 'tests'
  | 'command'
  | 'debugger'
  | 'patch'
  | 'message'
  | 'step'
  | 'developer-tests'
  | 'result'
  | 'plan'
  | 'note';

/**
 * Which card each event type goes to on the page, typed over every event type: a new event type
 * does not type-check until it has a card, or is ignored. Each value is kept as written (`as
 * const`), so the page's renderers can be typed by the events each card kind is made of.
 */
export const PAGE_CARD_OF = {
  'session.start': 'session',
  'thm.start': 'thm',
  'thm.phase': 'thm',
  'thm.collected': 'thm',
  'thm.collecting': 'thm',
  'thm.running': 'thm',
  'thm.test': 'thm',
  'thm.report': 'thm',
  'thm.approval': 'approval',
  'tests.added': 'developer-tests',
  'tests.hidden': 'hidden',
  'index.ready': 'index',
  'agent.phase': 'phase',
  'model.request': 'turn',
  'model.delta': 'turn',
  'model.retry': 'turn',
  'model.response': 'turn',
  // Streamed arguments are never saved (tool.call has them whole).
  'model.tool-delta': 'ignored',
  'model.unanswered': 'note',
  'context.condensed': 'note',
  'developer.message': 'message',
  'tool.call': 'tool',
  'tool.edit': 'tool',
  'tool.result': 'tool',
  'step.pause': 'step',
  'debugger.input': 'debugger',
  'debugger.output': 'debugger',
  'debugger.entry': 'debugger',
  submission: 'submission',
  'tests.submission': 'tests-submission',
  'tests.run': 'tests',
  result: 'result',
  'patch.decision': 'patch',
  plan: 'plan',
  'plan.target': 'plan',
  'plan.target.end': 'plan',
  'plan.final': 'plan',
  'tests.kept': 'note',
  'command.approval': 'command',
  'session.interrupted': 'note',
  'session.resumed': 'note',
  'session.forked': 'note',
  'limit.reached': 'note',
  warning: 'note',
  error: 'note',
} as const satisfies Record<EventType, PageCardKind | 'ignored'>;
