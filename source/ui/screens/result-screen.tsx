import { Box, Text, useInput } from 'ink';
import type { RunResult } from '../../engine/events';
import { describeFailure, describeTestQuality } from '../../engine/quality/describe';
import { TestGrid } from '../components/transcript-item';
import type { Prompt } from '../controller';
import { keyHint } from '../keys';

function DiffView({ patch, lines }: { patch: string; lines: number }) {
  const all = patch.replace(/\n$/, '').split('\n');
  const shown = all.slice(0, lines);
  return (
    <Box flexDirection="column">
      {shown.map((line, i) => (
        <Text key={i} wrap="truncate" color={line.startsWith('+') && !line.startsWith('+++') ? 'green' : line.startsWith('-') && !line.startsWith('---') ? 'red' : line.startsWith('@@') ? 'cyan' : undefined}>
          {line || ' '}
        </Text>
      ))}
      {all.length > lines ? <Text dimColor>… {all.length - lines} more lines (tenet show prints the whole patch)</Text> : null}
    </Box>
  );
}

/**
 * The outcome: the diff of the implementation, the selected and hidden tests, tokens, cost and
 * cost of a pass; apply the patch to the checkout, reject it, or save and quit.
 */
export function ResultScreen({ result, prompt, width, height }: { result: RunResult; prompt?: Extract<Prompt, { kind: 'accept-patch' }>; width: number; height: number }) {
  useInput(
    (char) => {
      if (!prompt) return;
      if (char === 'a') prompt.resolve(true);
      else if (char === 'r' || char === 's') prompt.resolve(false);
    },
    { isActive: !!prompt },
  );
  return (
    <Box flexDirection="column">
      <Text bold color={result.pass ? 'green' : 'red'}>
        {result.pass ? 'PASS' : 'FAIL'} <Text color={undefined}>({result.stopReason})</Text> · selected tests {result.selectedTests.passed}/{result.selectedTests.total} · hidden tests {result.hiddenTests.passed}/
        {result.hiddenTests.total}
      </Text>
      <Text>
        {result.usage.inputTokens.toLocaleString('en')} tokens in / {result.usage.outputTokens.toLocaleString('en')} out · {result.usage.modelCalls} model calls · {result.usage.toolCalls} tool calls · $
        {result.costUsd.toFixed(4)} · cost of a pass {result.costOfPass === null ? '—' : `$${result.costOfPass.toFixed(4)}`} · {(result.wallMs / 1000).toFixed(1)} s
      </Text>
      {result.testQuality ? <Text>{describeTestQuality(result.testQuality)}</Text> : null}
      {result.failure
        ? describeFailure(result.failure).map((line, i) => (
            <Text key={i} color="yellow">
              {line}
            </Text>
          ))
        : null}
      <Box marginTop={1} flexDirection="column">
        <TestGrid outcomes={result.tests} width={width} />
      </Box>
      <Box marginTop={1} flexDirection="column">
        {result.patch ? <DiffView patch={result.patch} lines={Math.max(6, height - Object.keys(result.tests).length - 10)} /> : <Text dimColor>No change to the target.</Text>}
      </Box>
      <Box marginTop={1}>
        <Text dimColor>{prompt ? keyHint('result') : `session ${result.sessionId} saved`}</Text>
      </Box>
    </Box>
  );
}
