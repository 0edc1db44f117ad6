import { Box, Text } from 'ink';
import { stageName, TEST_RUNS } from '../../engine/phrase-book';
import { useNow } from '../components/use-now';
import type { ViewState } from '../view-state';

/**
 * Where the agent is: pre-generation round i/15, refinement attempt j/5 and its stage, a TDD
 * round, or the measuring of the agent's tests (which has no events of its own: `elapsed` shows it
 * is not stuck).
 */
function phaseLine(view: ViewState, elapsedMs = 0): string {
  const a = view.agent;
  switch (a.phase) {
    case 'pregen':
      return `pre-generation · round ${a.round}/${a.pregenRounds}`;
    case 'validate':
      return `running the ${TEST_RUNS.validate}`;
    case 'rrw':
      return `refinement attempt ${a.attempt}/${a.attempts} · ${stageName(a.stage ?? undefined)} · round ${a.round}`;
    case 'tdd-setup':
      return `tests first · round ${a.round}/${a.tdd?.setupRounds ?? '?'}`;
    case 'tdd':
      return `co-refinement · test run ${a.tdd?.iteration}/${a.tdd?.iterations} · round ${a.round}`;
    case 'evaluate':
      return 'evaluating on every failing test';
    case 'quality':
      return `measuring the tests · ${Math.floor(elapsedMs / 1000)} s · pass rate, coverage, then mutants (each reruns them)`;
    case 'done':
      return 'done';
    default:
      return 'preparing the tools';
  }
}

/** Rows the header takes: two lines and its rule. */
export const HEADER_ROWS = 3;

/** The session's first lines: target, phase, model. `clock` is `recorded` in a replay. */
export function Header({ view, width, clock = 'wall' }: { view: ViewState; width: number; clock?: 'wall' | 'recorded' }) {
  const s = view.session;
  // The quality phase sends nothing for minutes on a large target: a ticking clock says it runs.
  const now = useNow(clock === 'wall' && view.agent.phase === 'quality');
  const elapsed = (clock === 'wall' ? now : view.at) - view.agent.phaseAt;
  return (
    <Box flexDirection="column" borderStyle="single" borderBottom borderTop={false} borderLeft={false} borderRight={false}>
      <Text wrap="truncate">
        <Text bold>tenet</Text> · {s?.target ?? '…'} {s?.mode === 'blank' ? <Text dimColor>(benchmark)</Text> : ''} · <Text color="cyan">{phaseLine(view, elapsed)}</Text>
      </Text>
      <Text wrap="truncate" dimColor>
        {s ? `model: ${s.modelLabel}` : ''}
        {width > 100 && s ? ` · session ${s.id}` : ''}
      </Text>
    </Box>
  );
}
