// The panel beside the timeline: where the session was at the player's position — its phase, the
// running totals, and the grid of every test run so far. Folded from the events, starting from
// the nearest checkpoint (one every 500 events), so moving anywhere in a long session is cheap.

const RUN_LETTER = { validate: 'V', agent: 'A', evaluate: 'E' };
const GRID_COLUMNS = 10;
const GRID_ROWS = 60;
const STATE_EVERY = 500;

const initialState = () => ({ phase: null, round: 0, usage: { input: 0, output: 0, cost: 0, modelCalls: 0, toolCalls: 0 }, runs: [], chosen: [], submissions: 0, start: 0, at: 0, result: null });
const copyState = (s) => ({ ...s, usage: { ...s.usage }, runs: s.runs.slice() });

function applyEvent(s, e) {
  if (!e) return;
  const t = recordedAt(e);
  if (t) {
    if (!s.start) s.start = t;
    s.at = t;
  }
  switch (e.type) {
    case 'thm.start':
      s.phase = { phase: 'thm' };
      break;
    case 'agent.phase':
      if (e.phase !== 'done') s.phase = e;
      break;
    case 'thm.approval':
      s.chosen = e.chosen || [];
      break;
    case 'model.request':
      s.round = e.round;
      break;
    case 'model.response':
      s.usage.input += (e.usage && e.usage.inputTokens) || 0;
      s.usage.output += (e.usage && e.usage.outputTokens) || 0;
      s.usage.cost += e.costUsd || 0;
      s.usage.modelCalls++;
      break;
    case 'model.unanswered':
      // Billed though no answer came (the provider gave up, or the call was cancelled): not a call.
      s.usage.input += (e.usage && e.usage.inputTokens) || 0;
      s.usage.output += (e.usage && e.usage.outputTokens) || 0;
      s.usage.cost += e.costUsd || 0;
      break;
    case 'tool.call':
      s.usage.toolCalls++;
      break;
    case 'submission':
      s.submissions++;
      break;
    case 'tests.run':
      s.runs.push({ purpose: e.purpose, outcomes: e.outcomes || {}, passed: e.passed, total: e.total });
      break;
    case 'result':
      s.result = e;
      break;
    default:
      break;
  }
}

/** A function from a position (an event index) to the state after that event. */
function sessionStates(events) {
  const checkpoints = [initialState()];
  return (pos) => {
    const upto = Math.min(events.length, pos + 1);
    const from = Math.min(Math.floor(upto / STATE_EVERY), checkpoints.length - 1);
    const state = copyState(checkpoints[from]);
    for (let i = from * STATE_EVERY; i < upto; i++) {
      applyEvent(state, events[i]);
      if ((i + 1) % STATE_EVERY === 0 && checkpoints.length === (i + 1) / STATE_EVERY) checkpoints.push(copyState(state));
    }
    return state;
  };
}

function phaseLabel(state) {
  if (state.result) return 'Finished';
  if (!state.phase) return 'Starting';
  if (state.phase.phase === 'thm') return 'Test Harness Mechanism';
  return (PHASES[state.phase.phase] || (() => state.phase.phase))(state.phase);
}

/** Rows: every test of the runs shown, the ones given to the agent first. */
function testGrid(state) {
  const counters = {};
  const runs = state.runs.map((run) => {
    const letter = RUN_LETTER[run.purpose] || '?';
    counters[letter] = (counters[letter] || 0) + 1;
    return { ...run, label: `${letter}${counters[letter]}` };
  });
  const shown = runs.slice(-GRID_COLUMNS);
  if (!shown.length) return h('p', { class: 'muted' }, 'No test has run yet.');
  const ids = [...new Set([...state.chosen.filter((id) => shown.some((r) => id in r.outcomes)), ...shown.flatMap((r) => Object.keys(r.outcomes))])];
  const table = h(
    'table',
    { class: 'test-grid' },
    h('thead', null, h('tr', null, h('th', null, ''), shown.map((r) => h('th', { title: `${PURPOSE_TITLES[r.purpose] || r.purpose}: ${r.passed}/${r.total} passed` }, r.label)))),
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
            return h('td', { class: outcome ? outcomeClass(outcome) : 'absent', title: `${id}\n${r.label}: ${outcome || 'not in this run'}` });
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

function renderSidebar(aside, state) {
  const u = state.usage;
  aside.replaceChildren(
    h(
      'section',
      { class: 'panel' },
      h('h4', null, 'Now'),
      h('p', { class: 'phase' }, phaseLabel(state)),
      facts([
        ['model round', state.round || ''],
        ['time', state.start ? `+${duration(state.at - state.start)}` : ''],
        ['result', state.result ? h('span', { class: `verdict ${state.result.pass ? 'pass' : 'fail'}` }, state.result.stopReason === 'unverified' ? 'UNVERIFIED' : state.result.pass ? 'PASS' : 'FAIL') : ''],
      ]),
    ),
    h(
      'section',
      { class: 'panel' },
      h('h4', null, 'Usage so far'),
      facts([
        ['tokens', `${integer(u.input)} in · ${integer(u.output)} out`],
        ['cost', dollars(u.cost)],
        ['calls', `${plural(u.modelCalls, 'model call')} · ${plural(u.toolCalls, 'tool call')}`],
        ['submissions', integer(state.submissions)],
      ]),
    ),
    h('section', { class: 'panel' }, h('h4', null, 'Tests'), testGrid(state)),
  );
}
