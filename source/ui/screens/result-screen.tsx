import { Box, Text } from 'ink';
import { join, resolve } from 'node:path';
import { useEffect, useState } from 'react';
import type { RunResult } from '../../engine/events';
import { costText, stopWords, tokensInOut, verdictWord } from '../../engine/phrase-book';
import { describeFailure, describeTestQuality } from '../../engine/quality/describe';
import { ConfirmBox } from '../components/confirm-box';
import { Covered } from '../components/covered';
import { Lines, DimRows } from '../components/line-view';
import { shortMiddle, wrapCode, wrapText, type Line } from '../components/lines';
import { failureOf } from '../components/failures';
import { expandTabs } from '../components/line-editor';
import { listOrder, TestList } from '../components/test-list';
import { ScrollView } from '../components/scroll-view';
import { gridLines } from '../components/test-grid';
import type { Prompt } from '../prompt';
import { hintRows } from '../keys';
import type { PatchDecision } from '../view/types';
import { appliesFailing, applyAnswer, choosesTargets, passedTargets, planVerdictLines } from './plan-lines';
import { useKeys } from '../components/use-keys';
import { plural } from '../../engine/util/plural';

const diffColor = (line: string) =>
  line.startsWith('+') && !line.startsWith('+++')
    ? 'green'
    : line.startsWith('-') && !line.startsWith('---')
      ? 'red'
      : line.startsWith('@@')
        ? 'cyan'
        : undefined;

/** The patch as rows, long lines wrapped so that nothing of a change is cut off. */
export function diffLines(patch: string, width: number): Line[] {
  return patch
    .replace(/\n$/, '')
    .split('\n')
    .flatMap((line) =>
      wrapCode(line, width, /^[-+ ]/.test(line) && !line.startsWith('+++') && !line.startsWith('---') ? 1 : 0).map(
        (text) => ({ text, color: diffColor(line) }),
      ),
    );
}

/**
 * What happened to the patch, for the last line (the session's patch.decision event). A patch
 * that could not be applied says where it still is: the run is over, no key of the screen is left.
 */
export function decisionText(decision: PatchDecision, sessionId?: string): string {
  if (decision.decision === 'accept') {
    if (decision.applied) return 'patch applied to the checkout';
    const still = sessionId
      ? ` · it is kept in the session: tenet show ${sessionId} prints it (under Result), to apply by hand`
      : '';
    return `patch not applied: ${decision.reason ?? 'the checkout refused it'}${still}`;
  }
  if (decision.decision === 'save')
    return decision.file
      ? `patch saved to ${decision.file}`
      : decision.reason
        ? `patch not saved: ${decision.reason}`
        : 'patch kept in the session only (tenet show prints it)';
  return 'patch rejected';
}

/** The verdict in words: `FAIL: 3/3 selected passed, 20/24 hidden passed (the budget was used up)`; `submissions`: how many the agent made, rejected ones included (see stopWords). */
export function verdictText(result: RunResult, submissions?: number): string {
  const why = stopWords(result, submissions);
  return `${verdictWord(result)}: ${result.selectedTests.passed}/${result.selectedTests.total} selected passed, ${result.hiddenTests.passed}/${result.hiddenTests.total} hidden passed${why ? ` (${why})` : ''}`;
}

/** A test's failure as rows, long lines wrapped; the assertion (`E   …`) in red. */
function failureLines(text: string | undefined, width: number): Line[] {
  if (!text)
    return [
      { text: 'No report of this failure was kept (the evaluation report is capped at 12,000 characters).', dim: true },
    ];
  return expandTabs(text)
    .split('\n')
    .flatMap((line) =>
      wrapCode(line, Math.max(10, width)).map((part) => ({
        text: part,
        ...(/^E\s/.test(line) ? { color: 'red' } : {}),
      })),
    );
}

/** What `k` is about to write: how many tests, how many lines, where (never over a file). */
export function keepText(code: string, path: string): string {
  const tests = (code.match(/^\s*(async\s+)?def test/gm) ?? []).length;
  return `The agent's ${plural(tests, 'test')} (${plural(code.replace(/\n$/, '').split('\n').length, 'line')}) go to ${path}, beside the repository's tests; no file is overwritten.`;
}

/**
 * The lines the patch adds and removes, as the transcript's diffs count them. Their sum is not a
 * number of changed lines: a replaced line is one of each ("2 changed lines" for a one-line change).
 */
export function patchCounts(patch: string): { added: number; removed: number } {
  const lines = patch.split('\n').filter((line) => !/^(\+\+\+|---) /.test(line));
  return {
    added: lines.filter((line) => line.startsWith('+')).length,
    removed: lines.filter((line) => line.startsWith('-')).length,
  };
}

/** `Apply the patch (+1 −1) to m.py?` */
export function applyQuestion(patch: string, file: string): string {
  const { added, removed } = patchCounts(patch);
  return `Apply the patch (+${added} −${removed}) to ${file}?`;
}

/** Where `s` writes the patch: the current folder, named after the session. */
export const patchFileFor = (sessionId: string) => resolve(`tenet-${sessionId}.patch`);

/** The questions before something goes into the checkout: a run that did not pass asks twice; keeping the agent's tests asks once. */
type Confirming = 'failing' | 'apply' | 'keep';

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
  /** How each failed test failed (from the evaluation's report): Enter shows it. */
  failures?: Record<string, string>;
  /** Where the agent's tests were written, once the developer kept them. */
  keptTests?: string;
  /** A view of the screen (the failure of a test) opened or closed: its keys are not the replay's. */
  onViewer?(open: boolean): void;
  /** The checkout's folder (the repository the run started from): `a` writes the patch there. */
  checkout?: string;
  /** How many submissions the agent made, rejected ones included: the verdict tells none from none accepted. */
  submissions?: number;
  /**
   * A live run: the screen stays until the developer quits with `q` (deciding about the patch, or
   * saving it, says what it did and stays); with no patch to decide on, its keys still work (t, Enter).
   */
  onQuit?(): void;
  /** `s`: write the patch to `file` (the run's result stays on screen); what went wrong, if anything. */
  onSave?(file: string, patch: string): string | undefined;
  /** A resumed session: its running time over all its parts, and how many (the result's wallMs is the last part's). */
  session?: { wallMs: number; parts: number };
  /** Which sandbox ran, in words (`local (bubblewrap)`): said with the run's figures. */
  sandbox?: string;
}

/** A duration as people say it: `64.5 s`, `5 min 14 s`. */
export function durationText(ms: number): string {
  const seconds = ms / 1000;
  if (seconds < 60) return `${seconds.toFixed(1)} s`;
  const whole = Math.round(seconds);
  return `${Math.floor(whole / 60)} min ${whole % 60} s`;
}

/** The run's time: the last part's, and the whole session's when it was resumed (`64.5 s this part · 5 min 14 s in all, 2 parts`). */
export function wallText(wallMs: number, session?: { wallMs: number; parts: number }): string {
  if (!session || session.parts < 2) return `${(wallMs / 1000).toFixed(1)} s`;
  return `${(wallMs / 1000).toFixed(1)} s this part · ${durationText(Math.max(wallMs, session.wallMs))} in all (${session.parts} parts)`;
}

/**
 * The outcome: a summary of the tests (every failing one named, selected or hidden), tokens, cost
 * and cost of a pass, and the diff in a window that scrolls (↑ ↓ PgUp PgDn) so it can be read in
 * full before deciding; `t` swaps the diff for every test. Apply, reject, or save and quit.
 */
export function ResultScreen({
  result,
  prompt,
  width,
  height,
  selected,
  decision,
  replay = false,
  sessionsDir,
  failures = {},
  keptTests,
  onViewer,
  checkout,
  submissions,
  onQuit,
  onSave,
  session,
  sandbox,
}: ResultScreenProps) {
  const [showTests, setShowTests] = useState(false);
  const [confirming, setConfirming] = useState<Confirming>();
  // The test whose failure is open, and where the list's cursor starts.
  const [failure, setFailure] = useState<string>();
  const [listFrom, setListFrom] = useState<string>();
  const [keepError, setKeepError] = useState<string>();
  // `s` wrote the patch here (a later `q` records it in the session as where it was saved); what `s` said.
  const [savedTo, setSavedTo] = useState<string>();
  const [said, setSaid] = useState<string>();
  // A plan's targets whose code `a` applies: the passed ones, until the developer picks (1-9).
  const [chosen, setChosen] = useState<ReadonlySet<string>>(() => passedTargets(result));
  const choosing = !!prompt && !!result.patch && choosesTargets(result);
  useEffect(() => onViewer?.(failure !== undefined), [failure, onViewer]);
  const firstFailed = listOrder(result.tests).find((id) => result.tests[id] !== 'passed');
  const openFailure = (nodeid: string) => {
    setFailure(nodeid);
    setListFrom(nodeid);
    setShowTests(true);
  };
  useKeys((char, key) => {
    // The open question (ConfirmBox) takes y, n, Enter and Esc; nothing reaches the screen.
    if (confirming) return;
    if (failure) {
      if (key.escape || key.return || key.leftArrow || char === 'q') setFailure(undefined);
      return;
    }
    if (char === 't' && !replay) setShowTests((s) => !s);
    // Enter on the diff: how the first failed test failed (the list then has the keys).
    if (key.return && !showTests && firstFailed) openFailure(firstFailed);
    // `s` writes the patch and stays: it can be applied after, or looked at more.
    if (char === 's' && result.patch && onSave) {
      const file = patchFileFor(result.sessionId);
      const problem = onSave(file, result.patch);
      if (!problem) setSavedTo(file);
      setSaid(problem ? `patch not saved: ${problem}` : `patch saved to ${file} (for git apply)`);
      return;
    }
    if (!prompt) {
      if (char === 'q' && onQuit) onQuit();
      return;
    }
    if (char === 'k' && prompt.agentTests) setConfirming('keep');
    // An unverified verdict is never applied (the engine refuses it): said here, not asked.
    else if (char === 'a' && result.patch && result.stopReason === 'unverified')
      setSaid(
        'not applied: the verdict is unverified, tenet could not check it (see above); s saves the patch to look at',
      );
    else if (choosing && /^[1-9]$/.test(char) && Number(char) <= result.targets!.length) {
      const target = result.targets![Number(char) - 1]!.target;
      setChosen((now) => {
        const next = new Set(now);
        if (!next.delete(target)) next.add(target);
        return next;
      });
    } else if (char === 'a' && result.patch && choosing && !chosen.size)
      setSaid("no target chosen: a target's number chooses it for a");
    else if (char === 'a' && result.patch)
      setConfirming(appliesFailing(result, choosing ? chosen : passedTargets(result)) ? 'failing' : 'apply');
    else if (char === 'r') prompt.resolve(false);
    // Without a live screen to stay on (a test's), `s` is the decision itself.
    else if (char === 's' && result.patch) prompt.resolve({ saveTo: patchFileFor(result.sessionId) });
    // Quitting keeps the patch in the session (tenet show prints it), and where `s` saved it, recorded as such.
    else if (char === 'q') {
      prompt.resolve(savedTo ? { saveTo: savedTo } : 'save');
      onQuit?.();
    }
  });
  const entries = Object.entries(result.tests);
  const passed = entries.filter(([, o]) => o === 'passed').length;
  const failing = Object.fromEntries(entries.filter(([, o]) => o !== 'passed'));
  const head: Line[] = [
    ...wrapText(verdictText(result, submissions), width).map((text, i) => ({
      text,
      bold: i === 0,
      color: result.pass ? 'green' : result.stopReason === 'unverified' ? 'yellow' : 'red',
    })),
    ...wrapText(
      `${tokensInOut(result.usage)} · ${plural(result.usage.modelCalls, 'model call')} · ${plural(result.usage.toolCalls, 'tool call')} · ${costText(result.costUsd, result.cacheSavedUsd)} · cost of a pass ${result.costOfPass === null ? '—' : `$${result.costOfPass.toFixed(4)}`} · ${wallText(result.wallMs, session)}${sandbox ? ` · sandbox: ${sandbox}` : ''}`,
      width,
    ).map((text) => ({ text })),
    ...(result.message ? wrapText(result.message, width).map((text) => ({ text, color: 'red' })) : []),
    ...planVerdictLines(result, choosing ? chosen : undefined),
    ...(result.patchSecrets ?? []).flatMap((warning) =>
      wrapText(`! ${warning}`, width).map((text) => ({ text, color: 'yellow' })),
    ),
    ...(result.flagged
      ? wrapText(
          `! flagged: the submission reaches toward the test harness (${result.flagged}); the judge ran it with its tripwire`,
          width,
        ).map((text) => ({ text, color: 'yellow' }))
      : []),
    ...(result.testQuality ? wrapText(describeTestQuality(result.testQuality), width).map((text) => ({ text })) : []),
    ...(result.failure
      ? describeFailure(result.failure)
          .flatMap((line) => wrapText(line, width))
          .map((text) => ({ text, color: 'yellow' }))
      : []),
  ];
  const summary: Line = {
    text: `tests: ${passed}/${entries.length} passed${selected ? ` · ${entries.filter(([id]) => selected.includes(id)).length} selected, ${entries.filter(([id]) => !selected.includes(id)).length} hidden` : ''}${entries.length && !replay && !showTests ? ' · t lists them all' : ''}${firstFailed && !showTests ? ' · Enter: how they failed' : ''}`,
    bold: true,
  };
  const saved = `session ${result.sessionId} saved${sessionsDir ? ` in ${sessionsDir}` : ''}`;
  // What went into the checkout besides the patch, or why it did not.
  const kept = keptTests ? [`the agent's tests kept in ${keptTests}`] : keepError ? [keepError] : [];
  // Once decided, what became of the patch, wrapped: where it still is must not be cut off.
  // With no patch to decide on, a live screen still has its keys until q: they are named.
  const closing = onQuit
    ? hintRows(
        'result',
        width,
        2,
        [],
        [
          'a',
          '1-9',
          'r',
          'k',
          ...(result.patch && onSave ? [] : ['s']),
          ...(result.patch || showTests ? [] : ['↑ ↓ PgUp PgDn']),
          ...(firstFailed ? [] : ['Enter']),
        ],
      )
    : [];
  const done = said ? wrapText(said, width) : [];
  const footer = [
    ...kept,
    ...done,
    ...(prompt
      ? hintRows(
          'result',
          width,
          3,
          [],
          [
            ...(choosing ? [] : ['1-9']),
            ...(prompt.agentTests && !keptTests ? [] : ['k']),
            ...(firstFailed ? [] : ['Enter']),
            ...(result.stopReason === 'unverified' ? ['a'] : []),
          ],
        )
      : [...wrapText(decision ? `${decisionText(decision, result.sessionId)} · ${saved}` : saved, width), ...closing]),
  ];
  const file = result.target.split('::')[0]!;
  // Where `a` writes: the file in the checkout, by its full path (a run may be on another folder than the current one).
  const destination = checkout ? join(checkout, file) : file;
  const agentTests = prompt?.agentTests;
  const question =
    prompt && confirming === 'keep' && agentTests ? (
      <ConfirmBox
        key="keep"
        width={width}
        lines={[verdictText(result, submissions), keepText(agentTests.code, agentTests.path)]}
        question={`Write the agent's tests to ${agentTests.path}?`}
        onConfirm={() => {
          setConfirming(undefined);
          agentTests.keep().then(
            () => setKeepError(undefined),
            (error: Error) => setKeepError(`the agent's tests were not written: ${error.message}`),
          );
        }}
        onCancel={() => setConfirming(undefined)}
      />
    ) : prompt && confirming === 'failing' ? (
      <ConfirmBox
        key="failing"
        danger
        width={width}
        lines={[
          verdictText(result, submissions),
          `This patch did not pass the tests. Writing it into ${destination} puts failing code in your checkout.`,
        ]}
        question="Apply a patch that failed?"
        onConfirm={() => setConfirming('apply')}
        onCancel={() => setConfirming(undefined)}
      />
    ) : prompt && confirming === 'apply' ? (
      <ConfirmBox
        key="apply"
        danger={!result.pass}
        width={width}
        lines={[verdictText(result, submissions), ...(checkout ? [`In the checkout at ${checkout}:`] : [])]}
        question={applyQuestion(result.patch, file)}
        onConfirm={() => prompt.resolve(applyAnswer(result, choosing ? chosen : undefined))}
        onCancel={() => setConfirming(undefined)}
      />
    ) : undefined;
  // Blank lines before the tests, the viewer and the footer, if the terminal has rows to spare.
  const gap = height >= 20 ? 1 : 0;
  const room = height - head.length - footer.length - 1 - 3 * gap;
  const failingCount = Object.keys(failing).length;
  // The failing tests take at most a third of the room: the diff is what is decided on.
  // (None when every test is listed below, or a failure is open: the rows go to that.)
  const failingRows = showTests || failure ? 0 : Math.min(failingCount, Math.max(0, Math.floor(room / 3)));
  const viewerRows = Math.max(3, room - failingRows);
  // The question covers the screen, which stays as it was (the diff where it was scrolled) for a no.
  return (
    <Covered by={question}>
      <Lines lines={head} />
      <Box marginTop={gap} flexDirection="column">
        <Lines lines={[summary]} />
        {failingRows ? (
          <Lines
            marginLeft={2}
            lines={gridLines(failing, width - 2, { max: failingRows, ...(selected ? { selected } : {}) })}
          />
        ) : null}
      </Box>
      <Box marginTop={gap} flexDirection="column">
        {failure ? (
          <ScrollView
            key={`failure ${failure}`}
            title={`how ${shortMiddle(failure, width - 20)} failed (${result.tests[failure]})`}
            lines={failureLines(failureOf(failures, failure), width)}
            height={viewerRows}
            hint="Esc back to the tests"
          />
        ) : showTests ? (
          <TestList
            key="tests"
            outcomes={result.tests}
            {...(selected ? { selected } : {})}
            width={width}
            height={viewerRows}
            {...(listFrom ? { initial: listFrom } : {})}
            active={!confirming}
            onOpen={openFailure}
            {...(replay ? {} : { hint: 't: the diff' })}
          />
        ) : result.patch ? (
          <ScrollView key="diff" label={`diff of ${file}`} lines={diffLines(result.patch, width)} height={viewerRows} />
        ) : (
          <Text dimColor>No change to the target.</Text>
        )}
      </Box>
      <Box marginTop={gap} flexDirection="column">
        <DimRows rows={footer} />
      </Box>
    </Covered>
  );
}
