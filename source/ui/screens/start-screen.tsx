import { Box, Text, useApp } from 'ink';
import { shownArgs } from '../../engine/util/shown-args';
import { useEffect, useMemo, useRef, useState } from 'react';
import { ConfirmBox } from '../components/confirm-box';
import { HelpOverlay } from '../components/help-overlay';
import { DimRows } from '../components/line-view';
import { windowStart, wrapText } from '../components/lines';
import { TooSmall } from '../components/too-small';
import { hintRows } from '../keys';
import { tooSmall, useTerminalSize } from '../use-terminal-size';
import { useKeys } from '../components/use-keys';
import { FieldText, useLineEditor } from '../components/text-field';

/** A target and its mode, or the scripted demo (`d`, when no model is configured). */
export type StartChoice = { target: string; blank: boolean } | { demo: true };

/**
 * What a target's body says about the mode chosen, before anything runs: `stub` (nothing
 * implemented), `implemented` (a real body), or why the target cannot be used at all.
 */
export type TargetCheck = { body: 'stub' | 'implemented' } | { problem: string };

export interface StartScreenProps {
  repo: string;
  functions: string[] | (() => Promise<string[]>);
  modelLabel?: string;
  /** Where the session's Python will run, in words (`local (bubblewrap)`). */
  sandbox?: string;
  /** The repository's instructions the model will get, in words (`AGENTS.md, 1.2 kB`); absent: none. Said on the model's line. */
  instructions?: string;
  /** The pytest arguments the session's scope is (`tenet --tests …`); empty or absent: the repository's pytest configuration. */
  testArgs?: readonly string[];
  /** Why no model can answer, with what to set: the screen says it in full, and `d` runs the demo instead. */
  modelProblem?: string;
  /** Looks at the chosen target's body (absent: no check). */
  checkTarget?: (target: string) => Promise<TargetCheck>;
  onStart(choice: StartChoice): void;
  /** Esc on an empty search (default: close the app). */
  onQuit?: () => void;
}

/** A mode that would doom the session, and the one to offer instead. */
interface Mismatch {
  target: string;
  blank: boolean;
  lines: string[];
  question: string;
}

const nameOf = (target: string) => target.split('::').at(-1)!.replace(/@\d+$/, '');

/** Stub mode on a real body finds no failing test; benchmark mode on a stub has no ground truth. */
function mismatch(target: string, blank: boolean, body: 'stub' | 'implemented'): Mismatch | undefined {
  if (!blank && body === 'implemented') {
    return {
      target,
      blank: true,
      lines: [`${nameOf(target)} has a real body. In stub mode the tests run against that body, so none fails because of the target and the session has nothing to do.`, 'Benchmark mode blanks the body (keeping the signature and docstring), runs the tests against the blank, and keeps the original as ground truth.'],
      question: 'Start in benchmark mode instead?',
    };
  }
  if (blank && body === 'stub') {
    return {
      target,
      blank: false,
      lines: [`${nameOf(target)} is a stub: benchmark mode needs a real body to blank and to keep as ground truth.`, 'Stub mode runs the tests against your stub, the way it is meant for.'],
      question: 'Start in stub mode instead?',
    };
  }
  return undefined;
}

/**
 * `tenet` with no command: pick the target among the repository's functions (type to search),
 * choose stub or benchmark mode, and see which model will answer before anything runs. The list
 * may be given as a loader (indexing a large repository takes seconds): it starts once the first
 * frame is on screen. A choice that cannot work (stub mode on a real body) is caught here, with
 * the mode that would; without a model, the screen says what to set and `d` runs the demo.
 */
export function StartScreen({ repo, functions: given, modelLabel, sandbox, instructions, testArgs = [], modelProblem, checkTarget, onStart, onQuit }: StartScreenProps) {
  const { exit } = useApp();
  const quit = onQuit ?? exit;
  const [functions, setFunctions] = useState<string[] | undefined>(Array.isArray(given) ? given : undefined);
  const [indexError, setIndexError] = useState<string>();
  useEffect(() => {
    if (Array.isArray(given)) return;
    let live = true;
    given().then(
      (list) => live && setFunctions(list),
      (error: Error) => live && setIndexError(error.message),
    );
    return () => {
      live = false;
    };
  }, [given]);
  const { width, height } = useTerminalSize();
  const [cursor, setCursorState] = useState(0);
  // Enter right after ↓ (keys faster than frames) starts the row ↓ moved to.
  const cursorNow = useRef(0);
  const setCursor = (to: number | ((at: number) => number)) => {
    cursorNow.current = typeof to === 'function' ? to(cursorNow.current) : to;
    setCursorState(cursorNow.current);
  };
  const [blank, setBlank] = useState(false);
  const [help, setHelp] = useState(false);
  const [notice, setNotice] = useState<{ text: string; tone: 'error' | 'info' }>();
  const [offer, setOffer] = useState<Mismatch>();
  const [checking, setChecking] = useState(false);
  // The choice is made: draw an empty frame first, so the picker does not stay above the next screen.
  const [picked, setPicked] = useState<StartChoice | undefined>(undefined);
  useEffect(() => {
    if (picked) onStart(picked);
  }, [picked, onStart]);
  const [query, setQuery] = useState('');
  const matching = (search: string) => {
    const words = search.toLowerCase().split(/\s+/).filter(Boolean);
    return (functions ?? []).filter((f) => words.every((w) => f.toLowerCase().includes(w)));
  };
  const matches = useMemo(() => matching(query), [query, functions]);

  /** Enter on the search as typed (a search and its Enter can come in one chunk, before a frame). */
  const start = async (search: string) => {
    const target = matching(search)[cursorNow.current];
    if (!target || checking) return;
    if (!checkTarget) return setPicked({ target, blank });
    setChecking(true);
    try {
      const check = await checkTarget(target);
      if ('problem' in check) return setNotice({ text: check.problem, tone: 'error' });
      const wrong = mismatch(target, blank, check.body);
      if (wrong) setOffer(wrong);
      else setPicked({ target, blank });
    } finally {
      setChecking(false);
    }
  };

  const idle = !picked && !help && !offer;
  const search = useLineEditor({
    // Without a model there is nothing to start: the letters are keys (d the demo), not a search.
    active: idle && !modelProblem,
    newlines: 'single',
    keep: true,
    onChange: (value) => {
      setQuery(value);
      setCursor(0);
      setNotice(undefined);
    },
    onSubmit: (line) => void start(line),
    intercept: (input, key, empty) => {
      // No function name has a `?`: it is the help key here too.
      if (input === '?') setHelp(true);
      // Esc takes back the search first; only an empty one quits.
      else if (key.escape) {
        if (empty) quit();
        else search.clear();
      } else if (key.upArrow) setCursor((c) => Math.max(0, c - 1));
      else if (key.downArrow) setCursor((c) => Math.min(matches.length - 1, c + 1));
      else if (key.tab) setBlank((b) => !b);
      else return false;
      return true;
    },
  });
  useKeys(
    (input, key) => {
      if (input === 'd') setPicked({ demo: true });
      else if (input === '?') setHelp(true);
      else if (key.escape || input === 'q') quit();
      else if (key.upArrow) setCursor((c) => Math.max(0, c - 1));
      else if (key.downArrow) setCursor((c) => Math.min(matches.length - 1, c + 1));
      else if (key.return) setNotice({ text: 'No model to run a session with: set one as said above, or press d for the scripted demo.', tone: 'error' });
    },
    { isActive: idle && !!modelProblem },
  );
  useKeys(
    (input, key) => {
      if (input === '?' || key.escape) setHelp(false);
    },
    { isActive: help },
  );
  if (picked) return null;
  if (tooSmall({ width, height })) return <TooSmall width={width} height={height} />;
  if (help) return <HelpOverlay screens={modelProblem ? ['startNoModel', 'quitOnce'] : ['start', 'field', 'quitOnce']} width={width} height={height - 1} />;
  if (offer) {
    return (
      <ConfirmBox
        width={width}
        lines={offer.lines}
        question={offer.question}
        onConfirm={() => setPicked({ target: offer.target, blank: offer.blank })}
        onCancel={() => setOffer(undefined)}
      />
    );
  }
  const keys = modelProblem ? hintRows('startNoModel', width, 2) : hintRows('start', width, 2, ['Ctrl+C quit']);
  // Without a model, what to set, in full: no other line of the screen matters as much.
  const problem = modelProblem ? wrapText(modelProblem, width) : [];
  const noticeRows = notice ? wrapText(notice.text, width) : [];
  // Title, model (or the problem), mode, scope, search line, the index error, the notice, the keys, and Ink's free row.
  const room = Math.max(1, height - 5 - Math.max(1, problem.length) - (indexError ? 1 : 0) - noticeRows.length - keys.length);
  const first = windowStart(cursor, matches.length, room);
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
          model: {modelLabel}
          {sandbox ? ` · sandbox: ${sandbox}` : ''}
          {instructions ? ` · instructions: ${instructions}` : ''}
        </Text>
      )}
      <Text wrap="truncate">
        mode: <Text bold>{blank ? 'benchmark (the body is blanked, the original is ground truth)' : 'stub (you wrote the signature, docstring and tests)'}</Text> <Text dimColor>(Tab switches)</Text>
      </Text>
      <Text wrap="truncate">
        tests: {testArgs.length ? <Text bold>{shownArgs(testArgs)}</Text> : 'the whole suite'} <Text dimColor>{testArgs.length ? '(--tests)' : '· tenet --tests ARGS… narrows it'}</Text>
      </Text>
      <Text wrap="truncate">
        target: {modelProblem ? <Text dimColor>(set a model to start a session; d runs the scripted demo)</Text> : <FieldText state={search.state} width={Math.max(10, width - 40)} />}{' '}
        <Text dimColor>{checking ? 'checking the target…' : functions ? `${matches.length} of ${functions.length} functions` : indexError ? '' : 'indexing the repository…'}</Text>
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
      {matches.slice(first, first + room).map((name, i) => (
        <Text key={name} inverse={first + i === cursor} wrap="truncate">
          {first + i === cursor ? '❯ ' : '  '}
          {name}
        </Text>
      ))}
      <DimRows rows={keys} />
    </Box>
  );
}
