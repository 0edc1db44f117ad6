import {
  alreadyFailingTests,
  failingTestCounts,
  thmTimeoutWords,
  unreachedTests,
  type ImportErrorKind,
  type ThmFailingTest,
  type ThmImportError,
  type ThmReport,
} from '../engine/protocol/thm-report';
import { failingWords, otherFailureWords, stoppedWords } from '../engine/phrase-book';

const TESTS_PER_CLUSTER = 5;
/** Modules that failed to import, listed one a line; past it a last line counts the rest. */
const IMPORT_ERRORS_SHOWN = 5;

function chainText(test: ThmFailingTest): string {
  return test.chain.join(' → ');
}

function plural(n: number, word: string): string {
  return `${n} ${word}${n === 1 ? '' : 's'}`;
}

/**
 * The test modules that failed to import, by name and the first line of the error: a broken one
 * (it fails on the original code too) hides its tests from THM, and is easy to miss in a count.
 */
function importErrorLines(report: ThmReport): string[] {
  const errors = report.importErrors ?? [];
  if (!errors.length) return [];
  const out = ['', `Test modules that failed to import (${errors.length})`];
  for (const error of errors.slice(0, IMPORT_ERRORS_SHOWN)) {
    const why = error.broken
      ? report.mode === 'blank'
        ? "broken: fails on the original code too, not the target's doing"
        : 'broken: its import never called the target'
      : `only with the target ${report.mode === 'blank' ? 'blank' : 'stubbed'}: counted among the failing tests`;
    out.push(
      `  ${error.broken ? '✗' : '•'} ${error.module}: ${error.message || '(no message)'}${error.at ? ` at ${error.at}` : ''}  [${why}]`,
    );
  }
  if (errors.length > IMPORT_ERRORS_SHOWN)
    out.push(`    … and ${errors.length - IMPORT_ERRORS_SHOWN} more (--json lists them all)`);
  const broken = errors.filter((e) => e.broken);
  // One hint per kind of breakage, each with its own mend: what is not installed is installed, an
  // error in the repository's code is fixed where it is. Sessions saved before kinds count as missing modules.
  for (const kind of ['missing-module', 'syntax-error', 'error'] as const) {
    const these = broken.filter((e) => (e.kind ?? 'missing-module') === kind);
    if (these.length) out.push(`  hint: ${brokenHint(kind, these)}`);
  }
  return out;
}

function brokenHint(kind: ImportErrorKind, broken: ThmImportError[]): string {
  const one = broken.length === 1;
  const them = one ? 'it' : 'them';
  const hides = `${plural(broken.length, 'broken module')} ${one ? 'hides its' : 'hide their'} tests from THM`;
  const leaveOut = `or leave ${them} out: --tests --ignore=${broken[0]!.module}${one ? '' : ' …'}`;
  if (kind === 'missing-module')
    return `${hides}. Make ${them} import (install what ${one ? 'it needs' : 'they need'}), ${leaveOut}`;
  const sites = [...new Set(broken.map((e) => e.at).filter((at): at is string => !!at))];
  const where = sites.length ? ` at ${sites.slice(0, 3).join(', ')}${sites.length > 3 ? ' …' : ''}` : '';
  if (kind === 'syntax-error')
    return `${hides}: the repository's code does not compile${where}. Fix the syntax error${sites.length > 1 ? 's' : ''}, ${leaveOut}`;
  return `${hides}: ${one ? 'its import raises' : 'their imports raise'} an error${where}. Fix the code that raises it, ${leaveOut}`;
}

/** `tenet thm` without --json: what a developer reads to approve or override the selection. */
export function formatThmReport(report: ThmReport): string {
  const out: string[] = [];
  const byId = new Map(report.failing.map((f) => [f.nodeid, f]));
  const c = report.counts;
  out.push(`THM  ${report.target}  (${report.mode === 'blank' ? 'benchmark mode: target blanked' : 'stub mode'})`);
  const shown = failingTestCounts(report);
  const parts = [
    `${plural(c.collected, 'test')} in scope`,
    `${c.passed} passed`,
    ...(c.skipped ? [`${c.skipped} skipped`] : []),
    failingWords(shown, { spelledOut: report.mode }),
    ...(report.otherFailures?.length ? [otherFailureWords(report)] : []),
    ...(report.mode === 'blank' ? [`${alreadyFailingTests(report).length} already failing on the original code`] : []),
    ...(c.collectionErrors ? [`${plural(c.collectionErrors, 'module')} failed to import`] : []),
    ...(c.crashed ? [`${c.crashed} crashed`] : []),
    ...(c.timedOut ? [`${c.timedOut} timed out`] : []),
  ];
  out.push(`  ${parts.join(' · ')}`);
  const processes = report.worlds
    ? `one collection, ${plural(report.shards, 'lane')} per world`
    : `${report.shards} pytest process${report.shards === 1 ? '' : 'es'}`;
  out.push(
    `  ${processes} · ${(report.durationMs / 1000).toFixed(1)} s · Python ${report.python.version}, pytest ${report.python.pytest}`,
  );
  for (const warning of report.warnings) out.push(`  ! ${warning.replace(/\n/g, '\n    ')}`);
  out.push(...importErrorLines(report));

  if (report.clusters.length) {
    const rule = report.callerRule === 'nearest' ? ", the paper's rule: the nearest frame" : '';
    out.push('', `Clusters by the target's direct caller (${report.clusters.length}${rule})`);
    report.clusters.forEach((cluster, index) => {
      out.push(
        `  ${index + 1}. ${cluster.caller}  · ${plural(cluster.tests.length, 'test')} · shortest depth ${cluster.depth}`,
      );
      for (const nodeid of cluster.tests.slice(0, TESTS_PER_CLUSTER)) {
        const test = byId.get(nodeid)!;
        const mark = report.selected.includes(nodeid) ? '★' : nodeid === cluster.representative ? '·' : ' ';
        out.push(`     ${mark} ${nodeid}  (depth ${test.depth}, ${test.entryKind})`);
      }
      if (cluster.tests.length > TESTS_PER_CLUSTER)
        out.push(`       … and ${cluster.tests.length - TESTS_PER_CLUSTER} more`);
    });
  }

  // With no test collected at all, the note at the end says so and what to do: "no failing test reached the target" would mislead.
  const nothingCollected = report.counts.collected === 0 && !report.failing.length;
  if (report.selected.length || !nothingCollected)
    out.push(
      '',
      report.selected.length
        ? `Selected tests (T=${report.T ?? 'all'}), marked ★`
        : 'Selected tests: none (no failing test reached the target)',
    );
  report.selected.forEach((nodeid, index) => {
    const test = byId.get(nodeid)!;
    out.push(`  ${index + 1}. ${nodeid}`);
    out.push(`     chain: ${chainText(test)}`);
    if (test.message) out.push(`     fails: ${test.message.split('\n')[0]!.slice(0, 160)}`);
  });

  const unreached = unreachedTests(report);
  if (unreached.length) {
    out.push('', `Failing without reaching the target (${unreached.length}; not clustered)`);
    for (const test of unreached.slice(0, 10)) {
      const through = test.failsThrough
        ? `fails through ${test.failsThrough} (cached by pytest): `
        : test.inSubprocess
          ? 'reached in a process it started: '
          : '';
      out.push(`  ${test.nodeid}: ${through}${test.message.split('\n')[0]!.slice(0, 120)}`);
    }
    if (unreached.length > 10) out.push(`  … and ${unreached.length - 10} more`);
  }
  out.push(...otherFailureLines(report));
  const alreadyFailing = alreadyFailingTests(report);
  if (alreadyFailing.length) {
    out.push('', `Already failing on the original code (${alreadyFailing.length}; left out)`);
    for (const nodeid of alreadyFailing.slice(0, 10)) out.push(`  ${nodeid}`);
    if (alreadyFailing.length > 10) out.push(`  … and ${alreadyFailing.length - 10} more`);
  }
  if (report.mode === 'stub' && report.targetBody === 'implemented' && !report.selected.length) {
    out.push(
      '',
      `No failing test reached the target: it already has a real body, and the tests ran against it. If it is finished code, pass --blank (benchmark mode); to generate it anew, stub its body (raise NotImplementedError).`,
    );
  } else if (report.timedOut && (nothingCollected || !report.selected.length)) {
    out.push(
      '',
      `${thmTimeoutWords(report)}, so it found no failing test to select. Give it more time with --timeout SECONDS (default 3600), or narrow the scope with --tests PATH.`,
    );
  } else if (nothingCollected) {
    out.push(
      '',
      `pytest collected no test in scope${report.testArgs.length ? ` (--tests ${report.testArgs.join(' ')})` : ''}. Point it at the tests: --tests PATH (everything after it goes to pytest), or testpaths in the pytest configuration.`,
    );
  } else if (report.mode === 'stub' && report.counts.failing === 0 && report.otherFailures?.length) {
    out.push(
      '',
      `No failing test reaches the target: the ${report.otherFailures.length === 1 ? 'one that fails fails' : `${report.otherFailures.length} that fail fail`} for another reason (above). Write a test that calls it, or widen the scope with --tests.`,
    );
  } else if (report.mode === 'stub' && report.counts.failing === 0) {
    out.push(
      '',
      report.targetBody === 'stub'
        ? 'No test fails against the stub: none in scope calls it. Write one that does, or widen the scope with --tests.'
        : 'No test fails against the target as it is. If the function already has a real body, pass --blank (benchmark mode).',
    );
  } else if (report.mode === 'blank' && report.counts.failing === 0 && !report.alreadyFailing.length) {
    out.push(
      '',
      'No test in scope fails with the body blanked: none calls it, or none needs what it does. Widen the scope with --tests (tests that call it), or choose another target.',
    );
  }
  return out.join('\n');
}

/**
 * Stub mode: the failing tests that are not the target's, each with where it stopped. They never
 * reached the target, so no body of it can make them pass: they are left out of the selection,
 * the hidden tests and the verdict.
 */
function otherFailureLines(report: ThmReport): string[] {
  const others = report.otherFailures ?? [];
  if (!others.length) return [];
  const out = [
    '',
    `Failing for another reason (${others.length}; they never reach the target: not selected, not hidden, not judged)`,
  ];
  for (const test of others.slice(0, 10)) {
    const message = test.message.split('\n')[0]!.slice(0, 120);
    out.push(`  ${test.nodeid}: ${stoppedWords(test)}${message ? `: ${message}` : ''}`);
  }
  if (others.length > 10) out.push(`  … and ${others.length - 10} more (--json lists them all)`);
  return out;
}

/** The `--json` object: the report minus the bulky failure texts, which stay in sessions. */
export function thmJson(report: ThmReport): unknown {
  return {
    ...report,
    failing: report.failing.map(({ longrepr: _longrepr, ...rest }) => rest),
    ...(report.otherFailures
      ? { otherFailures: report.otherFailures.map(({ longrepr: _longrepr, ...rest }) => rest) }
      : {}),
  };
}
