import type { EventOf } from '../events';
import type { ThmFailingTest, ThmReport } from '../protocol/thm-report';
import { chainedTests, clusterTests, selectTests } from './clustering';

/** What the developer's tests changed in THM's findings: tests that now count, and tests that no longer do. */
export interface DeveloperTestChange {
  /** The developer's tests that fail on the stub (benchmark mode: and pass on the original), as THM reports them. */
  accepted: readonly ThmFailingTest[];
  /** Failing tests that count no more: changed by the developer so that they pass, or deleted. */
  removed: readonly string[];
}

/** A test's function as Python names it: `path::Class::test_x[1]` → `Class.test_x`. */
export const testQualname = (nodeid: string): string => nodeid.split('::').slice(1).join('.').replace(/\[.*$/, '');

const byNodeid = (a: { nodeid: string }, b: { nodeid: string }) =>
  a.nodeid < b.nodeid ? -1 : a.nodeid > b.nodeid ? 1 : 0;

/**
 * THM's report with the developer's tests in it: they join the failing tests (a changed test
 * replaces its earlier entry), the clusters and THM's proposal are made again over the whole
 * pool, and the counts follow. The same function serves the engine, the session's fold and the
 * screens, so all three see the same report.
 */
export function mergeDeveloperTests(report: ThmReport, change: DeveloperTestChange): ThmReport {
  const gone = new Set([...change.removed, ...change.accepted.map((t) => t.nodeid)]);
  const failing = [...report.failing.filter((t) => !gone.has(t.nodeid)), ...change.accepted].sort(byNodeid);
  const reached = chainedTests(failing);
  const clusters = clusterTests(reached);
  const before = report.failing.length;
  // A test the developer changed is judged again: it is the target's now (accepted), or kept out.
  const otherFailures = report.otherFailures?.filter((t) => !gone.has(t.nodeid) && !change.removed.includes(t.nodeid));
  return {
    ...report,
    failing,
    ...(otherFailures ? { otherFailures } : {}),
    clusters,
    selected: selectTests(clusters, reached, report.T ?? Infinity),
    counts: {
      ...report.counts,
      collected: report.counts.collected + Math.max(0, failing.length - before),
      failing: failing.length,
      unreached: failing.filter((f) => !f.reached).length,
      ...(otherFailures ? { otherFailures: otherFailures.length } : {}),
    },
  };
}

/** A test file of the developer's, as they wrote it (relative to the workspace). */
interface DeveloperFile {
  path: string;
  content: string;
}

/** The developer's files after a round (`tests.added`): a file that did not import was put back as it was, so only the others are theirs now. */
export function developerFilesAfter(
  files: readonly DeveloperFile[],
  round: Pick<EventOf<'tests.added'>, 'files' | 'rejected'>,
): DeveloperFile[] {
  const kept = round.files.filter((f) => !round.rejected.some((r) => r.nodeid === f.path));
  return [...files.filter((f) => !kept.some((k) => k.path === f.path)), ...kept];
}
