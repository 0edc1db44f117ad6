import type { EventHandlers, EventOf, RunResult } from '../../events';
import { handleWith } from '../../protocol/handlers';
import { clean, facts, h } from './dom';
import { dollars, duration, integer, outcomeClass, counted, timeOf, shortTest } from './format';
import type { PageEvent } from './types';
import { PHASES, PURPOSE_TITLES } from './words';

// The panel beside the timeline: where the session was at the player's position — its phase, the
// running totals, and the grid of every test run so far. Folded from the events, starting from
// the nearest checkpoint (one every 500 events), so moving anywhere in a long session is cheap.

const RUN_LETTER: Record<string, string> = { validate: 'V', agent: 'A', evaluate: 'E' };
const GRID_COLUMNS = 10;
const GRID_ROWS = 60;
const STATE_EVERY = 500;

interface TestRunColumn {
  purpose: string;
  outcomes: Record<string, string>;
  passed: number;
  total: number;
}

export interface PanelState {
  /** THM's run, or the agent's latest phase but `done`. */
  phase: { phase: 'thm' } | Pick<EventOf<'agent.phase'>, 'phase'> | null;
  round: number;
  usage: { input: number; output: number; cost: number; modelCalls: number; toolCalls: number };
  runs: TestRunColumn[];
  chosen: string[];
  submissions: number;
  /** The first and the latest recorded time. */
  start: number;
  at: number;
  result: RunResult | null;
  /** A plan: the target running (`target 2/3 · area`). */
  target?: string;
}

const initialState = (): PanelState => ({
  phase: null,
  round: 0,
  usage: { input: 0, output: 0, cost: 0, modelCalls: 0, toolCalls: 0 },
  runs: [],
  chosen: [],
  submissions: 0,
  start: 0,
  at: 0,
  result: null,
});
const copyState = (s: PanelState): PanelState => ({ ...s, usage: { ...s.usage }, runs: s.runs.slice() });

/** A model call's tokens and cost, answered or not (billed though no answer came: not a call). */
function spend(s: PanelState, e: EventOf<'model.response' | 'model.unanswered'>): void {
  s.usage.input += e.usage?.inputTokens || 0;
  s.usage.output += e.usage?.outputTokens || 0;
  s.usage.cost += e.costUsd || 0;
}

/** What each event does to the panel: every event type decides, so a new one that costs tokens cannot be missed. */
const PANEL: EventHandlers<[s: PanelState]> = {
  'thm.start': (_e, s) => {
    s.phase = { phase: 'thm' };
  },
  'agent.phase': (e, s) => {
    if (e.phase !== 'done') s.phase = e;
  },
  'thm.approval': (e, s) => {
    s.chosen = e.chosen || [];
  },
  'model.request': (e, s) => {
    s.round = e.round;
  },
  'model.response': (e, s) => {
    spend(s, e);
    s.usage.modelCalls++;
  },
  'model.unanswered': (e, s) => {
    spend(s, e);
  },
  'tool.call': (_e, s) => {
    s.usage.toolCalls++;
  },
  submission: (_e, s) => {
    s.submissions++;
  },
  'plan.target': (e, s) => {
    s.target = `target ${e.index}/${e.total} · ${e.target.slice(e.target.indexOf('::') + 2)}`;
  },
  'plan.final': (_e, s) => {
    s.target = 'final evaluation';
  },
  'tests.run': (e, s) => {
    s.runs.push({ purpose: e.purpose, outcomes: e.outcomes || {}, passed: e.passed, total: e.total });
  },
  result: (e, s) => {
    s.result = e;
  },
  'session.start': 'ignored',
  plan: 'ignored',
  'plan.target.end': 'ignored',
  'thm.phase': 'ignored',
  'thm.collected': 'ignored',
  'thm.collecting': 'ignored',
  'thm.running': 'ignored',
  'thm.test': 'ignored',
  'thm.report': 'ignored',
  'tests.added': 'ignored',
  'tests.hidden': 'ignored',
  'index.ready': 'ignored',
  'context.condensed': 'ignored',
  'developer.message': 'ignored',
  'model.delta': 'ignored',
  'model.tool-delta': 'ignored',
  'model.retry': 'ignored',
  'step.pause': 'ignored',
  'tool.edit': 'ignored',
  'tool.result': 'ignored',
  'debugger.input': 'ignored',
  'debugger.output': 'ignored',
  'debugger.entry': 'ignored',
  'tests.submission': 'ignored',
  'patch.decision': 'ignored',
  'tests.kept': 'ignored',
  'command.approval': 'ignored',
  'session.interrupted': 'ignored',
  'session.resumed': 'ignored',
  'session.forked': 'ignored',
  'limit.reached': 'ignored',
  warning: 'ignored',
  error: 'ignored',
};

function applyEvent(s: PanelState, e: PageEvent | undefined): void {
  if (!e) return;
  const t = timeOf(e);
  if (t) {
    if (!s.start) s.start = t;
    s.at = t;
  }
  handleWith(PANEL, e, s);
}

/** A function from a position (an event index) to the state after that event. */
export function sessionStates(events: readonly PageEvent[]): (pos: number) => PanelState {
  const checkpoints = [initialState()];
  return (pos) => {
    const upto = Math.min(events.length, pos + 1);
    const from = Math.min(Math.floor(upto / STATE_EVERY), checkpoints.length - 1);
    const state = copyState(checkpoints[from]!);
    for (let i = from * STATE_EVERY; i < upto; i++) {
      applyEvent(state, events[i]);
      if ((i + 1) % STATE_EVERY === 0 && checkpoints.length === (i + 1) / STATE_EVERY)
        checkpoints.push(copyState(state));
    }
    return state;
  };
}

function phaseLabel(state: PanelState): string {
  if (state.result) return 'Finished';
  if (!state.phase) return 'Starting';
  const { phase } = state.phase;
  if (phase === 'thm') return 'Test Harness Mechanism';
  return (PHASES[phase] || (() => phase))(state.phase as EventOf<'agent.phase'>);
}

/** Rows: every test of the runs shown, the ones given to the agent first. */
function testGrid(state: PanelState): HTMLElement {
  const counters: Record<string, number> = {};
  const runs = state.runs.map((run) => {
    const letter = RUN_LETTER[run.purpose] || '?';
    counters[letter] = (counters[letter] || 0) + 1;
    return { ...run, label: `${letter}${counters[letter]}` };
  });
  const shown = runs.slice(-GRID_COLUMNS);
  if (!shown.length) return h('p', { class: 'muted' }, 'No test has run yet.');
  const ids = [
    ...new Set([
      ...state.chosen.filter((id) => shown.some((r) => id in r.outcomes)),
      ...shown.flatMap((r) => Object.keys(r.outcomes)),
    ]),
  ];
  const table = h(
    'table',
    { class: 'test-grid' },
    h(
      'thead',
      null,
      h(
        'tr',
        null,
        h('th', null, ''),
        shown.map((r) =>
          h('th', { title: `${PURPOSE_TITLES[r.purpose] || r.purpose}: ${r.passed}/${r.total} passed` }, r.label),
        ),
      ),
    ),
    h(
      'tbody',
      null,
      ids.slice(0, GRID_ROWS).map((id) =>
        h(
          'tr',
          null,
          h('th', { title: id, class: state.chosen.includes(id) ? 'chosen' : '' }, clean(shortTest(id))),
          shown.map((r) => {
            const outcome = r.outcomes[id];
            return h('td', {
              class: outcome ? outcomeClass(outcome) : 'absent',
              title: `${id}\n${r.label}: ${outcome || 'not in this run'}`,
            });
          }),
        ),
      ),
    ),
  );
  return h(
    'div',
    null,
    table,
    ids.length > GRID_ROWS ? h('p', { class: 'muted' }, `and ${ids.length - GRID_ROWS} more tests`) : null,
    h('p', { class: 'legend muted' }, 'V validation · A the agent’s own run · E evaluation; bold: given to the agent'),
  );
}

export function renderSidebar(aside: HTMLElement, state: PanelState): void {
  const u = state.usage;
  aside.replaceChildren(
    h(
      'section',
      { class: 'panel' },
      h('h4', null, 'Now'),
      h('p', { class: 'phase' }, phaseLabel(state)),
      state.target && !state.result ? h('p', { class: 'muted' }, clean(state.target)) : null,
      facts([
        ['model round', state.round || ''],
        ['time', state.start ? `+${duration(state.at - state.start)}` : ''],
        [
          'result',
          state.result
            ? h(
                'span',
                { class: `verdict ${state.result.pass ? 'pass' : 'fail'}` },
                state.result.stopReason === 'unverified' ? 'UNVERIFIED' : state.result.pass ? 'PASS' : 'FAIL',
              )
            : '',
        ],
      ]),
    ),
    h(
      'section',
      { class: 'panel' },
      h('h4', null, 'Usage so far'),
      facts([
        ['tokens', `${integer(u.input)} in · ${integer(u.output)} out`],
        ['cost', dollars(u.cost)],
        ['calls', `${counted(u.modelCalls, 'model call')} · ${counted(u.toolCalls, 'tool call')}`],
        ['submissions', integer(state.submissions)],
      ]),
    ),
    h('section', { class: 'panel' }, h('h4', null, 'Tests'), testGrid(state)),
  );
}
