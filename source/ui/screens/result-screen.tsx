import { Box, Text } from 'ink';
import { resolve } from 'node:path';
import { useState } from 'react';
import type { RunResult } from '../../engine/events';
import { costText, tokensInOut } from '../../engine/phrase-book';
import { describeFailure, describeTestQuality } from '../../engine/quality/describe';
import { ConfirmBox } from '../components/confirm-box';
import { Lines, DimRows } from '../components/line-view';
import { hardWrap, wrapText, type Line } from '../components/lines';
import { ScrollView } from '../components/scroll-view';
import { gridLines } from '../components/test-grid';
import type { Prompt } from '../controller';
import { hintRows } from '../keys';
import type { PatchDecision } from '../view-state';
import { useKeys } from '../components/use-keys';

const diffColor = (line: string) => (line.startsWith('+') && !line.startsWith('+++') ? 'green' : line.startsWith('-') && !line.startsWith('---') ? 'red' : line.startsWith('@@') ? 'cyan' : undefined);

/** The patch as rows, long lines wrapped so that nothing of a change is cut off. */
export function diffLines(patch: string, width: number): Line[] {
  return patch
    .replace(/\n$/, '')
    .split('\n')
    .flatMap((line) => hardWrap(line, width).map((text) => ({ text, color: diffColor(line) })));
}

/** What happened to the patch, for the last line (the session's patch.decision event). */
export function decisionText(decision: PatchDecision): string {
  if (decision.decision === 'accept') return decision.applied ? 'patch applied to the checkout' : `patch not applied: ${decision.reason ?? 'the checkout refused it'}`;
  if (decision.decision === 'save') return decision.file ? `patch saved to ${decision.file}` : decision.reason ? `patch not saved: ${decision.reason}` : 'patch kept in the session only (tenet show prints it)';
  return 'patch rejected';
}

const STOPPED: Partial<Record<RunResult['stopReason'], string>> = {
  budget: 'the budget was used up',
  'no-implementation': 'nothing was submitted',
  'no-tests': 'no test to validate against',
  cancelled: 'cancelled',
  error: 'an error stopped it',
};

/** The verdict in words: `FAIL: 3/3 selected passed, 20/24 hidden passed (the budget was used up)`. */
export function verdictText(result: RunResult): string {
  const why = result.pass ? undefined : STOPPED[result.stopReason];
  return `${result.pass ? 'PASS' : 'FAIL'}: ${result.selectedTests.passed}/${result.selectedTests.total} selected passed, ${result.hiddenTests.passed}/${result.hiddenTests.total} hidden passed${why ? ` (${why})` : ''}`;
}

/** Lines the patch adds or removes. */
export function changedLines(patch: string): number {
  return patch.split('\n').filter((line) => /^[+-]/.test(line) && !/^(\+\+\+|---) /.test(line)).length;
}

/** Where `s` writes the patch: the current folder, named after the session. */
export const patchFileFor = (sessionId: string) => resolve(`tenet-${sessionId}.patch`);

/** The questions before a patch goes into the checkout: a run that did not pass asks twice. */
type Confirming = 'failing' | 'apply';

export interface ResultScreenProps {
  result: RunResult;
  prompt?: Extract<Prompt, { kind: 'accept-patch' }>;
  width: number;
  /** Rows the screen may use. */
  height: number;
  /** The tests the agent was shown (THM's approved selection): the rest were hidden. */
  selected?: readonly string[];
  /** What was decided about the patch, once it was. */
  decision?: PatchDecision;
  /** In a replay `t` steps to the next test run: the tests list is then not on a key. */
  replay?: boolean;
  /** Where the session is saved (a live run's footer says so). */
  sessionsDir?: string;
}

/**
 * The outcome: a summary of the tests (every failing one named, selected or hidden), tokens, cost
 * and cost of a pass, and the diff in a window that scrolls (↑ ↓ PgUp PgDn) so it can be read in
 * full before deciding; `t` swaps the diff for every test. Apply, reject, or save and quit.
 */
export function ResultScreen({ result, prompt, width, height, selected, decision, replay = false, sessionsDir }: ResultScreenProps) {
  const [showTests, setShowTests] = useState(false);
  const [confirming, setConfirming] = useState<Confirming>();
  useKeys((char, key) => {
    // The open question has y/n (ConfirmBox); Esc closes it, nothing else reaches the screen.
    if (confirming) {
      if (key.escape) setConfirming(undefined);
      return;
    }
    if (char === 't' && !replay) setShowTests((s) => !s);
    if (!prompt) return;
    if (char === 'a' && result.patch) setConfirming(result.pass ? 'apply' : 'failing');
    else if (char === 'r') prompt.resolve(false);
    else if (char === 's' && result.patch) prompt.resolve({ saveTo: patchFileFor(result.sessionId) });
    // Quitting keeps the patch in the session only (tenet show prints it), recorded as such.
    else if (char === 'q') prompt.resolve('save');
  });
  const entries = Object.entries(result.tests);
  const passed = entries.filter(([, o]) => o === 'passed').length;
  const failing = Object.fromEntries(entries.filter(([, o]) => o !== 'passed'));
  const head: Line[] = [
    ...wrapText(verdictText(result), width).map((text, i) => ({ text, bold: i === 0, color: result.pass ? 'green' : 'red' })),
    ...wrapText(
      `${tokensInOut(result.usage)} · ${result.usage.modelCalls} model calls · ${result.usage.toolCalls} tool calls · ${costText(result.costUsd, result.cacheSavedUsd)} · cost of a pass ${result.costOfPass === null ? '—' : `$${result.costOfPass.toFixed(4)}`} · ${(result.wallMs / 1000).toFixed(1)} s`,
      width,
    ).map((text) => ({ text })),
    ...(result.message ? wrapText(result.message, width).map((text) => ({ text, color: 'red' })) : []),
    ...(result.testQuality ? wrapText(describeTestQuality(result.testQuality), width).map((text) => ({ text })) : []),
    ...(result.failure ? describeFailure(result.failure).flatMap((line) => wrapText(line, width)).map((text) => ({ text, color: 'yellow' })) : []),
  ];
  const summary: Line = {
    text: `tests: ${passed}/${entries.length} passed${selected ? ` · ${entries.filter(([id]) => selected.includes(id)).length} selected, ${entries.filter(([id]) => !selected.includes(id)).length} hidden` : ''}${entries.length && !replay && !showTests ? ' · t lists them all' : ''}`,
    bold: true,
  };
  const saved = `session ${result.sessionId} saved${sessionsDir ? ` in ${sessionsDir}` : ''}`;
  const footer = prompt ? hintRows('result', width) : [decision ? `${decisionText(decision)} · ${saved}` : saved];
  const file = result.target.split('::')[0]!;
  const question =
    prompt && confirming === 'failing' ? (
      <ConfirmBox
        key="failing"
        danger
        width={width}
        lines={[verdictText(result), `This patch did not pass the tests. Writing it into ${file} puts failing code in your checkout.`]}
        question="Apply a patch that failed?"
        onConfirm={() => setConfirming('apply')}
        onCancel={() => setConfirming(undefined)}
      />
    ) : prompt && confirming === 'apply' ? (
      <ConfirmBox
        key="apply"
        danger={!result.pass}
        width={width}
        lines={[verdictText(result)]}
        question={`Apply ${changedLines(result.patch)} changed line${changedLines(result.patch) === 1 ? '' : 's'} to ${file}?`}
        onConfirm={() => prompt.resolve('accept')}
        onCancel={() => setConfirming(undefined)}
      />
    ) : undefined;
  if (question) return question;
  // Blank lines before the tests, the viewer and the footer, if the terminal has rows to spare.
  const gap = height >= 20 ? 1 : 0;
  const room = height - head.length - footer.length - 1 - 3 * gap;
  const failingCount = Object.keys(failing).length;
  // The failing tests take at most a third of the room: the diff is what is decided on.
  const failingRows = Math.min(failingCount, Math.max(0, Math.floor(room / 3)));
  const viewerRows = Math.max(3, room - failingRows);
  const tests = gridLines(result.tests, width - 2, selected ? { selected } : {}).map((line): Line => [{ text: '  ' }, ...(Array.isArray(line) ? line : [line])]);
  return (
    <Box flexDirection="column">
      <Lines lines={head} />
      <Box marginTop={gap} flexDirection="column">
        <Lines lines={[summary]} />
        {failingRows ? <Lines marginLeft={2} lines={gridLines(failing, width - 2, { max: failingRows, ...(selected ? { selected } : {}) })} /> : null}
      </Box>
      <Box marginTop={gap} flexDirection="column">
        {showTests ? (
          <ScrollView key="tests" label="every test" hint="t: the diff" lines={tests} height={viewerRows} />
        ) : result.patch ? (
          <ScrollView key="diff" label={`diff of ${file}`} lines={diffLines(result.patch, width)} height={viewerRows} />
        ) : (
          <Text dimColor>No change to the target.</Text>
        )}
      </Box>
      <Box marginTop={gap} flexDirection="column">
        <DimRows rows={footer} />
      </Box>
    </Box>
  );
}
