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

/** On the result screen of a plan: one verdict per target, coloured as its mark. */
export function planVerdictLines(result: RunResult): Line[] {
  return targetVerdictLines(result.targets ?? []).map((text, i) => {
    const t = result.targets![i]!;
    return { text: `  ${text}`, color: t.pass ? 'green' : t.stopReason === 'skipped' ? 'gray' : 'red' };
  });
}

/**
 * What `a` applies on a plan's result: every target when all passed, else the passed ones (a
 * failing target's code stays out); a single run's patch as it is.
 */
export function applyAnswer(result: RunResult): PatchAnswer {
  if (!result.targets || result.pass) return 'accept';
  const passed = result.targets.filter((t) => t.pass).map((t) => t.target);
  return passed.length ? { targets: passed } : 'accept';
}

/** A plan's result with some targets passed: `a` applies those, with no warning about failing code. */
export const somePassed = (result: RunResult) => !!result.targets?.some((t) => t.pass);
