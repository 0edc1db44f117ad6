import { Box, Text, useInput } from 'ink';
import { useMemo, useState } from 'react';
import { selectTests } from '../../engine/thm/clustering';
import type { ThmFailingTest, ThmReport } from '../../engine/thm/report';
import { ProgressBar } from '../components/progress-bar';
import type { Prompt } from '../controller';
import { keyHint } from '../keys';
import type { ViewState } from '../view-state';

type Row = { kind: 'cluster'; index: number } | { kind: 'test'; nodeid: string; cluster: number | null } | { kind: 'heading'; text: string };

/** The rows of the picker: clusters (expandable to their tests), then tests that never reached the target. */
export function pickerRows(report: ThmReport, expanded: ReadonlySet<number>): Row[] {
  const rows: Row[] = [];
  report.clusters.forEach((cluster, index) => {
    rows.push({ kind: 'cluster', index });
    if (expanded.has(index)) for (const nodeid of cluster.tests) rows.push({ kind: 'test', nodeid, cluster: index });
  });
  const unreached = report.failing.filter((f) => !f.reached);
  if (unreached.length) {
    rows.push({ kind: 'heading', text: `Failing without reaching the target (${unreached.length})` });
    for (const test of unreached) rows.push({ kind: 'test', nodeid: test.nodeid, cluster: null });
  }
  return rows;
}

/** THM's proposal for a budget T, as the engine computes it. */
export function propose(report: ThmReport, T: number): string[] {
  const reached = report.failing.filter((f) => f.reached).map((f) => ({ nodeid: f.nodeid, chain: f.chain }));
  return selectTests(report.clusters, reached, T);
}

const short = (text: string, width: number) => (text.length > width ? `…${text.slice(text.length - width + 1)}` : text);

export interface ThmScreenProps {
  view: ViewState;
  prompt?: Extract<Prompt, { kind: 'approve-tests' }>;
  width: number;
  height: number;
  /** The source of a test, for `v`. */
  sourceOf?: (nodeid: string) => Promise<string | undefined>;
}

function Progress({ view, width }: { view: ViewState; width: number }) {
  const { thm } = view;
  const seconds = thm.startedAt ? (Date.now() - thm.startedAt) / 1000 : 0;
  const label = thm.phase === 'original' ? 'checking the failing tests on the original code' : thm.phase === 'blank' ? 'running undecided tests blank' : 'running the suite against the unimplemented target';
  return (
    <Box flexDirection="column">
      <Text>Test Harness Mechanism: {label}</Text>
      <Box>
        <ProgressBar done={thm.done} total={thm.total} width={Math.max(10, Math.min(40, width - 50))} />
        <Text>
          {' '}
          {thm.done}/{thm.total || '?'} tests · {thm.failing} failing · {seconds.toFixed(1)} s · {seconds > 0 ? (thm.done / seconds).toFixed(0) : 0} tests/s
        </Text>
      </Box>
    </Box>
  );
}

/**
 * THM: a progress bar while the suite runs; then the clusters by direct caller, each expandable to
 * its tests and their call chains, the proposal marked, and keys to change it before approving.
 */
export function ThmScreen({ view, prompt, width, height, sourceOf }: ThmScreenProps) {
  const report = prompt?.report ?? view.thm.report;
  const [cursor, setCursor] = useState(0);
  const [expanded, setExpanded] = useState<Set<number>>(() => new Set([0]));
  const [budget, setT] = useState<number | undefined>(undefined);
  const T = budget ?? report?.T ?? 3;
  const [chosen, setChosen] = useState<string[] | undefined>(undefined);
  const [source, setSource] = useState<{ nodeid: string; text: string } | undefined>(undefined);
  const selection = chosen ?? report?.selected ?? [];
  const rows = useMemo(() => (report ? pickerRows(report, expanded) : []), [report, expanded]);
  const byId = useMemo(() => new Map<string, ThmFailingTest>((report?.failing ?? []).map((f) => [f.nodeid, f])), [report]);

  useInput(
    (input, key) => {
      if (!report || !prompt) return;
      if (source) {
        if (key.escape || input === 'v' || input === 'q') setSource(undefined);
        return;
      }
      const row = rows[cursor];
      if (key.upArrow) setCursor((c) => Math.max(0, c - 1));
      else if (key.downArrow) setCursor((c) => Math.min(rows.length - 1, c + 1));
      else if (key.rightArrow && row?.kind === 'cluster') setExpanded((e) => new Set(e).add(row.index));
      else if (key.leftArrow && row) {
        const index = row.kind === 'cluster' ? row.index : row.kind === 'test' ? row.cluster : null;
        if (index !== null && index !== undefined) {
          setExpanded((e) => {
            const next = new Set(e);
            next.delete(index);
            return next;
          });
          setCursor(rows.findIndex((r) => r.kind === 'cluster' && r.index === index));
        }
      } else if (input === ' ' && row) {
        const nodeid = row.kind === 'test' ? row.nodeid : row.kind === 'cluster' ? report.clusters[row.index]!.representative : undefined;
        if (nodeid) {
          setChosen((previous) => {
            const current = previous ?? report.selected;
            return current.includes(nodeid) ? current.filter((n) => n !== nodeid) : [...current, nodeid];
          });
        }
      } else if (input === '+' || input === '-') {
        const next = Math.max(1, T + (input === '+' ? 1 : -1));
        setT(next);
        setChosen(propose(report, next));
      } else if (input === 'v' && row && sourceOf) {
        const nodeid = row.kind === 'test' ? row.nodeid : row.kind === 'cluster' ? report.clusters[row.index]!.representative : undefined;
        if (nodeid) void sourceOf(nodeid).then((text) => setSource({ nodeid, text: text ?? '(source not found)' }));
      } else if (key.return) {
        if (selection.length) prompt.resolve({ chosen: selection, by: 'human' });
      } else if (input === 'a') {
        prompt.resolve({ chosen: report.selected, by: 'human' });
      }
    },
    { isActive: !!prompt },
  );

  if (!report) return <Progress view={view} width={width} />;
  if (source) {
    return (
      <Box flexDirection="column" borderStyle="round" paddingX={1}>
        <Text bold>{source.nodeid}</Text>
        <Text>{source.text.split('\n').slice(0, Math.max(5, height - 6)).join('\n')}</Text>
        <Text dimColor>Esc or v to close</Text>
      </Box>
    );
  }
  const c = report.counts;
  // A window of rows around the cursor, for small terminals.
  const room = Math.max(4, height - 9);
  const first = Math.max(0, Math.min(cursor - Math.floor(room / 2), rows.length - room));
  const visible = rows.slice(first, first + room);
  const current = rows[cursor];
  // What is left of a tall terminal shows how the highlighted test fails.
  const failureLines = height - 13 - visible.length;
  const chainOf = current?.kind === 'test' ? byId.get(current.nodeid) : current?.kind === 'cluster' ? byId.get(report.clusters[current.index]!.representative) : undefined;
  return (
    <Box flexDirection="column">
      <Text>
        <Text bold>THM</Text> {c.collected} tests · {c.passed} passed · <Text color="red">{c.failing} failing</Text>
        {c.unreached ? ` (${c.unreached} unreached)` : ''}
        {report.mode === 'blank' ? ` · ${c.alreadyFailing} already failing on the original` : ''} · {report.clusters.length} clusters · {(report.durationMs / 1000).toFixed(1)} s
      </Text>
      <Text>
        Selected {selection.length} (T={T}){chosen && chosen.join() !== report.selected.join() ? <Text color="yellow"> · changed from the proposal</Text> : ''}
      </Text>
      <Box flexDirection="column" marginTop={1}>
        {visible.map((row, i) => {
          const at = first + i === cursor;
          const pointer = at ? '❯ ' : '  ';
          if (row.kind === 'heading') return <Text key={`h${i}`} dimColor>{`  ${row.text}`}</Text>;
          if (row.kind === 'cluster') {
            const cluster = report.clusters[row.index]!;
            const open = expanded.has(row.index);
            return (
              <Text key={`c${row.index}`} inverse={at}>
                {pointer}
                {open ? '▾' : '▸'} {short(cluster.caller, width - 40)} <Text dimColor>· {cluster.tests.length} test{cluster.tests.length === 1 ? '' : 's'} · depth {cluster.depth}</Text>
                {cluster.tests.some((t) => selection.includes(t)) ? <Text color="yellow"> ★</Text> : ''}
              </Text>
            );
          }
          const test = byId.get(row.nodeid);
          const mark = selection.includes(row.nodeid) ? '★' : ' ';
          return (
            <Text key={`t${row.nodeid}`} inverse={at}>
              {pointer}
              {'    '}
              <Text color="yellow">{mark}</Text> {short(row.nodeid, width - 24)} <Text dimColor>{test?.reached ? `depth ${test.depth}` : 'not reached'}</Text>
            </Text>
          );
        })}
      </Box>
      {chainOf?.reached ? (
        <Box marginTop={1} flexDirection="column">
          <Text dimColor>chain of {short(chainOf.nodeid, width - 12)}:</Text>
          <Text>{short(chainOf.chain.join(' → '), Math.max(20, (width - 2) * 2))}</Text>
        </Box>
      ) : null}
      {chainOf && failureLines > 0 ? <FailureExcerpt test={chainOf} lines={failureLines} width={width} /> : null}
      <Box marginTop={1}>
        <Text dimColor>{prompt ? keyHint('thm') : 'approved'}</Text>
      </Box>
    </Box>
  );
}

/** The end of a failing test's report (where pytest puts the error), to judge it without leaving the screen. */
function FailureExcerpt({ test, lines, width }: { test: ThmFailingTest; lines: number; width: number }) {
  const report = (test.longrepr || test.message).trimEnd().split('\n');
  return (
    <Box marginTop={1} flexDirection="column">
      <Text dimColor>how it fails ({test.outcome}{test.timedOut ? ', timed out' : test.crashed ? ', crashed' : ''}):</Text>
      {report.slice(-lines).map((line, i) => (
        <Text key={i} wrap="truncate" color={/^E\s/.test(line) ? 'red' : undefined}>
          {line.slice(0, width) || ' '}
        </Text>
      ))}
    </Box>
  );
}
