import { phaseHeading } from '../../engine/phrase-book';
import { asPlaced, functionName, withoutDecorators } from '../../engine/session/page-diffs';
import { push, revise } from './items';
import { currentTarget } from './plan-events';
import type { ViewHandlers } from './types';

/** The agent's progress: its phases, what it submitted (code, and its own tests under TDD), and the test runs. */
export const AGENT_EVENTS = {
  'agent.phase': (event, state, now) => {
    // A new phase: no call of the previous one is still running (a cancelled call that stopped the agent).
    state.agent.call = undefined;
    state.agent.retry = undefined;
    state.agent.phase = event.phase;
    state.agent.phaseAt = now;
    if (event.phase === 'pregen') {
      state.agent.pregenRounds = event.rounds ?? state.agent.pregenRounds;
    } else if (event.phase === 'rrw') {
      state.agent.attempt = event.attempt ?? state.agent.attempt;
      state.agent.attempts = event.attempts ?? state.agent.attempts;
      state.agent.stage = event.stage ?? null;
    } else if (event.phase === 'tdd-setup') {
      state.agent.tdd = {
        setupRounds: event.rounds ?? 0,
        iteration: 0,
        iterations: 0,
        outcomes: {},
        revisions: [],
        ...state.agent.tdd,
      };
    } else if (event.phase === 'tdd') {
      const tdd = state.agent.tdd ?? { setupRounds: 0, iteration: 0, iterations: 0, outcomes: {}, revisions: [] };
      state.agent.tdd = { ...tdd, iteration: event.round ?? tdd.iteration, iterations: event.rounds ?? tdd.iterations };
    }
    const heading = phaseHeading(event);
    if (heading) push(state, { kind: 'phase', text: heading });
  },
  'tests.submission': (event, state) => {
    const previous = state.agent.tdd?.testFile;
    revise(state, 'tests', previous?.code ?? '', event.code, {
      number: (previous?.versions ?? 0) + 1,
      against: previous ? 'the previous tests' : 'nothing (a new file)',
      ok: event.ok,
    });
    if (event.ok && state.agent.tdd) {
      state.agent.tdd = {
        ...state.agent.tdd,
        testFile: {
          path: event.path ?? previous?.path ?? 'test_by_agent.py',
          code: event.code,
          versions: (previous?.versions ?? 0) + 1,
        },
      };
    }
  },
  submission: (event, state) => {
    const { code, starting } = state.agent;
    const against =
      code !== undefined
        ? 'the previous submission'
        : starting === undefined
          ? 'nothing'
          : state.session?.mode === 'blank'
            ? 'the blanked function'
            : 'the stub';
    state.agent.submissions++;
    // What goes in place (the docstring kept when the submission has none), against what was there.
    const placed = asPlaced(event.code, code ?? starting, functionName(currentTarget(state)));
    revise(state, 'code', code ?? withoutDecorators(starting ?? '', placed), placed, {
      number: state.agent.submissions,
      against,
      ok: event.ok,
    });
    // A rejected submission (a syntax error) stays out: the next one is compared with what is in place.
    if (event.ok) state.agent.code = placed;
  },
  'tests.run': (event, state) => {
    push(state, {
      kind: 'tests',
      purpose: event.purpose,
      outcomes: event.outcomes,
      passed: event.passed,
      total: event.total,
    });
    if (event.purpose === 'validate') state.agent.tests = event.outcomes;
    if (event.purpose === 'evaluate') state.evaluation = { report: event.report };
    if (event.purpose === 'agent' && state.agent.tdd)
      state.agent.tdd = { ...state.agent.tdd, outcomes: event.outcomes };
  },
  // The index and a step pause show no line of their own (the step prompt is the controller's).
  'index.ready': 'ignored',
  'step.pause': 'ignored',
} satisfies Partial<ViewHandlers>;
