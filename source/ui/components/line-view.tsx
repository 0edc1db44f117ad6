import { Box, Text } from 'ink';
import type { Line, Seg } from './lines';

function SegText({ seg }: { seg: Seg }) {
  return (
    <Text color={seg.color} dimColor={seg.dim} bold={seg.bold} inverse={seg.inverse}>
      {seg.text}
    </Text>
  );
}

/** One terminal row, cut at the edge: never wraps, so a screen's height is its number of lines. */
export function LineRow({ line }: { line: Line }) {
  const segs = Array.isArray(line) ? line : [line];
  const empty = segs.every((s) => !s.text);
  return <Text wrap="truncate">{empty ? ' ' : segs.map((seg, i) => <SegText key={i} seg={seg} />)}</Text>;
}

/** Rows drawn one per line. */
export function Lines({ lines, marginLeft }: { lines: readonly Line[]; marginLeft?: number }) {
  return (
    <Box flexDirection="column" marginLeft={marginLeft}>
      {lines.map((line, i) => (
        <LineRow key={i} line={line} />
      ))}
    </Box>
  );
}

/** Secondary rows (key hints, footers): dim, one terminal row each. */
export function DimRows({ rows }: { rows: readonly string[] }) {
  return (
    <>
      {rows.map((row, i) => (
        <Text key={i} dimColor wrap="truncate">
          {row}
        </Text>
      ))}
    </>
  );
}
