import type { ThmFailingTest, ThmOtherFailure, ThmReport } from '../../engine/protocol/thm-report';
import { plural } from '../../engine/util/plural';
import { stoppedWords } from '../../engine/phrase-book';
import { cap, shortEnd, shortStart, wrapText, type Line } from '../components/lines';

/**
 * The THM review's words about what the list does not show: the summary's note on test modules
 * that failed to import, and the rows under the list about its highlighted test (how it reaches
 * the target, or why it does not count; then how it fails).
 */

/** The end of a failing test's report (where pytest puts the error), to judge it without leaving the screen. */
export function failureLines(
  test: Pick<ThmFailingTest, 'longrepr' | 'message' | 'outcome' | 'timedOut' | 'crashed'>,
  rows: number,
  width: number,
): Line[] {
  const report = (test.longrepr || test.message).trimEnd().split('\n');
  return [
    { text: '' },
    {
      text: `how it fails (${test.outcome}${test.timedOut ? ', timed out' : test.crashed ? ', crashed' : ''}):`,
      dim: true,
    },
    ...report
      .slice(-Math.max(0, rows - 2))
      .map((line) => ({ text: shortEnd(line, width), color: /^E\s/.test(line) ? 'red' : undefined })),
  ];
}

/**
 * The rows under the list saying how the highlighted test reaches the target (its call chain,
 * wrapped), or through which cached fixture it fails without reaching it.
 */
export function chainLines(test: ThmFailingTest, width: number): Line[] {
  if (!test.reached) {
    if (!test.failsThrough && !test.inSubprocess) return [];
    const why = test.failsThrough
      ? `${test.failsThrough}, a wider-scoped fixture, called the target in an earlier test; pytest hands this test its cached result without a call`
      : 'a process the test started called the target; its chain is not seen from the test';
    return [
      { text: '' },
      {
        text: `${shortStart(test.nodeid, width - 20)} ${test.failsThrough ? 'fails through' : 'reaches it'}:`,
        dim: true,
      },
      ...cap(wrapText(why, width), 4, () => '…').map((text) => ({ text })),
    ];
  }
  const chain = cap(wrapText(test.chain.join(' → '), width), 4, () => '…');
  return [
    { text: '' },
    { text: `chain of ${shortStart(test.nodeid, width - 10)}:`, dim: true },
    ...chain.map((text) => ({ text })),
  ];
}

/**
 * A test failing for another reason (stub mode): where it stopped, and why it is no test of the
 * target's: it never reached it, so no body of the target can make it pass.
 */
export function otherLines(test: ThmOtherFailure, width: number): Line[] {
  const why = `${stoppedWords(test)}; it never reaches the target, so it is not selected, not hidden, and no part of the verdict`;
  return [
    { text: '' },
    { text: `${shortStart(test.nodeid, width - 30)} fails for another reason:`, dim: true },
    ...cap(wrapText(why, width), 4, () => '…').map((text) => ({ text })),
  ];
}

/**
 * Test modules that failed to import, for the summary: a broken one (it fails on the original
 * code too) hides its tests from THM and is named with its error; the others are THM's own
 * observations, among the failing tests.
 */
export function importNote(report: ThmReport): string {
  const errors = report.importErrors ?? [];
  const broken = errors.filter((e) => e.broken);
  const first = broken[0];
  const named = first
    ? ` · ${plural(broken.length, 'broken test module')} (${first.module}: ${first.message}${first.at ? ` at ${first.at}` : ''}${broken.length > 1 ? `; ${broken.length - 1} more` : ''})`
    : '';
  const rest = errors.length - broken.length;
  return `${named}${rest ? ` · ${plural(rest, 'module')} failed to import ${report.mode === 'blank' ? 'blank' : 'stubbed'}` : ''}`;
}
