import { Box, Text, useApp, useInput } from 'ink';
import { useEffect, useMemo, useState } from 'react';
import { keyHint } from '../keys';
import { useTerminalSize } from '../use-terminal-size';

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
export function StartScreen({ repo, functions: given, modelLabel, modelProblem, onStart }: { repo: string; functions: string[] | (() => Promise<string[]>); modelLabel?: string; modelProblem?: string; onStart(choice: StartChoice): void }) {
  const { exit } = useApp();
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
  const { height } = useTerminalSize();
  const [query, setQuery] = useState('');
  const [cursor, setCursor] = useState(0);
  const [blank, setBlank] = useState(false);
  const matches = useMemo(() => {
    const words = query.toLowerCase().split(/\s+/).filter(Boolean);
    return (functions ?? []).filter((f) => words.every((w) => f.toLowerCase().includes(w)));
  }, [query, functions]);
  useInput((input, key) => {
    if (key.escape) exit();
    else if (key.upArrow) setCursor((c) => Math.max(0, c - 1));
    else if (key.downArrow) setCursor((c) => Math.min(matches.length - 1, c + 1));
    else if (key.tab) setBlank((b) => !b);
    else if (key.return) {
      if (matches[cursor] && !modelProblem) onStart({ target: matches[cursor]!, blank });
    } else if (key.backspace || key.delete) {
      setQuery((q) => q.slice(0, -1));
      setCursor(0);
    } else if (input && !key.ctrl && !key.meta) {
      setQuery((q) => q + input);
      setCursor(0);
    }
  });
  const room = Math.max(3, height - 9);
  const first = Math.max(0, Math.min(cursor - Math.floor(room / 2), matches.length - room));
  return (
    <Box flexDirection="column">
      <Text bold>tenet · {repo}</Text>
      {modelProblem ? <Text color="red">{modelProblem}</Text> : <Text dimColor>model: {modelLabel}</Text>}
      <Text>
        mode: <Text bold>{blank ? 'benchmark (the body is blanked, the original is ground truth)' : 'stub (you wrote the signature, docstring and tests)'}</Text> <Text dimColor>(Tab switches)</Text>
      </Text>
      <Text>
        target: {query}
        <Text inverse> </Text> <Text dimColor>{functions ? `${matches.length} of ${functions.length} functions` : indexError ? '' : 'indexing the repository…'}</Text>
      </Text>
      {indexError ? <Text color="red">Cannot list the repository's functions: {indexError}</Text> : null}
      {matches.slice(first, first + room).map((name, i) => (
        <Text key={name} inverse={first + i === cursor} wrap="truncate">
          {first + i === cursor ? '❯ ' : '  '}
          {name}
        </Text>
      ))}
      <Text dimColor>type to search · ↑ ↓ move · Enter start · Tab stub/benchmark · Esc quit · {keyHint('global', ['Ctrl+C twice'])}</Text>
    </Box>
  );
}
