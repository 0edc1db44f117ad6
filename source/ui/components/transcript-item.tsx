import { Box, Text } from 'ink';
import type { TranscriptItem } from '../view-state';

const COLLAPSED_LINES = 4;

function clip(text: string, lines: number, width: number): string {
  const all = text.replace(/\s+$/, '').split('\n').map((l) => (l.length > width ? `${l.slice(0, width - 1)}…` : l));
  return all.length > lines ? [...all.slice(0, lines), `… ${all.length - lines} more lines${lines === COLLAPSED_LINES ? ' (e to expand)' : ''}`].join('\n') : all.join('\n');
}

function argumentsText(args: string): string {
  try {
    const value = JSON.parse(args) as Record<string, unknown>;
    return Object.entries(value)
      .map(([k, v]) => `${k}=${typeof v === 'string' ? (v.includes('\n') ? `${v.split('\n')[0]}…` : v) : JSON.stringify(v)}`)
      .join(' ');
  } catch {
    return args;
  }
}

/** One finished (or current) entry of the agent's transcript. */
export function TranscriptItemView({ item, width, expanded = false }: { item: TranscriptItem; width: number; expanded?: boolean }) {
  const inner = Math.max(20, width - 6);
  switch (item.kind) {
    case 'phase':
      return (
        <Box marginTop={1}>
          <Text bold color="cyan">
            ── {item.text}
          </Text>
        </Box>
      );
    case 'model':
      return (
        <Box flexDirection="column">
          <Text>
            <Text color="magenta">model</Text> <Text dimColor>({item.tokensIn} in / {item.tokensOut} out)</Text>
          </Text>
          <Text>{clip(item.text, expanded ? 200 : 12, inner)}</Text>
        </Box>
      );
    case 'tool': {
      const result = item.result;
      return (
        <Box flexDirection="column">
          <Text>
            <Text color="blue">→ {item.name}</Text> <Text dimColor>{clip(argumentsText(item.args), 1, inner - item.name.length)}</Text>
          </Text>
          {result ? (
            <Box marginLeft={2}>
              <Text color={result.ok ? undefined : 'red'}>{clip(result.text, expanded ? 400 : COLLAPSED_LINES, inner)}</Text>
            </Box>
          ) : (
            <Box marginLeft={2}>
              <Text dimColor>running…</Text>
            </Box>
          )}
        </Box>
      );
    }
    case 'tests':
      return (
        <Box flexDirection="column">
          <Text>
            <Text bold>{item.purpose === 'validate' ? 'selected tests' : item.purpose === 'agent' ? 'run_tests' : 'every failing test'}</Text>: <Text color={item.passed === item.total ? 'green' : 'red'}>{item.passed}/{item.total} passed</Text>
          </Text>
          {item.purpose === 'evaluate' ? null : <TestGrid outcomes={item.outcomes} width={width} />}
        </Box>
      );
    case 'revision':
      return (
        <Box flexDirection="column">
          <Text>
            <Text color="yellow">✎ {item.side === 'tests' ? 'tests' : 'code'} revised</Text>{' '}
            <Text dimColor>
              ({item.iteration ? `test run ${item.iteration}` : 'written first'} · +{item.added} −{item.removed})
            </Text>
          </Text>
          <Box marginLeft={2} flexDirection="column">
            {clip(item.diff, expanded ? 400 : 6, inner)
              .split('\n')
              .map((line, i) => (
                <Text key={i} color={line.startsWith('+') ? 'green' : line.startsWith('-') ? 'red' : undefined}>
                  {line}
                </Text>
              ))}
          </Box>
        </Box>
      );
    case 'note':
      return <Text color={item.tone === 'warning' ? 'yellow' : item.tone === 'human' ? 'green' : undefined}>{item.tone === 'human' ? '👤 ' : '• '}{item.text}</Text>;
  }
}

/** ✓/✗ per test, one line each (names shortened to fit). */
export function TestGrid({ outcomes, width }: { outcomes: Record<string, string>; width: number }) {
  return (
    <Box flexDirection="column" marginLeft={2}>
      {Object.entries(outcomes).map(([nodeid, outcome]) => {
        const name = nodeid.length > width - 8 ? `…${nodeid.slice(nodeid.length - width + 9)}` : nodeid;
        const ok = outcome === 'passed';
        return (
          <Text key={nodeid}>
            <Text color={ok ? 'green' : 'red'}>{ok ? '✓' : '✗'}</Text> {name} {ok ? '' : <Text dimColor>{outcome}</Text>}
          </Text>
        );
      })}
    </Box>
  );
}
