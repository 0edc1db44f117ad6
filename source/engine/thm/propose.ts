import { selectTests } from './clustering';
import type { ThmReport } from '../protocol/thm-report';

/** THM's proposal for a budget T (null: all) from a finished report: the report's own selection at its T, else selected anew. */
export function proposeFor(report: ThmReport, T: number | null): string[] {
  if (T === report.T) return report.selected;
  const reached = report.failing.filter((f) => f.reached).map((f) => ({ nodeid: f.nodeid, chain: f.chain, caller: f.caller, timedOut: f.timedOut }));
  return selectTests(report.clusters, reached, T ?? Infinity);
}
