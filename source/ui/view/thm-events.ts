import { isFailure } from '../../engine/phrase-book';
import { mergeDeveloperTests } from '../../engine/thm/developer-tests';
import { proposeFor } from '../../engine/thm/propose';
import { push } from './items';
import type { ViewHandlers } from './types';

/**
 * THM's events: its passes over the suite as they run, its report, the developer's own tests, and
 * the tests chosen for the agent.
 */
export const THM_EVENTS = {
  'thm.start': (_event, state, now) => {
    state.thm = { ...state.thm, startedAt: now };
  },
  'thm.phase': (event, state, now) => {
    state.thm = {
      ...state.thm,
      phase: event.phase,
      done: 0,
      failing: 0,
      total: event.tests ?? state.thm.total,
      startedAt: state.thm.startedAt || now,
      running: [],
    };
    delete state.thm.collecting;
  },
  'thm.collecting': (event, state) => {
    state.thm.collecting = { files: event.files, tests: event.tests };
  },
  'thm.collected': (event, state) => {
    if (event.phase === 'probe') state.thm.total = event.total;
    delete state.thm.collecting;
  },
  'thm.running': (event, state) => {
    state.thm.running = event.tests;
  },
  'thm.test': (event, state) => {
    state.thm.done++;
    if (isFailure(event.outcome)) state.thm.failing++;
  },
  'thm.report': (event, state) => {
    state.thm.report = event.report;
  },
  'tests.added': (event, state) => {
    if (state.thm.report) state.thm.report = mergeDeveloperTests(state.thm.report, event);
    const before = state.thm.developer ?? { accepted: [], rejected: [] };
    const accepted = [
      ...before.accepted.filter((id) => !event.removed.includes(id) && !event.accepted.some((t) => t.nodeid === id)),
      ...event.accepted.map((t) => t.nodeid),
    ];
    state.thm.developer = {
      accepted,
      rejected: [
        ...before.rejected.filter((r) => !event.accepted.some((t) => t.nodeid === r.nodeid)),
        ...event.rejected,
      ],
    };
    const kept = event.rejected.map((r) => `${r.nodeid} (${r.reason})`);
    push(state, {
      kind: 'note',
      text: `You wrote tests: ${event.accepted.length ? `${event.accepted.map((t) => t.nodeid).join(', ')} joined` : 'none joined'}${kept.length ? `; kept out: ${kept.join('; ')}` : ''}`,
      tone: 'human',
    });
  },
  'thm.approval': (event, state) => {
    // Against THM's proposal for the T the developer settled on: a new T alone is no override.
    const report = state.thm.report;
    const proposed = report && event.T !== null && event.T !== report.T ? proposeFor(report, event.T) : event.proposed;
    state.thm.approval = { proposed, chosen: event.chosen, by: event.by };
    if (event.by === 'human' && event.chosen.join() !== proposed.join())
      push(state, {
        kind: 'note',
        text: `You chose the tests: ${event.chosen.join(', ')} (proposed${event.T !== null ? ` for T=${event.T}` : ''}: ${proposed.join(', ')})`,
        tone: 'human',
      });
  },
  // The hidden tests are in THM's report and the approval.
  'tests.hidden': 'ignored',
} satisfies Partial<ViewHandlers>;
