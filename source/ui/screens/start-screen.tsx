import { Box, Text, useApp } from 'ink';
import { shownArgs } from '../../engine/util/shown-args';
import { useEffect, useRef } from 'react';
import { ConfirmBox } from '../components/confirm-box';
import { HelpOverlay } from '../components/help-overlay';
import { DimRows } from '../components/line-view';
import { windowStart, wrapText } from '../components/lines';
import { TooSmall } from '../components/too-small';
import { hintRows } from '../keys';
import { tooSmall, useTerminalSize } from '../use-terminal-size';
import { useKeys } from '../components/use-keys';
import { FieldText, useLineEditor } from '../components/text-field';
import {
  initialStart,
  matching,
  noModelKey,
  searchKey,
  useStartState,
  type Mismatch,
  type ModelLine,
  type StartChoice,
  type StartKeyOutcome,
} from './start-state';
import { testsReachingWords, useReach, type StartReachRefresh } from './start-reach';

export type { ModelLine, StartChoice };

/**
 * What a target's body says about the mode chosen, before anything runs: `stub` (nothing
 * implemented), `implemented` (a real body), or why the target cannot be used at all.
 */
export type TargetCheck = { body: 'stub' | 'implemented' } | { problem: string };

export interface StartScreenProps {
  repo: string;
  functions: string[] | (() => Promise<string[]>);
  modelLabel?: string;
  /** Which model answers, or why none can, loaded after the first frame (instead of modelLabel / modelProblem); with it, where its Python will run. */
  model?: () => Promise<ModelLine>;
  /** Where the session's Python will run, in words (`local (bubblewrap)`), when known before the first frame. */
  sandbox?: string;
  /** The repository's instructions the model will get, in words (`AGENTS.md, 1.2 kB`); absent: none. Said on the model's line. */
  instructions?: string;
  /** The pytest arguments the session's scope is (`tenet --tests …`); empty or absent: the repository's pytest configuration. */
  testArgs?: readonly string[];
  /** Why no model can answer, with what to set: the screen says it in full, and `d` runs the demo instead. */
  modelProblem?: string;
  /** How many tests the reach index records as calling each function (`file::qualname`), loaded after the first frame; undefined: no index. */
  reachCounts?: () => Promise<ReadonlyMap<string, number> | undefined>;
  /** Starts the reach index's refresh after the first frame (its line and new counts come back); the caller stops it. */
  refreshReach?: StartReachRefresh;
  /** Looks at the chosen target's body (absent: no check). */
  checkTarget?: (target: string) => Promise<TargetCheck>;
  onStart(choice: StartChoice): void;
  /** Esc on an empty search (default: close the app). */
  onQuit?: () => void;
}

const nameOf = (target: string) => target.split('::').at(-1)!.replace(/@\d+$/, '');

/** Stub mode on a real body finds no failing test; benchmark mode on a stub has no ground truth. */
function mismatch(target: string, blank: boolean, body: 'stub' | 'implemented'): Mismatch | undefined {
  if (!blank && body === 'implemented') {
    return {
      target,
      blank: true,
      lines: [
        `${nameOf(target)} has a real body. In stub mode the tests run against that body, so none fails because of the target and the session has nothing to do.`,
        'Benchmark mode blanks the body (keeping the signature and docstring), runs the tests against the blank, and keeps the original as ground truth.',
      ],
      question: 'Start in benchmark mode instead?',
    };
  }
  if (blank && body === 'stub') {
    return {
      target,
      blank: false,
      lines: [
        `${nameOf(target)} is a stub: benchmark mode needs a real body to blank and to keep as ground truth.`,
        'Stub mode runs the tests against your stub, the way it is meant for.',
      ],
      question: 'Start in stub mode instead?',
    };
  }
  return undefined;
}

/**
 * `tenet` with no command: pick the target among the repository's functions (type to search),
 * choose stub or benchmark mode, and see which model will answer before anything runs. The list
 * and the model may be given as loaders (indexing a large repository takes seconds, the providers'
 * SDKs a few hundred ms): they start once the first frame is on screen. A choice that cannot work
 * (stub mode on a real body) is caught here, with the mode that would; without a model, the screen
 * says what to set and `d` runs the demo. Its state goes through reduceStart (start-state.ts).
 */
export function StartScreen({
  repo,
  functions: given,
  modelLabel,
  model: loadModel,
  sandbox,
  instructions,
  testArgs = [],
  modelProblem: givenProblem,
  checkTarget,
  reachCounts,
  refreshReach,
  onStart,
  onQuit,
}: StartScreenProps) {
  const { exit } = useApp();
  const quit = onQuit ?? exit;
  const { state, latest, dispatch } = useStartState(() =>
    initialStart(
      Array.isArray(given) ? given : undefined,
      givenProblem ? { problem: givenProblem } : modelLabel !== undefined ? { label: modelLabel } : undefined,
    ),
  );
  useEffect(() => {
    if (Array.isArray(given)) return;
    let live = true;
    given().then(
      (list) => live && dispatch({ type: 'functions', list }),
      (error: Error) => live && dispatch({ type: 'index-failed', message: error.message }),
    );
    return () => {
      live = false;
    };
  }, [given]);
  useEffect(() => {
    if (!loadModel) return;
    let live = true;
    loadModel().then(
      (line) => live && dispatch({ type: 'model', line }),
      (error: Error) => live && dispatch({ type: 'model', line: { problem: error.message } }),
    );
    return () => {
      live = false;
    };
  }, [loadModel]);
  const { counts: reach, status: reachStatus } = useReach(reachCounts, refreshReach);
  const { width, height } = useTerminalSize();
  // The rows the list shows at once (set when drawn): PgUp PgDn move by that much.
  const page = useRef(10);
  const { functions, indexError, query, cursor, blank, help, notice, offer, checking, picked } = state;
  const modelProblem = state.model && 'problem' in state.model ? state.model.problem : undefined;
  // The choice is made: draw an empty frame first, so the picker does not stay above the next screen.
  useEffect(() => {
    if (picked) onStart(picked);
  }, [picked, onStart]);
  const matches = matching(functions, query);

  /** Enter on the search as typed (a search and its Enter can come in one chunk, before a frame). */
  const start = async (search: string) => {
    const now = latest();
    const target = matching(now.functions, search)[now.cursor];
    if (!target || now.checking) return;
    if (!checkTarget) return dispatch({ type: 'pick', choice: { target, blank: now.blank } });
    dispatch({ type: 'checking', on: true });
    try {
      const check = await checkTarget(target);
      if ('problem' in check) return dispatch({ type: 'notice', notice: { text: check.problem, tone: 'error' } });
      const wrong = mismatch(target, now.blank, check.body);
      if (wrong) dispatch({ type: 'offer', offer: wrong });
      else dispatch({ type: 'pick', choice: { target, blank: now.blank } });
    } finally {
      dispatch({ type: 'checking', on: false });
    }
  };
  const act = (outcome: StartKeyOutcome): boolean => {
    if (outcome === undefined) return false;
    if (outcome === 'quit') quit();
    else if (outcome === 'clear') search.clear();
    else dispatch(outcome);
    return true;
  };

  const idle = !picked && !help && !offer;
  const search = useLineEditor({
    // Without a model there is nothing to start (nor while it loads): the letters are keys (d the demo), not a search.
    active: idle && !!state.model && !modelProblem,
    newlines: 'single',
    keep: true,
    onChange: (value) => dispatch({ type: 'query', value }),
    onSubmit: (line) => void start(line),
    intercept: (input, key, empty) => act(searchKey(input, key, empty, page.current)),
  });
  useKeys((input, key) => void act(noModelKey(input, key, page.current)), { isActive: idle && !!modelProblem });
  useKeys(
    (input, key) => {
      if (input === '?' || key.escape) dispatch({ type: 'help', open: false });
    },
    { isActive: help },
  );
  if (picked) return null;
  if (tooSmall({ width, height })) return <TooSmall width={width} height={height} />;
  if (help)
    return (
      <HelpOverlay
        screens={modelProblem ? ['startNoModel', 'quitOnce'] : ['start', 'field', 'quitOnce']}
        width={width}
        height={height - 1}
      />
    );
  if (offer) {
    return (
      <ConfirmBox
        width={width}
        lines={offer.lines}
        question={offer.question}
        onConfirm={() => dispatch({ type: 'pick', choice: { target: offer.target, blank: offer.blank } })}
        onCancel={() => dispatch({ type: 'offer' })}
      />
    );
  }
  const keys = modelProblem ? hintRows('startNoModel', width, 2) : hintRows('start', width, 2, ['Ctrl+C quit']);
  // Without a model, what to set, in full: no other line of the screen matters as much.
  const problem = modelProblem ? wrapText(modelProblem, width) : [];
  // A model that answers only because none is configured (the example's demo script): said, in full.
  const modelNote = state.model && 'note' in state.model && state.model.note ? wrapText(state.model.note, width) : [];
  const noticeRows = notice ? wrapText(notice.text, width) : [];
  // Title, model (or the problem), mode, scope, the reach index's refresh, search line, the index error, the notice, the keys, and Ink's free row.
  const room = Math.max(
    1,
    height -
      5 -
      (reachStatus ? 1 : 0) -
      Math.max(1, problem.length) -
      modelNote.length -
      (indexError ? 1 : 0) -
      noticeRows.length -
      keys.length,
  );
  // A list longer than the room ends in a row that says how many more there are, and the keys to them.
  const listRows = matches.length > room ? Math.max(1, room - 1) : room;
  page.current = Math.max(1, listRows - 1);
  const first = windowStart(cursor, matches.length, listRows);
  const below = Math.max(0, matches.length - first - listRows);
  const more =
    matches.length > room
      ? `… ${below ? `${below.toLocaleString('en')} more` : 'the end'}${first ? ` (${first.toLocaleString('en')} above)` : ''} · PgUp PgDn Home End`
      : undefined;
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        tenet · {repo}
      </Text>
      {modelProblem ? (
        problem.map((row, i) => (
          <Text key={`p${i}`} color="red" wrap="truncate">
            {row}
          </Text>
        ))
      ) : (
        <Text dimColor wrap="truncate">
          model: {state.model && 'label' in state.model ? state.model.label : '…'}
          {(state.model?.sandbox ?? sandbox) ? ` · sandbox: ${state.model?.sandbox ?? sandbox}` : ''}
          {instructions ? ` · instructions: ${instructions}` : ''}
        </Text>
      )}
      {modelNote.map((row, i) => (
        <Text key={`m${i}`} color="yellow" wrap="truncate">
          {row}
        </Text>
      ))}
      <Text wrap="truncate">
        mode:{' '}
        <Text bold>
          {blank
            ? 'benchmark (the body is blanked, the original is ground truth)'
            : 'stub (you wrote the signature, docstring and tests)'}
        </Text>{' '}
        <Text dimColor>(Tab switches)</Text>
      </Text>
      <Text wrap="truncate">
        tests: {testArgs.length ? <Text bold>{shownArgs(testArgs)}</Text> : 'the whole suite'}{' '}
        <Text dimColor>{testArgs.length ? '(--tests)' : '· tenet --tests ARGS… narrows it'}</Text>
      </Text>
      {reachStatus ? (
        <Text wrap="truncate" {...(reachStatus.tone === 'problem' ? { color: 'yellow' } : { dimColor: true })}>
          {reachStatus.text}
        </Text>
      ) : null}
      <Text wrap="truncate">
        target:{' '}
        {modelProblem ? (
          <Text dimColor>(set a model to start a session; d runs the scripted demo)</Text>
        ) : (
          <FieldText state={search.state} width={Math.max(10, width - 40)} />
        )}{' '}
        <Text dimColor>
          {checking
            ? 'checking the target…'
            : functions
              ? `${matches.length} of ${functions.length} functions`
              : indexError
                ? ''
                : 'indexing the repository…'}
        </Text>
      </Text>
      {indexError ? (
        <Text color="red" wrap="truncate">
          Cannot list the repository's functions: {indexError}
        </Text>
      ) : null}
      {noticeRows.map((row, i) => (
        <Text key={`n${i}`} color={notice!.tone === 'error' ? 'red' : 'yellow'} wrap="truncate">
          {row}
        </Text>
      ))}
      {matches.slice(first, first + listRows).map((name, i) => (
        <Text key={name} inverse={first + i === cursor} wrap="truncate">
          {first + i === cursor ? '❯ ' : '  '}
          {name}
          {reach ? <Text dimColor> · {testsReachingWords(reach.get(name.replace(/@\d+$/, '')) ?? 0)}</Text> : null}
        </Text>
      ))}
      {more ? (
        <Text dimColor wrap="truncate">
          {more}
        </Text>
      ) : null}
      <DimRows rows={keys} />
    </Box>
  );
}
