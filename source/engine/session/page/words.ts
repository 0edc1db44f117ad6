import type { EventOf } from '../../events';

/** Each agent phase's heading, from its event (the cards' dividers and the side panel's "Now"). */
export const PHASES: Record<string, (e: Partial<EventOf<'agent.phase'>>) => string> = {
  pregen: (e) => `Pre-generation${e.rounds ? ` · up to ${e.rounds} rounds` : ''}`,
  validate: (e) => `Validation against the selected tests${e.attempt ? ` · after refinement ${e.attempt}` : ''}`,
  rrw: (e) =>
    `Refinement attempt ${e.attempt ?? '?'}${e.attempts ? `/${e.attempts}` : ''}${e.stage ? ` · ${String(e.stage).replace(/-/g, ' ')}` : ''}`,
  'tdd-setup': (e) => `Tests first${e.rounds ? ` · up to ${e.rounds} rounds` : ''}`,
  tdd: (e) => `Co-refinement · test run ${e.round ?? '?'}${e.rounds ? `/${e.rounds}` : ''}`,
  evaluate: () => 'Evaluation on every failing test',
  quality: () => "Measuring the agent's tests",
};

/** What each purpose of a test run is, as a title. */
export const PURPOSE_TITLES: Record<string, string> = {
  validate: 'Validation: the selected tests',
  evaluate: 'Evaluation: every failing test',
  agent: 'The agent ran the tests',
};
