import { planEndWords, planFinalWords, planTargetWords, capitalized, type PlanMark } from '../../engine/phrase-book';
import { push } from './items';
import type { PlanView, ViewHandlers, ViewState } from './types';

/**
 * A plan's events (several stubs, one at a time): the plan as approved, each target's start (the
 * THM screen and the agent's counters start afresh; the transcript goes on, with a line that says
 * which target now), each target's end, and the final evaluation.
 */
export const PLAN_EVENTS = {
  plan: (event, state) => {
    const status: Record<string, PlanMark> = {};
    for (const target of event.order) status[target] = 'waiting';
    for (const target of event.skipped) status[target] = 'skipped';
    state.plan = {
      targets: event.targets,
      order: [...event.order],
      skipped: event.skipped,
      why: event.why,
      status,
      ends: {},
      final: false,
    };
  },
  'plan.target': (event, state, now) => {
    const plan = state.plan ?? emptyPlan();
    state.plan = {
      ...plan,
      current: { target: event.target, index: event.index, total: event.total },
      status: { ...plan.status, [event.target]: 'running' },
    };
    // Its own THM and agent: the screens start afresh, the finished transcript stays above.
    state.thm = { phase: null, total: 0, done: 0, failing: 0, startedAt: now, running: [] };
    const { items } = state.agent;
    state.agent = {
      phase: null,
      phaseAt: now,
      pregenRounds: 0,
      round: 0,
      attempt: 0,
      attempts: 0,
      stage: null,
      live: '',
      items,
      tests: {},
      streaming: [],
      submissions: 0,
    };
    delete state.evaluation;
    push(state, { kind: 'phase', text: capitalized(planTargetWords(event)) });
  },
  'plan.target.end': (event, state) => {
    const plan = state.plan ?? emptyPlan();
    const mark: PlanMark = event.after ? 'waiting' : event.pass ? 'passed' : 'failed';
    state.plan = {
      ...plan,
      status: { ...plan.status, [event.target]: mark },
      ends: { ...plan.ends, [event.target]: planEndWords(event) },
    };
    push(state, { kind: 'note', text: capitalized(planEndWords(event)), tone: 'info' });
  },
  'plan.final': (event, state) => {
    state.plan = { ...(state.plan ?? emptyPlan()), final: true };
    push(state, { kind: 'phase', text: capitalized(planFinalWords(event)) });
  },
} satisfies Partial<ViewHandlers>;

const emptyPlan = (): PlanView => ({
  targets: [],
  order: [],
  skipped: [],
  why: [],
  status: {},
  ends: {},
  final: false,
});

/** The function the agent works on now: a plan's current target, else the session's. */
export const currentTarget = (state: Pick<ViewState, 'plan' | 'session'>): string | undefined =>
  state.plan?.current?.target ?? state.session?.target;
