import { Box, Text } from 'ink';
import { useState } from 'react';
import { shortEnd } from '../components/lines';
import { useKeys } from '../components/use-keys';
import type { Takeover } from '../controller';
import type { ViewState } from '../view-state';

/** The live debugger session in `rows` rows (its border and title included). */
export function DebuggerPane({ view, takeover, width, rows, onSend }: { view: ViewState; takeover: Takeover; width: number; rows: number; onSend: (line: string) => void }) {
  const [input, setInput] = useState('');
  useKeys(
    (char, key) => {
      if (key.return) {
        onSend(input);
        setInput('');
      } else if (key.backspace || key.delete) setInput((v) => v.slice(0, -1));
      else if (!key.ctrl && !key.meta && char && !key.escape) setInput((v) => v + char);
    },
    { isActive: takeover === 'active' },
  );
  const shown = view.debugger.lines.slice(-Math.max(0, rows - 3 - (takeover === 'active' ? 1 : 0)));
  return (
    <Box flexDirection="column" borderStyle="round" borderColor={takeover === 'active' ? 'green' : 'gray'} paddingX={1}>
      <Text bold wrap="truncate">
        debugger {view.debugger.mode ? `(${view.debugger.mode})` : ''} {takeover === 'active' ? '· yours: type a command, Enter sends, Esc hands back' : ''}
      </Text>
      {shown.map((line, i) => (
        <Text key={i} wrap="truncate" color={line.who === 'human' ? 'green' : line.who === 'agent' ? 'magenta' : undefined}>
          {shortEnd(line.text, width - 4) || ' '}
        </Text>
      ))}
      {takeover === 'active' ? (
        <Text wrap="truncate">
          <Text color="green">{view.debugger.mode === 'pdb' ? '(Pdb) ' : '$ '}</Text>
          {input}
          <Text inverse> </Text>
        </Text>
      ) : null}
    </Box>
  );
}
