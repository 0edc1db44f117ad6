import { Text } from 'ink';
import type { ThmFailingTest, ThmReport } from '../../engine/protocol/thm-report';
import { plural } from '../../engine/util/plural';
import { shortMiddle } from '../components/lines';
import type { Row } from './thm-picker';

export interface ThmRowProps {
  row: Row;
  /** The cursor is on it. */
  at: boolean;
  /** A cluster's tests are listed under it. */
  open: boolean;
  report: ThmReport;
  /** The failing tests by id. */
  byId: ReadonlyMap<string, ThmFailingTest>;
  /** The tests chosen so far (★), and the developer's own (✎). */
  selection: readonly string[];
  developer: readonly string[];
  width: number;
}

/** One row of the THM review's list: a heading, a cluster (its caller) or a test, marked when chosen or the developer's. */
export function ThmRow({ row, at, open, report, byId, selection, developer, width }: ThmRowProps) {
  const pointer = at ? '❯ ' : '  ';
  if (row.kind === 'heading') return <Text dimColor wrap="truncate">{`  ${row.text}`}</Text>;
  if (row.kind === 'other')
    return (
      <Text inverse={at} wrap="truncate">
        {pointer}
        {'      '}
        <Text dimColor>{shortMiddle(row.nodeid, Math.max(12, width - 30))} · another reason</Text>
      </Text>
    );
  if (row.kind === 'cluster') {
    const cluster = report.clusters[row.index]!;
    const about = `· ${plural(cluster.tests.length, 'test')} · depth ${cluster.depth}`;
    return (
      <Text inverse={at} wrap="truncate">
        {pointer}
        {open ? '▾' : '▸'} {shortMiddle(cluster.caller, Math.max(12, width - about.length - 8))}{' '}
        <Text dimColor>{about}</Text>
        {cluster.tests.some((t) => selection.includes(t)) ? <Text color="yellow"> ★</Text> : ''}
        {cluster.tests.some((t) => developer.includes(t)) ? <Text color="green"> ✎</Text> : ''}
      </Text>
    );
  }
  const test = byId.get(row.nodeid);
  // A column for ✎ only when the developer has tests of their own.
  const mark = `${selection.includes(row.nodeid) ? '★' : ' '}${developer.length ? (developer.includes(row.nodeid) ? '✎' : ' ') : ''}`;
  const about = test?.reached
    ? `depth ${test.depth}`
    : test?.failsThrough
      ? `fails through ${test.failsThrough.split('::').pop()}`
      : test?.inSubprocess
        ? 'in a subprocess'
        : 'not reached';
  return (
    <Text inverse={at} wrap="truncate">
      {pointer}
      {'    '}
      <Text color="yellow">{mark}</Text> {shortMiddle(row.nodeid, Math.max(12, width - about.length - 9 - mark.length))}{' '}
      <Text dimColor>{about}</Text>
    </Text>
  );
}

/** A row's React key: what it shows, so a row keeps its element as the list scrolls. */
export const rowKey = (row: Row, i: number): string =>
  row.kind === 'heading'
    ? `h${i}`
    : row.kind === 'cluster'
      ? `c${row.index}`
      : row.kind === 'other'
        ? `o${row.nodeid}`
        : `t${row.nodeid}`;
