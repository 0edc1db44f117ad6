import { Box, Text } from 'ink';
import { type ReactNode, useReducer, useRef } from 'react';
import { PLAN_MARKS, planTargetName } from '../../engine/phrase-book';
import type { PlanDecision } from '../../engine/protocol/plan';
import type { PlanProposal } from '../../engine/run/pilot';
import { plural } from '../../engine/util/plural';
import { DimRows } from '../components/line-view';
import { shortMiddle } from '../components/lines';
import { useKeys } from '../components/use-keys';

export interface PlanScreenProps {
  proposal: PlanProposal;
  width: number;
  height: number;
  onDecide(decision: PlanDecision): void;
}

/** The plan's keys, in the footer. */
export const PLAN_KEYS = '↑↓ target · u/d move it up/down · s skip · Enter run · x stop';

/** `order` with the target at `from` moved by `by` (-1 up, 1 down); as it was at an end. */
export function moved(order: readonly string[], from: number, by: -1 | 1): string[] {
  const to = from + by;
  if (to < 0 || to >= order.length) return [...order];
  const next = [...order];
  [next[from], next[to]] = [next[to]!, next[from]!];
  return next;
}

/**
 * The plan before the first THM (issue 45): the targets in the order proposed, the tests the call
 * graph says reach each, why the order is so. The developer moves a target up or down, skips it
 * (⏭) or takes it back, runs the plan (Enter) or stops before anything ran (x).
 */
export function PlanScreen({ proposal, width, height, onDecide }: PlanScreenProps) {
  // Keys come faster than frames (a paste, key repeat): each acts on the choice the last one left,
  // held in a ref; the screen is drawn again after each.
  const choice = useRef({ order: [...proposal.order], skipped: new Set<string>(), at: 0 });
  const [, redraw] = useReducer((n: number) => n + 1, 0);
  const { order, skipped, at } = choice.current;
  const byName = new Map(proposal.targets.map((t) => [t.target, t]));

  useKeys((input, key) => {
    const now = choice.current;
    const last = now.order.length - 1;
    if (key.upArrow) now.at = Math.max(0, now.at - 1);
    else if (key.downArrow) now.at = Math.min(last, now.at + 1);
    else if (input === 'u' || input === 'd') {
      const by = input === 'u' ? -1 : 1;
      now.order = moved(now.order, now.at, by);
      now.at = Math.max(0, Math.min(last, now.at + by));
    } else if (input === 's') {
      const target = now.order[now.at]!;
      if (now.skipped.has(target)) now.skipped.delete(target);
      else now.skipped.add(target);
    } else if (input === 'x') return onDecide({ stop: true });
    else if (key.return) {
      const kept = now.order.filter((t) => !now.skipped.has(t));
      const changed = now.skipped.size > 0 || now.order.join() !== proposal.order.join();
      // Nothing left to run is a stop, said as one.
      if (!kept.length) return onDecide({ stop: true });
      return onDecide({
        order: kept,
        skipped: now.order.filter((t) => now.skipped.has(t)),
        by: changed ? 'human' : 'auto',
      });
    } else return;
    redraw();
  });

  const files = [...new Set(proposal.targets.map((t) => t.file))];
  const rows: ReactNode[] = [];
  order.forEach((name, i) => {
    const target = byName.get(name)!;
    const skip = skipped.has(name);
    const reach = `${plural(target.reaches.length, 'test')} ${target.reaches.length === 1 ? 'reaches' : 'reach'}`;
    rows.push(
      <Text key={name} inverse={i === at} wrap="truncate" dimColor={skip}>
        {i === at ? '❯ ' : '  '}
        {skip ? PLAN_MARKS.skipped : PLAN_MARKS.waiting} {i + 1}. <Text bold>{planTargetName(name)}</Text>
        {files.length > 1 ? <Text dimColor> ({target.file})</Text> : ''}
        <Text dimColor>
          {' '}
          · {reach} it{skip ? ' · skipped' : ''}
        </Text>
      </Text>,
    );
    rows.push(
      <Text key={`${name} sig`} dimColor wrap="truncate">
        {'      '}
        {shortMiddle(target.signature.trim(), Math.max(20, width - 8))}
        {target.summary ? ` — ${target.summary}` : ''}
      </Text>,
    );
  });
  // The why lines get what rows the targets leave (the header is 2 rows, the footer 2).
  const whyRows = Math.max(0, height - rows.length - 5);
  return (
    <Box flexDirection="column">
      <Text wrap="truncate">
        <Text bold>tenet</Text> · plan of {plural(order.length, 'target')} in {files.join(', ')} · one at a time, in
        this order
      </Text>
      {rows}
      <DimRows rows={proposal.why.slice(0, whyRows).map((why) => `  ${why}`)} />
      <Box marginTop={1}>
        <Text dimColor wrap="truncate">
          {PLAN_KEYS}
        </Text>
      </Box>
    </Box>
  );
}
