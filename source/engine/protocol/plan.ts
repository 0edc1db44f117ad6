import * as z from 'zod';

const str = z.string();
const num = z.number();
const bool = z.boolean();
const counts = z.object({ passed: num, total: num });

/**
 * One function of a plan (`--target FILE`, `FILE::Class`, or `--target` given several times), as
 * the plan screen shows it before any THM ran: its name, its signature and docstring's first
 * line, the tests the call graph says reach it, and the other targets its code calls.
 */
export const planTargetSchema = z.object({
  /** `file::qualname` (with `@LINE` where the name is defined twice), as a single run's target is named. */
  target: str,
  file: str,
  qualname: str,
  /** Its place among the definitions of that qualname in the file (0: the first), so a moved line still finds it. */
  nth: num,
  /** The `def` line, as written. */
  signature: str,
  /** The docstring's first line ('' when it has none). */
  summary: str,
  /** Test functions whose code reaches it through the index's call graph (by name, so an estimate until THM runs). */
  reaches: z.array(str),
  /** Other targets of the plan that code reaching it calls first (callees go first), with the code that says so. */
  needs: z.array(z.object({ target: str, because: str })),
});
export type PlanTarget = z.infer<typeof planTargetSchema>;

/** A target's verdict, as the result's `targets` lists it. */
export const targetVerdictSchema = z.object({
  target: str,
  pass: bool,
  /** Why its run stopped (the result's stop reasons), `skipped` when it never ran (the developer skipped it, or the plan stopped first). */
  stopReason: str,
  selectedTests: counts,
  hiddenTests: counts,
  /** Refinement attempts of its last run. */
  attempts: num,
  /** What went wrong, when something did (no test reaches it, the evaluation could not be completed). */
  message: str.optional(),
});
export type TargetVerdict = z.infer<typeof targetVerdictSchema>;

/** What the developer decided on the plan screen: the order, the targets left out, or to stop before anything ran. */
export type PlanDecision = { order: string[]; skipped: string[]; by: 'auto' | 'human' } | { stop: true };
