import type { BranchOutcome, FunctionCoverage } from '../engine/quality/coverage';
import type { MutationReport } from '../engine/quality/mutation';

export interface MutateResult {
  target: string;
  tests: string;
  /** Mutants generated before the cap, and kept. */
  generated: number;
  mutation: MutationReport;
  coverage: FunctionCoverage;
}

const percent = (covered: number, total: number) => (total ? `${((100 * covered) / total).toFixed(1)} %` : 'n/a');
const seconds = (ms: number) => `${(ms / 1000).toFixed(1)} s`;

function branchText(b: BranchOutcome): string {
  return `line ${b.line} ${b.kind}: ${b.label}${b.to === null ? '' : ` → line ${b.to}`}`;
}

function baselineProblem(m: MutationReport): string {
  if (m.baseline.exitCode === 5) return 'pytest found no tests in the file';
  if (m.baseline.status === 'timeout') return 'the tests did not finish on the target as the repository has it';
  if (m.baseline.status === 'error') return `pytest could not run the file (exit code ${m.baseline.exitCode ?? '?'})`;
  return 'the tests fail on the target as the repository has it';
}

/** `tenet mutate` without --json: the score first, then what a developer acts on (survivors, missing lines). */
export function formatMutate(result: MutateResult): string {
  const { mutation: m, coverage: c } = result;
  const out = [`tenet mutate  ${result.target}  ·  ${result.tests}`];
  if (!m.baselinePassed) {
    out.push(`  mutation score 0 %: ${baselineProblem(m)}; no mutant was run`);
    if (m.baseline.output)
      out.push(
        '',
        ...m.baseline.output
          .split('\n')
          .slice(-40)
          .map((l) => `  | ${l}`),
      );
  } else {
    const timeouts = m.timedOut ? ` (${m.timedOut} by timeout)` : '';
    out.push(
      `  mutation score ${percent(m.killed + m.timedOut, m.total)}  ${m.killed + m.timedOut} of ${m.total} mutants killed${timeouts} · ${m.survived} survived`,
    );
    const skipped = [
      ...(m.invalid ? [`${m.invalid} did not compile`] : []),
      ...(m.errors ? [`${m.errors} could not be run`] : []),
      ...(m.mutants.length < result.generated ? [`${result.generated - m.mutants.length} left out by --max`] : []),
    ];
    if (skipped.length) out.push(`  not scored: ${skipped.join(' · ')}`);
  }
  out.push(
    `  coverage  lines ${c.lines.covered}/${c.lines.total} (${percent(c.lines.covered, c.lines.total)}) · branches ${c.branches.covered}/${c.branches.total} (${percent(c.branches.covered, c.branches.total)})`,
  );
  if (c.missingLines.length) out.push(`  missing lines ${c.missingLines.join(', ')}`);
  if (c.missingBranches.length) out.push(`  missing branches ${c.missingBranches.map(branchText).join(' · ')}`);
  const t = c.tests;
  out.push(
    `  tests ${t.passed} passed${t.failed ? `, ${t.failed} failed` : ''}${t.errors ? `, ${t.errors} errors` : ''}${t.skipped ? `, ${t.skipped} skipped` : ''}` +
      ` · baseline ${seconds(m.baseline.durationMs)} · per-mutant timeout ${seconds(m.timeoutMs)} · ${m.jobs} worker${m.jobs === 1 ? '' : 's'} · ${seconds(m.durationMs)}`,
  );
  for (const warning of [...m.warnings, ...c.warnings]) out.push(`  ! ${warning}`);
  const survivors = m.mutants.filter((x) => x.status === 'survived');
  if (m.baselinePassed && survivors.length) {
    out.push('', `Survivors (${survivors.length}): no test noticed these changes`);
    for (const s of survivors) out.push(`  ${s.id.padEnd(5)} ${s.description}`);
  }
  const broken = m.mutants.filter((x) => x.status === 'error');
  if (broken.length) {
    out.push('', `Not run (${broken.length})`);
    for (const b of broken) out.push(`  ${b.id.padEnd(5)} ${b.description}: ${(b.message ?? '').split('\n')[0]}`);
  }
  return out.join('\n');
}

/** `tenet mutate --json`: one object, the mutants without their module text. */
export function mutateJson(result: MutateResult): Record<string, unknown> {
  const { mutation: m } = result;
  return {
    target: result.target,
    tests: result.tests,
    score: m.score,
    killed: m.killed,
    survived: m.survived,
    timedOut: m.timedOut,
    invalid: m.invalid,
    errors: m.errors,
    total: m.total,
    generated: result.generated,
    baselinePassed: m.baselinePassed,
    baseline: m.baseline,
    timeoutMs: m.timeoutMs,
    jobs: m.jobs,
    durationMs: m.durationMs,
    warnings: m.warnings,
    mutants: m.mutants,
    coverage: result.coverage,
  };
}
