import { stoppedWords } from '../../engine/phrase-book';
import type { ThmFailingTest, ThmOtherFailure, ThmReport } from '../../engine/protocol/thm-report';
import { plural } from '../../engine/util/plural';
import { cap, shortEnd, shortStart, wrapText, type Line } from '../components/lines';
import type { WritingOutcome } from '../test-drafts';
import type { ViewState } from '../view/types';

// The THM screen's blocks of rows, as plain functions of what they show and the width.

/** What became of the developer's writing, in rows for the review. */
export function outcomeLines(outcome: WritingOutcome, width: number): Line[] {
  if ('problem' in outcome)
    return wrapText(`Could not open your editor: ${outcome.problem}`, width).map((text) => ({ text, color: 'red' }));
  if ('unchanged' in outcome) return [{ text: 'Nothing changed: no test to add.', dim: true }];
  const rows: Line[] = [
    ...outcome.accepted.map((t): Line => [{ text: '✎ joins ', color: 'green' }, { text: t.nodeid }]),
    ...outcome.rejected.flatMap((r) =>
      wrapText(`✗ kept out ${r.nodeid}: ${r.reason}`, width, 2).map((text): Line => ({ text, color: 'red' })),
    ),
    ...(outcome.kept
      ? wrapText(
          `  your text is kept: ${outcome.kept.key === 'n' ? 'n' : 'e on one of its tests'} opens it again, to fix it`,
          width,
        ).map((text): Line => ({ text, color: 'yellow' }))
      : []),
    ...outcome.removed.map((id): Line => ({ text: `− no longer fails: ${id}`, color: 'yellow' })),
  ];
  return rows.length ? rows : [{ text: 'Your file has no test that pytest collects.', dim: true }];
}

/**
 * What the run warned of before THM's report (stub mode on a function with a real body), in
 * yellow above it, a few rows at most: it explains a review with nothing to propose.
 */
export function warningLines(view: ViewState, width: number): Line[] {
  return cap(
    view.warnings.flatMap((warning) => wrapText(`! ${warning}`, width, 2)),
    4,
    () => '…',
  ).map((text) => ({ text, color: 'yellow' }));
}

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

/** The chain block cut to the rows it was given (its blank line and title first). */
export const capChain = (chain: Line[], rows: number): Line[] =>
  rows >= chain.length ? chain : rows >= 3 ? [...chain.slice(0, rows - 1), { text: '…', dim: true }] : [];
