/**
 * What the differential check compares, as pure functions: a THM report against the oracle (plain
 * pytest, blank and original), and THM reports of two modes against each other.
 */
import { brokenModules, type ThmReport } from '../source/engine/protocol/thm-report';
import type { OracleRun, Outcome } from './oracle';

const FAILS: ReadonlySet<Outcome> = new Set(['failed', 'error', 'collection']);

/** What plain pytest says THM must find: in benchmark mode, failing = fails blanked and passes original. */
export interface Expected {
  failing: Map<string, Outcome>;
  alreadyFailing: Set<string>;
  /** Tests that passed blanked. */
  passed: number;
}

export function expectedBlank(blank: OracleRun, original: OracleRun): Expected {
  const failing = new Map<string, Outcome>();
  const alreadyFailing = new Set<string>();
  let passed = 0;
  for (const [nodeid, outcome] of blank.outcomes) {
    if (outcome === 'passed' || outcome === 'xpassed') passed++;
    if (!FAILS.has(outcome)) continue;
    const before = original.outcomes.get(nodeid);
    // A module that failed to import blank: its tests all passed or failed on the original code,
    // which is no collection error of that module.
    const passesOriginal = outcome === 'collection' ? before === undefined : before === 'passed';
    if (passesOriginal) failing.set(nodeid, outcome);
    else if (before !== undefined && FAILS.has(before)) alreadyFailing.add(nodeid);
  }
  return { failing, alreadyFailing, passed };
}

/** Stub mode sees one world: every test that fails on the stub. */
export function expectedStub(blank: OracleRun): Expected {
  const failing = new Map<string, Outcome>();
  let passed = 0;
  for (const [nodeid, outcome] of blank.outcomes) {
    if (outcome === 'passed' || outcome === 'xpassed') passed++;
    if (FAILS.has(outcome)) failing.set(nodeid, outcome);
  }
  return { failing, alreadyFailing: new Set(), passed };
}

/** The first difference found, in words, or null. */
export type Difference = string | null;

function firstMissing(label: string, want: Iterable<string>, have: ReadonlySet<string>): Difference {
  for (const nodeid of [...want].sort()) if (!have.has(nodeid)) return `${label}: ${nodeid}`;
  return null;
}

export function againstOracle(report: ThmReport, expected: Expected): Difference {
  const failing = new Map(report.failing.map((f) => [f.nodeid, f.outcome] as const));
  const already = new Set(report.alreadyFailing);
  const wantFailing = new Set(expected.failing.keys());
  return (
    firstMissing("failing under plain pytest, not in THM's failing tests", wantFailing, new Set(failing.keys())) ??
    firstMissing("in THM's failing tests, not failing under plain pytest", failing.keys(), wantFailing) ??
    firstMissing(
      'already failing under plain pytest, not in THM\'s "already failing"',
      expected.alreadyFailing,
      already,
    ) ??
    firstMissing('in THM\'s "already failing", not so under plain pytest', already, expected.alreadyFailing) ??
    [...failing]
      .map(([nodeid, outcome]) =>
        outcome !== expected.failing.get(nodeid)
          ? `outcome of ${nodeid}: THM ${outcome}, plain pytest ${expected.failing.get(nodeid)}`
          : null,
      )
      .find((d) => d) ??
    (report.counts.passed !== expected.passed
      ? `tests passing blank: THM ${report.counts.passed}, plain pytest ${expected.passed}`
      : null)
  );
}

/**
 * Stub mode's report as plain pytest sees the run: every test that fails on the stub, whether
 * the target's (`failing`), failing for another reason (`otherFailures`), or a broken module.
 */
function everyStubFailure(report: ThmReport): ThmReport {
  const others = (report.otherFailures ?? []).map((f) => ({ nodeid: f.nodeid, outcome: f.outcome }));
  const listed = new Set([...report.failing, ...others].map((f) => f.nodeid));
  const broken = [...brokenModules(report)]
    .filter((module) => !listed.has(module))
    .map((nodeid) => ({ nodeid, outcome: 'collection' as const }));
  return { ...report, failing: [...report.failing, ...others, ...broken] as ThmReport['failing'] };
}

/** The runs of plain pytest stub mode is checked against. */
export interface StubOracle {
  /** On the copy with the target stubbed. */
  stub: OracleRun;
  /** On the original code. */
  original: OracleRun;
  /** With the target's body raising SENTINEL_MARK (qa/oracle.ts): `marked` failed because it was called. */
  sentinel: OracleRun;
}

/**
 * Stub mode against plain pytest. Every test that fails on the stub is in the report, with its
 * outcome; and of those, the target's are told from the others as plain pytest tells them:
 * - a test that fails on the stub and passes on the original is the target's;
 * - a test failing for another reason (or a broken module) fails on the original too;
 * - a test whose failure comes from the target's own exception (the sentinel run) is the target's;
 * - `exact` (a suite whose tests catch nothing of the target's): the target's are those, and no more.
 */
export function stubAgainstOracle(report: ThmReport, oracle: StubOracle, exact = false): Difference {
  const whole = againstOracle(everyStubFailure(report), expectedStub(oracle.stub));
  if (whole) return whole;
  const mine = new Set(report.failing.map((f) => f.nodeid));
  const failsOnStub = (nodeid: string) => FAILS.has(oracle.stub.outcomes.get(nodeid) ?? 'passed');
  const passesOriginal = (nodeid: string) => {
    const outcome = oracle.original.outcomes.get(nodeid);
    return nodeid.includes('::') ? outcome === 'passed' : outcome === undefined;
  };
  const sorted = (ids: Iterable<string>) => [...ids].sort();
  for (const nodeid of sorted(oracle.stub.outcomes.keys()))
    if (failsOnStub(nodeid) && passesOriginal(nodeid) && !mine.has(nodeid))
      return `fails on the stub and passes on the original, but not among the target's failing tests: ${nodeid}`;
  const others = [...(report.otherFailures ?? []).map((f) => f.nodeid), ...brokenModules(report)];
  for (const nodeid of sorted(others))
    if (passesOriginal(nodeid))
      return `failing for another reason (or a broken module) in THM, but passes on the original: ${nodeid}`;
  for (const nodeid of sorted(oracle.sentinel.marked))
    if (failsOnStub(nodeid) && !mine.has(nodeid))
      return `fails with the target's own exception under plain pytest, but not among the target's failing tests: ${nodeid}`;
  if (exact)
    for (const nodeid of sorted(mine))
      if (!oracle.sentinel.marked.has(nodeid))
        return `among the target's failing tests, but its failure under plain pytest does not come from the target: ${nodeid}`;
  return null;
}

/** What two modes must agree on for each failing test both report (`lines`: chain lines too). */
function testView(report: ThmReport, lines: boolean, keepFrame: (name: string) => boolean) {
  return new Map(
    report.failing.map((f) => {
      const kept = f.chain.map((name, i) => [name, f.chainLines?.[i]] as const).filter(([name]) => keepFrame(name));
      const chain = kept.map(([name]) => name);
      const chainLines = kept.map(([, line]) => line);
      return [
        f.nodeid,
        JSON.stringify({
          reached: f.reached,
          chain,
          caller: f.caller,
          entryKind: f.entryKind,
          failsThrough: f.failsThrough ?? null,
          ...(lines ? { chainLines } : {}),
        }),
      ];
    }),
  );
}

/**
 * Two reports of the same target and scope. `whole`: both are benchmark-mode reports, which must
 * agree on everything (clusters, selection, lines); a stub-mode report is compared on the tests
 * both list, without lines (its file is the blank one).
 */
export function betweenModes(
  a: ThmReport,
  b: ThmReport,
  whole: boolean,
  keepFrame: (name: string) => boolean = () => true,
  lines = whole,
): Difference {
  const left = testView(a, lines, keepFrame);
  const right = testView(b, lines, keepFrame);
  for (const [nodeid, view] of [...left].sort(([x], [y]) => (x < y ? -1 : 1))) {
    const other = right.get(nodeid);
    if (other !== undefined && other !== view) return `${nodeid}: ${view} vs ${other}`;
  }
  if (!whole) return null;
  if (JSON.stringify(a.clusters) !== JSON.stringify(b.clusters)) {
    // The first index where they differ, counting one list running out before the other.
    const longer = a.clusters.length >= b.clusters.length ? a.clusters : b.clusters;
    const at = longer.findIndex((_, i) => JSON.stringify(a.clusters[i]) !== JSON.stringify(b.clusters[i]));
    return `clusters differ at ${at}: ${JSON.stringify(a.clusters[at])} vs ${JSON.stringify(b.clusters[at])}`;
  }
  if (JSON.stringify(a.selected) !== JSON.stringify(b.selected))
    return `selection: ${a.selected.join(' ')} vs ${b.selected.join(' ')}`;
  return null;
}
