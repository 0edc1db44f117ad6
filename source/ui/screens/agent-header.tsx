import { Box, Text } from 'ink';
import { stageName, TEST_RUNS } from '../../engine/phrase-book';
import { columns, shortEnd, shortMiddle } from '../components/lines';
import { useNow } from '../components/use-now';
import { PlanStrip, planHeaderTarget } from './plan-lines';
import type { ViewState } from '../view/types';

/**
 * Where the agent is: pre-generation round i/15, refinement attempt j/5 and its stage, a TDD
 * round, or the measuring of the agent's tests (which has no events of its own: `elapsed` shows it
 * is not stuck). `short`: the same without the words a narrow header has no room for.
 */
function phaseLine(view: ViewState, elapsedMs = 0, short = false): string {
  const a = view.agent;
  switch (a.phase) {
    case 'pregen':
      return `pre-generation · round ${a.round}/${a.pregenRounds}`;
    case 'validate':
      return `running the ${TEST_RUNS.validate}`;
    case 'rrw':
      // The model call's number, as a step pause counts them ("before model call 18" comes after "model call 17").
      return `${short ? 'attempt' : 'refinement attempt'} ${a.attempt}/${a.attempts} · ${stageName(a.stage ?? undefined)} · ${short ? 'call' : 'model call'} ${a.round}`;
    case 'tdd-setup':
      return `tests first · round ${a.round}/${a.tdd?.setupRounds ?? '?'}`;
    case 'tdd':
      return `${short ? '' : 'co-refinement · '}test run ${a.tdd?.iteration}/${a.tdd?.iterations} · ${short ? 'call' : 'model call'} ${a.round}`;
    case 'evaluate': {
      // The slowest step on a large target (199 s for 637 tests) sends nothing until it ends: its clock ticks.
      const tests = view.thm.report?.failing.length;
      const seconds = `${Math.floor(elapsedMs / 1000)} s`;
      return tests === undefined
        ? `evaluating on every failing test · ${seconds}`
        : short
          ? `evaluating ${tests} tests · ${seconds}`
          : `evaluating the patch on all ${tests} failing tests · ${seconds}`;
    }
    case 'quality':
      return `measuring the tests · ${Math.floor(elapsedMs / 1000)} s${short ? '' : ' · pass rate, coverage, then mutants (each reruns them)'}`;
    case 'done':
      return 'done';
    default:
      return 'preparing the tools';
  }
}

/** The header's first line in parts: tenet's name, the target, the mode, the phase. */
export interface HeaderLine {
  name: boolean;
  target: string;
  mode: string;
  phase: string;
}

/** A target cut in the middle keeps this much: less says nothing of which function it is. */
const MIN_TARGET = 12;

/**
 * The first line as it fits `width`: what is given up first is tenet's name, then the phase's
 * longer words, then the middle of the target's path, then "(benchmark)", so the phase and its
 * round stay on screen (they are what changes). The last try is returned if none fits (Ink cuts it).
 */
export function fitHeaderLine(
  target: string,
  mode: string,
  phase: { long: string; short: string },
  width: number,
): HeaderLine {
  const tries: (Omit<HeaderLine, 'target'> & { cut: boolean })[] = [
    { name: true, mode, phase: phase.long, cut: false },
    { name: false, mode, phase: phase.long, cut: false },
    { name: false, mode, phase: phase.short, cut: false },
    { name: false, mode, phase: phase.short, cut: true },
    { name: false, mode: '', phase: phase.short, cut: true },
  ];
  let line: HeaderLine | undefined;
  for (const { cut, ...attempt } of tries) {
    const room =
      width -
      ((attempt.name ? columns('tenet · ') : 0) +
        (attempt.mode ? columns(attempt.mode) + 1 : 0) +
        columns(' · ') +
        columns(attempt.phase));
    line = { ...attempt, target: shortMiddle(target, Math.max(MIN_TARGET, room)) };
    if (columns(target) <= room || (cut && room >= MIN_TARGET)) return line;
  }
  return line!;
}

/**
 * The header's second line at `width`: the model, the sandbox and the session's id. The id is what
 * `tenet resume` and `show` take: it is never cut; the model's label (its base URL can be long) is
 * shortened in the middle first, then the sandbox goes, and at last the id, whole.
 */
export function sessionLine(session: { modelLabel: string; sandbox: string; id: string }, width: number): string {
  const id = ` · session ${session.id}`;
  const sandbox = ` · sandbox: ${session.sandbox}`;
  for (const tail of [`${sandbox}${id}`, id, sandbox, '']) {
    const room = width - columns(`model: ${tail}`);
    if (room >= Math.min(20, columns(session.modelLabel)))
      return `model: ${shortMiddle(session.modelLabel, room)}${tail}`;
  }
  return shortEnd(`model: ${session.modelLabel}`, width);
}

/** Rows the header takes: two lines and its rule. */
export const HEADER_ROWS = 3;

/** The session's first lines: target, phase, model. `clock` is `recorded` in a replay. */
export function Header({
  view,
  width,
  clock = 'wall',
}: {
  view: ViewState;
  width: number;
  clock?: 'wall' | 'recorded';
}) {
  const s = view.session;
  // The evaluation and the quality phase send nothing for minutes on a large target: a ticking clock says they run.
  const now = useNow(clock === 'wall' && (view.agent.phase === 'quality' || view.agent.phase === 'evaluate'));
  const elapsed = (clock === 'wall' ? now : view.at) - view.agent.phaseAt;
  const line = fitHeaderLine(
    planHeaderTarget(view.plan) ?? s?.target ?? '…',
    s?.mode === 'blank' ? '(benchmark)' : '',
    { long: phaseLine(view, elapsed), short: phaseLine(view, elapsed, true) },
    width,
  );
  return (
    <Box
      flexDirection="column"
      borderStyle="single"
      borderBottom
      borderTop={false}
      borderLeft={false}
      borderRight={false}
    >
      <Text wrap="truncate">
        {line.name ? <Text bold>tenet</Text> : ''}
        {line.name ? ' · ' : ''}
        {line.target}
        {line.mode ? <Text dimColor> {line.mode}</Text> : ''} · <Text color="cyan">{line.phase}</Text>
      </Text>
      <Text wrap="truncate" dimColor>
        {s ? sessionLine(s, width) : ''}
      </Text>
      <PlanStrip plan={view.plan} />
    </Box>
  );
}
