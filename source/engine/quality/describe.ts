import type { RunResult, TestQuality } from '../events';

const pct = (covered: number, total: number) => (total ? `${Math.round((100 * covered) / total)}%` : '–');

/** One line on the agent's tests: ground-truth pass rate, coverage, mutation score, what could not be measured. */
export function describeTestQuality(q: TestQuality): string {
  const parts = [
    q.groundTruth ? `${q.groundTruth.passed}/${q.groundTruth.total} pass on the ground truth` : undefined,
    q.coverage
      ? `lines ${pct(q.coverage.lines.covered, q.coverage.lines.total)}, ${q.coverage.branches.total ? `branches ${pct(q.coverage.branches.covered, q.coverage.branches.total)}` : 'no branches'} of the ${q.subject}`
      : undefined,
    q.mutation
      ? `mutation score ${Math.round(q.mutation.score * 100)}% (${q.mutation.killed + q.mutation.timedOut}/${q.mutation.total} killed${q.mutation.baselinePassed ? '' : '; the tests fail on the unmutated code'})`
      : undefined,
    ...q.problems.map((p) => `not measured: ${p}`),
  ].filter((p): p is string => !!p);
  return `generated tests (${q.file}, ${q.tests}): ${parts.join(' · ')}`;
}

/** The failure taxonomy of a failed TDD task, and its hints, as lines. */
export function describeFailure(failure: NonNullable<RunResult['failure']>): string[] {
  const kind =
    failure.kind === 'matched'
      ? "matched failure: its own tests pass, the repository's do not (the tests were too weak)"
      : 'unmatched failure: its own tests fail';
  return [kind, ...failure.hints.map((hint) => `hint: ${hint}`)];
}
