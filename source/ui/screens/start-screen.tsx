import { Box, Text, useApp } from 'ink';
import { useEffect, useMemo, useState } from 'react';
import { HelpOverlay } from '../components/help-overlay';
import { DimRows } from '../components/line-view';
import { windowStart } from '../components/lines';
import { TooSmall } from '../components/too-small';
import { hintRows } from '../keys';
import { tooSmall, useTerminalSize } from '../use-terminal-size';
import { useKeys } from '../components/use-keys';
import { FieldText, useLineEditor } from '../components/text-field';

export interface StartChoice {
  target: string;
  blank: boolean;
}

/**
 * `tenet` with no command: pick the target among the repository's functions (type to search),
 * choose stub or benchmark mode, and see which model will answer before anything runs. The list
 * may be given as a loader (indexing a large repository takes seconds): it starts once the first
 * frame is on screen.
 */
export function StartScreen({ repo, functions: given, modelLabel, modelProblem, onStart, onQuit }: { repo: string; functions: string[] | (() => Promise<string[]>); modelLabel?: string; modelProblem?: string; onStart(choice: StartChoice): void; /** Esc on an empty search (default: close the app). */ onQuit?: () => void }) {
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
  const [cursor, setCursor] = useState(0);
  const [blank, setBlank] = useState(false);
  const [help, setHelp] = useState(false);
  // The choice is made: draw an empty frame first, so the picker does not stay above the next screen.
  const [picked, setPicked] = useState<StartChoice | undefined>(undefined);
  useEffect(() => {
    if (picked) onStart(picked);
  }, [picked, onStart]);
  const [query, setQuery] = useState('');
  const matches = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return (functions ?? []).filter((f) => words.every((w) => f.toLowerCase().includes(w)));
  }, [query, functions]);
  const search = useLineEditor({
    active: !picked && !help,
    newlines: 'single',
    onChange: (value) => {
      setQuery(value);
      setCursor(0);
    },
    onSubmit: () => {
      if (matches[cursor] && !modelProblem) setPicked({ target: matches[cursor]!, blank });
    },
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
      if (input === '?' || key.escape) setHelp(false);
    },
    { isActive: help },
  );
  if (picked) return null;
  if (tooSmall({ width, height })) return <TooSmall width={width} height={height} />;
  if (help) return <HelpOverlay screens={['start', 'field', 'quitOnce']} width={width} height={height - 1} />;
  const keys = hintRows('start', width, 2, ['Ctrl+C quit']);
  // Title, model, mode, search line, the index error, the keys, and Ink's free row.
  const room = Math.max(1, height - 5 - (indexError ? 1 : 0) - keys.length);
  const first = windowStart(cursor, matches.length, room);
  return (
    <Box flexDirection="column">
      <Text bold wrap="truncate">
        tenet · {repo}
      </Text>
      {modelProblem ? (
        <Text color="red" wrap="truncate">
          {modelProblem}
        </Text>
      ) : (
        <Text dimColor wrap="truncate">
          model: {modelLabel}
        </Text>
      )}
      <Text wrap="truncate">
        mode: <Text bold>{blank ? 'benchmark (the body is blanked, the original is ground truth)' : 'stub (you wrote the signature, docstring and tests)'}</Text> <Text dimColor>(Tab switches)</Text>
      </Text>
      <Text wrap="truncate">
        target: <FieldText state={search.state} width={Math.max(10, width - 40)} /> <Text dimColor>{functions ? `${matches.length} of ${functions.length} functions` : indexError ? '' : 'indexing the repository…'}</Text>
      </Text>
      {indexError ? (
        <Text color="red" wrap="truncate">
          Cannot list the repository's functions: {indexError}
        </Text>
      ) : null}
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
