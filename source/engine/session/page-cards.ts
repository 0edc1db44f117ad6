import type { EventType } from '../events';

/**
 * The session page's cards (page/cards.js draws each kind; RENDERERS there has one per kind).
 * `turn`, `tool`, `debugger`, `thm` and `tests` gather several events (page/timeline.js decides
 * which card of the kind an event joins); every other kind is a card of its own.
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
  | 'note';

/**
 * Which card each event type goes to on the page. The page's script is plain JavaScript, so its
 * table is made here, typed over every event type, and written into the page (`CARD_OF`): a new
 * event type does not type-check until it has a card, or is ignored.
 */
export const PAGE_CARD_OF: Record<EventType, PageCardKind | 'ignored'> = {
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
  'tests.kept': 'note',
  'command.approval': 'command',
  'session.interrupted': 'note',
  'session.resumed': 'note',
  'session.forked': 'note',
  'limit.reached': 'note',
  warning: 'note',
  error: 'note',
};
