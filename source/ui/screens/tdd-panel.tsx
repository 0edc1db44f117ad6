import { Box, Text } from 'ink';
import { hardWrap, type Line } from '../components/lines';
import { TestGrid } from '../components/test-grid';
import type { TddView } from '../view/types';
import { plural } from '../../engine/util/plural';

/** `first:T 1:C 2:TC`: which side each iteration revised (T tests, C code). */
function revisionTrack(tdd: TddView): string {
  const byIteration = new Map<number, Set<string>>();
  for (const r of tdd.revisions)
    byIteration.set(r.iteration, new Set([...(byIteration.get(r.iteration) ?? []), r.side === 'tests' ? 'T' : 'C']));
  return [...byIteration.entries()]
    .map(([i, sides]) => `${i === 0 ? 'first' : i}:${[...sides].sort().reverse().join('')}`)
    .join(' ');
}

/** Rows the panel would use: its blank line, its title, a row per test. */
export const tddPanelRows = (tdd: TddView) => 2 + Object.keys(tdd.outcomes).length;

/**
 * TDD strategies: the agent's test file (name, version, size), which side each iteration revised
 * (T for tests, C for code), and its tests' latest outcomes, in at most `rows` rows.
 */
export function TddPanel({ tdd, width, rows = Infinity }: { tdd: TddView; width: number; rows?: number }) {
  const file = tdd.testFile;
  const track = revisionTrack(tdd);
  return (
    <Box flexDirection="column" marginTop={1}>
      <Text wrap="truncate">
        <Text bold>generated tests</Text>{' '}
        {file ? (
          <Text dimColor>
            {file.path} · version {file.versions} · {plural(file.code.split('\n').length, 'line')}
          </Text>
        ) : (
          <Text dimColor>not written yet</Text>
        )}
        {track ? <Text dimColor> · revisions {track}</Text> : null}
        {file ? <Text dimColor> · v reads it</Text> : null}
      </Text>
      {Object.keys(tdd.outcomes).length && rows > 2 ? (
        <TestGrid outcomes={tdd.outcomes} width={width} max={rows - 2} />
      ) : null}
    </Box>
  );
}

/** The agent's test file as numbered rows, for the `v` viewer (long lines wrapped, not cut). */
export function testFileLines(code: string, width: number): Line[] {
  const rows = code.replace(/\n$/, '').split('\n');
  const digits = String(rows.length).length;
  return rows.flatMap((row, i) =>
    hardWrap(row, Math.max(10, width - digits - 1)).map(
      (part, j): Line => [
        { text: `${j ? ' '.repeat(digits) : String(i + 1).padStart(digits)} `, dim: true },
        { text: part },
      ],
    ),
  );
}
