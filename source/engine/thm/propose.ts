import { chainedTests, selectTests } from './clustering';
import type { ThmReport } from '../protocol/thm-report';

/** THM's proposal for a budget T (null: all) from a finished report: the report's own selection at its T, else selected anew. */
export function proposeFor(report: ThmReport, T: number | null): string[] {
  if (T === report.T) return report.selected;
  const reached = chainedTests(report.failing);
  return selectTests(report.clusters, reached, T ?? Infinity);
}
