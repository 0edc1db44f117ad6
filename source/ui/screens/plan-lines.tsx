import { Text } from 'ink';
import type { PatchAnswer } from '../../engine/protocol/decisions';
import type { Line } from '../components/lines';
import type { RunResult } from '../../engine/events';
import { PLAN_MARKS, planTargetName, targetVerdictLines } from '../../engine/phrase-book';
import type { PlanView } from '../view/types';

/** What the header names while a plan runs: `target 2/3 · area`; undefined outside a plan's target. */
export function planHeaderTarget(plan: PlanView | undefined): string | undefined {
  const now = plan?.current;
  return now ? `target ${now.index}/${now.total} · ${planTargetName(now.target)}` : undefined;
}

/** The plan's targets in a row with their status: `✓ area · ◐ perimeter · ○ describe · ⏭ scale`. */
export function planStrip(plan: PlanView): string {
  const names = [...plan.order, ...plan.skipped.filter((t) => !plan.order.includes(t))];
  return names.map((t) => `${PLAN_MARKS[plan.status[t] ?? 'waiting']} ${planTargetName(t)}`).join(' · ');
}

/** Under the header while a plan runs: every target and its status. */
export function PlanStrip({ plan }: { plan: PlanView | undefined }) {
  if (!plan) return null;
  return (
    <Text wrap="truncate" dimColor>
      plan: {planStrip(plan)}
    </Text>
  );
}

/**
 * On the result screen of a plan: one verdict per target, coloured as its mark; with `chosen`
 * (the developer picks what `a` applies), each numbered and ticked when chosen.
 */
export function planVerdictLines(result: RunResult, chosen?: ReadonlySet<string>): Line[] {
  return targetVerdictLines(result.targets ?? []).map((text, i) => {
    const t = result.targets![i]!;
    const pick = chosen ? `${i + 1} [${chosen.has(t.target) ? 'x' : ' '}] ` : '';
    return { text: `  ${pick}${text}`, color: t.pass ? 'green' : t.stopReason === 'skipped' ? 'gray' : 'red' };
  });
}

/** A plan's result whose targets the developer may choose among (up to the nine digit keys). */
export const choosesTargets = (result: RunResult) =>
  !!result.targets && result.targets.length > 1 && result.targets.length <= 9;

/** The targets `a` applies at first: the passed ones. */
export const passedTargets = (result: RunResult) =>
  new Set((result.targets ?? []).filter((t) => t.pass).map((t) => t.target));

/**
 * What `a` applies: a plan's chosen targets (every target when all passed and all are chosen),
 * else the passed ones (a failing target's code stays out); a single run's patch as it is.
 */
export function applyAnswer(result: RunResult, chosen: ReadonlySet<string> = passedTargets(result)): PatchAnswer {
  if (!result.targets) return 'accept';
  if (result.pass && chosen.size === result.targets.length) return 'accept';
  return chosen.size ? { targets: result.targets.map((t) => t.target).filter((t) => chosen.has(t)) } : 'accept';
}

/** Whether what `a` would apply holds code that did not pass (then it asks twice). */
export function appliesFailing(result: RunResult, chosen: ReadonlySet<string>): boolean {
  if (!result.targets) return !result.pass;
  return result.targets.some((t) => chosen.has(t.target) && !t.pass);
}
