import { Box, Text } from 'ink';
import { useEffect, useMemo, useRef, useState } from 'react';
import { failingWords, otherFailureWords, THM_PHASES } from '../../engine/phrase-book';
import { alreadyFailingTests, failingTestCounts, type ThmFailingTest } from '../../engine/protocol/thm-report';
import { Lines, DimRows } from '../components/line-view';
import {
  allocate,
  cap,
  wrapCode,
  shortMiddle,
  shortStart,
  windowStart,
  wrapText,
  type Line,
} from '../components/lines';
import { ProgressBar } from '../components/progress-bar';
import { ScrollView } from '../components/scroll-view';
import { useNow } from '../components/use-now';
import type { Prompt, WritingOutcome } from '../controller';
import { hintRows, QUIT_LIVE_HINT } from '../keys';
import { propose, type ViewState } from '../view-state';
import { useKeys } from '../components/use-keys';
import { FieldText, useLineEditor } from '../components/text-field';
import { pickerRows, picksText, rowPosition, selectionOf } from './thm-picker';
import { chainLines, failureLines, importNote, otherLines } from './thm-detail-lines';
import { budgetOf, initialReview, openClusters, reviewKey, type ReviewState } from './thm-review';
import { plural } from '../../engine/util/plural';

export { pickerRows } from './thm-picker';

export { propose };

export interface ThmScreenProps {
  view: ViewState;
  prompt?: Extract<Prompt, { kind: 'approve-tests' }>;
  width: number;
  /** Rows the screen may use (the caller has taken its own lines off). */
  height: number;
  /** The source of a test, for `v`. */
  sourceOf?: (nodeid: string) => Promise<string | undefined>;
  /** `recorded`: a replay, timed by the recording's clock; `wall` (live): a clock that ticks each second. */
  clock?: 'wall' | 'recorded';
  /** `n` and `e`: the developer writes tests in their editor (absent: the keys do nothing). */
  writeTests?: TestWriter;
  /** The filter field took the keys, or gave them back: while it has them, `?` is text, not the help. */
  onTyping?(typing: boolean): void;
}

/** What the review's `n` and `e` do: open the developer's editor, then run their tests as THM runs the suite. */
export interface TestWriter {
  newTest(): Promise<WritingOutcome>;
  editTest(nodeid: string): Promise<WritingOutcome>;
}

/** What became of the developer's writing, in rows for the review. */
export function outcomeLines(outcome: WritingOutcome, width: number): Line[] {
  if ('problem' in outcome)
    return wrapText(`Could not open your editor: ${outcome.problem}`, width).map((text) => ({ text, color: 'red' }));
  if ('unchanged' in outcome) return [{ text: 'Nothing changed: no test to add.', dim: true }];
  const rows: Line[] = [
    ...outcome.accepted.map((t): Line => [{ text: '✎ joins ', color: 'green' }, { text: t.nodeid }]),
    ...outcome.rejected.flatMap((r) =>
      wrapText(`✗ kept out ${r.nodeid}: ${r.reason}`, width, 2).map((text): Line => ({ text, color: 'red' })),
    ),
    ...(outcome.kept
      ? wrapText(
          `  your text is kept: ${outcome.kept.key === 'n' ? 'n' : 'e on one of its tests'} opens it again, to fix it`,
          width,
        ).map((text): Line => ({ text, color: 'yellow' }))
      : []),
    ...outcome.removed.map((id): Line => ({ text: `− no longer fails: ${id}`, color: 'yellow' })),
  ];
  return rows.length ? rows : [{ text: 'Your file has no test that pytest collects.', dim: true }];
}

/** At most this many of the tests still running are named. */
const RUNNING_ROWS = 5;

function Progress({
  view,
  width,
  height,
  clock,
}: {
  view: ViewState;
  width: number;
  height: number;
  clock: 'wall' | 'recorded';
}) {
  const { thm, session } = view;
  const now = useNow(clock === 'wall');
  // Live, the clock runs from the run's start: the earliest of the session's start, THM's, and this
  // screen's (it opens before the workspace is made, and the session starts after). A large suite
  // collects for seconds without an event. The rate of tests counts from THM's start.
  const mounted = useRef(Date.now()).current;
  const end = clock === 'wall' ? now : view.at;
  const known = [view.clock.partStart, thm.startedAt].filter((t) => t > 0);
  const since = clock === 'wall' ? Math.min(mounted, ...known) : (known[0] ?? 0);
  const seconds = since ? Math.max(0, end - since) / 1000 : 0;
  const thmSeconds = thm.startedAt ? Math.max(0, end - thm.startedAt) / 1000 : 0;
  const label = thm.startedAt ? THM_PHASES[thm.phase ?? 'probe'] : 'preparing the workspace';
  const collecting = thm.collecting
    ? `collecting the tests: ${plural(thm.collecting.files, 'file')}, ${plural(thm.collecting.tests, 'test')} so far`
    : thm.startedAt
      ? 'collecting the tests'
      : 'starting';
  // Every test ran, none is left running: pytest ends the session (fixtures' teardown, the report).
  const finishing = thm.total > 0 && thm.done >= thm.total && !thm.running.length ? ' · pytest is finishing' : '';
  const counts = thm.total || thm.done ? `${thm.done}/${thm.total || '?'} tests · ${thm.failing} failing` : collecting;
  // The bar is (nearly) full and a few tests hold it: which, and for how long, longest first.
  const running = [...thm.running].sort((a, b) => a.since - b.since);
  const rows = Math.max(0, Math.min(RUNNING_ROWS, height - 4));
  const shown = cap(running, rows, (n) => ({ nodeid: `… ${n} more`, since: NaN }));
  // What THM runs on: the target and the repository (the repository's end: its own folder's name).
  const where = session
    ? `${session.target}${session.mode === 'blank' ? ' (benchmark mode)' : ''} in ${session.repo}`
    : '';
  return (
    <Box flexDirection="column">
      <Lines lines={warningLines(view, width)} />
      <Text wrap="truncate">
        <Text bold>Test Harness Mechanism</Text>
        {where ? ` · ${shortStart(where, Math.max(10, width - 25))}` : ''}
      </Text>
      <Text wrap="truncate">{label}</Text>
      <Text wrap="truncate">
        <ProgressBar done={thm.done} total={thm.total} width={Math.max(10, Math.min(40, width - 75))} /> {counts} ·{' '}
        {seconds.toFixed(1)} s{thm.done ? ` · ${thmSeconds > 0 ? (thm.done / thmSeconds).toFixed(0) : 0} tests/s` : ''}
        {finishing}
      </Text>
      {shown.length ? (
        <Text dimColor wrap="truncate">
          still running:
        </Text>
      ) : null}
      {shown.map(({ nodeid, since }) => {
        const took = Number.isNaN(since) ? '' : ` · ${Math.max(0, Math.floor((end - since) / 1000))} s`;
        return (
          <Text key={nodeid} wrap="truncate">
            {'  '}
            {shortMiddle(nodeid, Math.max(10, width - 2 - took.length))}
            <Text dimColor>{took}</Text>
          </Text>
        );
      })}
    </Box>
  );
}

/**
 * What the run warned of before THM's report (stub mode on a function with a real body), in
 * yellow above it, a few rows at most: it explains a review with nothing to propose.
 */
function warningLines(view: ViewState, width: number): Line[] {
  return cap(
    view.warnings.flatMap((warning) => wrapText(`! ${warning}`, width, 2)),
    4,
    () => '…',
  ).map((text) => ({ text, color: 'yellow' }));
}

/**
 * THM: a progress bar while the suite runs; then the clusters by direct caller, each expandable to
 * its tests and their call chains, the proposal marked, and keys to change it before approving.
 * Every part is measured against the rows there are: the summary and the selection stay on top.
 */
export function ThmScreen({
  view,
  prompt,
  width,
  height,
  sourceOf,
  clock = 'wall',
  writeTests,
  onTyping,
}: ThmScreenProps) {
  // The view's report has the developer's tests in it (tests.added), as they are written.
  const report = view.thm.report ?? prompt?.report;
  const developer = view.thm.developer?.accepted ?? [];
  const [busy, setBusy] = useState(false);
  const [written, setWritten] = useState<WritingOutcome | undefined>(undefined);
  // The review's state through reviewKey (thm-review.ts). Keys can come faster than frames: each
  // key acts on what the one before left, kept here at once, not on the last frame's state.
  const [review, setReviewState] = useState<ReviewState>(initialReview);
  const live = useRef<ReviewState>(review);
  const setReview = (next: ReviewState) => {
    live.current = next;
    setReviewState(next);
  };
  const { cursor, notice, picks } = review;
  const expanded = report ? openClusters(review, report) : new Set<string>();
  // THM's budget: null is `-T all` (the report's T then), never the default 3 in its place.
  const T: number | null = report ? budgetOf(review, report) : 3;
  const [source, setSource] = useState<{ nodeid: string; text: string } | undefined>(undefined);
  // `/`: the filter being typed (keys go to it), and what it holds.
  const [typing, setTyping] = useState(false);
  const [filter, setFilter] = useState('');
  const filterHasKeys = !!prompt && typing;
  useEffect(() => onTyping?.(filterHasKeys), [filterHasKeys, onTyping]);
  // The review going away (approved) gives the keys back with it.
  useEffect(() => () => onTyping?.(false), [onTyping]);
  // THM's proposal for the T on screen, with the developer's picks: a new T keeps them.
  const proposal = useMemo(() => (report ? propose(report, T) : []), [report, T]);
  // The developer's own tests join THM's proposal (they are in unless taken out by hand).
  const base = useMemo(() => [...new Set([...proposal, ...developer])], [proposal, developer]);
  const selection = selectionOf(base, picks);
  const rows = useMemo(() => (report ? pickerRows(report, expanded, filter) : []), [report, review.expanded, filter]);
  const byId = useMemo(
    () => new Map<string, ThmFailingTest>((report?.failing ?? []).map((f) => [f.nodeid, f])),
    [report],
  );
  // The rows the list shows at once (set when drawn): PgUp PgDn move by that much.
  const page = useRef(10);
  const filterField = useLineEditor({
    active: filterHasKeys,
    newlines: 'single',
    keep: true,
    onChange: (value) => {
      setFilter(value);
      setReview({ ...live.current, cursor: 0 });
    },
    onSubmit: () => setTyping(false),
    intercept: (_input, key, empty) => {
      if (!key.escape) return false;
      // Esc takes back the filter's text, then the filter.
      if (empty) setTyping(false);
      else filterField.clear();
      return true;
    },
  });

  useKeys(
    (input, key) => {
      if (!report || !prompt) return;
      if (source) {
        if (key.escape || input === 'v' || input === 'q') setSource(undefined);
        return;
      }
      const { state, effect } = reviewKey(live.current, input, key, {
        report,
        filter,
        developer,
        page: page.current,
        canWrite: !!writeTests,
        canShowSource: !!sourceOf,
      });
      setReview(state);
      if (!effect) return;
      if (effect.kind === 'filter') {
        setTyping(true);
        if (effect.text) filterField.type(effect.text);
      } else if (effect.kind === 'clear-filter') filterField.clear();
      else if (effect.kind === 'write' && writeTests) {
        setBusy(true);
        setWritten(undefined);
        void (effect.nodeid === undefined ? writeTests.newTest() : writeTests.editTest(effect.nodeid)).then(
          (outcome) => {
            setBusy(false);
            setWritten(outcome);
          },
        );
      } else if (effect.kind === 'source' && sourceOf)
        void sourceOf(effect.nodeid).then((text) =>
          setSource({ nodeid: effect.nodeid, text: text ?? '(source not found)' }),
        );
      else if (effect.kind === 'approve') prompt.resolve(effect.choice);
    },
    { isActive: !!prompt && !typing && !busy },
  );

  if (!report) return <Progress view={view} width={width} height={height} clock={clock} />;
  if (source) {
    const code = source.text
      .split('\n')
      .flatMap((line) => wrapCode(line, width - 4))
      .map((text) => ({ text }));
    return (
      <Box flexDirection="column" borderStyle="round" paddingX={1}>
        <ScrollView
          title={shortStart(source.nodeid, width - 4)}
          lines={code}
          height={Math.max(3, height - 2)}
          hint="Esc or v closes"
        />
      </Box>
    );
  }
  const c = report.counts;
  const shown = failingTestCounts(report);
  const byHand = picksText(proposal, picks);
  const written_: Line[] = busy
    ? [
        {
          text: `Your tests run on ${report.mode === 'blank' ? 'the blanked body' : 'the stub'}, as THM runs the suite…`,
          color: 'cyan',
        },
      ]
    : written
      ? cap(outcomeLines(written, width), 5, (n) => ({ text: `… ${n} more`, dim: true }))
      : [];
  const summary = wrapText(
    `THM ${plural(c.collected, 'test')} · ${c.passed} passed · ${failingWords(shown)}${report.otherFailures?.length ? ` · ${otherFailureWords(report)}` : ''}${report.mode === 'blank' ? ` · ${alreadyFailingTests(report).length} already failing on the original` : ''} · ${plural(report.clusters.length, 'cluster')} · ${(report.durationMs / 1000).toFixed(1)} s${importNote(report)}`,
    width,
  );
  // `n` and `e` where the developer can write tests (a live review with an editor); three rows of
  // keys when the terminal is tall enough for them to keep their long names, or for n and e.
  // Without a question: approved once the approval is recorded; before it (the report is in, the
  // review not yet open) nothing is approved, and the footer must not say so.
  const footer = prompt
    ? hintRows('thm', width, writeTests || height >= 30 ? 3 : 2, [QUIT_LIVE_HINT], writeTests ? [] : ['n', 'e'])
    : view.thm.approval
      ? ['approved']
      : ['the review opens…'];
  const current = rows[cursor];
  const chainOf =
    current?.kind === 'test'
      ? byId.get(current.nodeid)
      : current?.kind === 'cluster'
        ? byId.get(report.clusters[current.index]!.representative)
        : current?.kind === 'other'
          ? report.otherFailures?.find((f) => f.nodeid === current.nodeid)
          : undefined;
  const chain = !chainOf ? [] : 'reached' in chainOf ? chainLines(chainOf, width) : otherLines(chainOf, width);
  const failure = chainOf ? (chainOf.longrepr || chainOf.message).trimEnd().split('\n').length + 2 : 0;
  // summary, "Selected", a blank line, the rows and the position line; a blank line and the footer at the bottom.
  const status = prompt ? 1 : 0;
  const warned = warningLines(view, width);
  const room = height - warned.length - summary.length - 2 - status - written_.length - (1 + footer.length);
  // The list first (it is what the keys act on), then the chain of its highlighted test, then how it fails.
  const [listRows, chainRows, failureRows] = allocate(room, [
    { min: Math.min(3, rows.length), want: rows.length },
    { min: Math.min(3, chain.length), want: chain.length },
    { min: 4, want: failure },
  ]);
  const first = windowStart(cursor, rows.length, listRows!);
  const visible = rows.slice(first, first + listRows!);
  page.current = Math.max(1, listRows! - 1);
  const position = rowPosition(report, rows, cursor);
  const matching = rows.filter((r) => r.kind === 'test').length;
  const filterNote = filter ? `${plural(matching, 'test')} match${matching === 1 ? 'es' : ''}` : '';
  return (
    <Box flexDirection="column">
      <Lines lines={warned} />
      <Text wrap="truncate">
        <Text bold>{summary[0]!.slice(0, 3)}</Text>
        {summary[0]!.slice(3)}
      </Text>
      <Lines lines={summary.slice(1).map((text) => ({ text }))} />
      <Text wrap="truncate">
        Selected {selection.length} (T={T ?? 'all'})
        {byHand ? <Text color="yellow"> · changed from the proposal: {byHand} by you</Text> : ''}
        {developer.length ? <Text color="green"> · ✎ {developer.length} of yours</Text> : ''}
      </Text>
      <Lines lines={written_} />
      <Box flexDirection="column" marginTop={1}>
        {visible.map((row, i) => {
          const at = first + i === cursor;
          const pointer = at ? '❯ ' : '  ';
          if (row.kind === 'heading') return <Text key={`h${i}`} dimColor wrap="truncate">{`  ${row.text}`}</Text>;
          if (row.kind === 'other')
            return (
              <Text key={`o${row.nodeid}`} inverse={at} wrap="truncate">
                {pointer}
                {'      '}
                <Text dimColor>{shortMiddle(row.nodeid, Math.max(12, width - 30))} · another reason</Text>
              </Text>
            );
          if (row.kind === 'cluster') {
            const cluster = report.clusters[row.index]!;
            const next = rows[first + i + 1];
            const open = next?.kind === 'test' && next.cluster === row.index;
            const about = `· ${plural(cluster.tests.length, 'test')} · depth ${cluster.depth}`;
            return (
              <Text key={`c${row.index}`} inverse={at} wrap="truncate">
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
            <Text key={`t${row.nodeid}`} inverse={at} wrap="truncate">
              {pointer}
              {'    '}
              <Text color="yellow">{mark}</Text>{' '}
              {shortMiddle(row.nodeid, Math.max(12, width - about.length - 9 - mark.length))}{' '}
              <Text dimColor>{about}</Text>
            </Text>
          );
        })}
        {filter && !rows.length ? <Text dimColor> nothing matches the filter</Text> : null}
      </Box>
      {!status ? null : typing ? (
        <Text wrap="truncate">
          / <FieldText state={filterField.state} width={Math.max(10, width - 50)} />{' '}
          <Text dimColor>{filterNote || 'filter clusters and tests'} · Enter keeps it · Esc clears, then closes</Text>
        </Text>
      ) : notice ? (
        <Text color="yellow" wrap="truncate">
          {notice}
        </Text>
      ) : (
        <Text dimColor wrap="truncate">
          {[
            position,
            filter
              ? `filter "${filter}": ${filterNote} · / edits · Esc clears`
              : rows.length > listRows!
                ? 'PgUp PgDn Home End · / filters'
                : '',
          ]
            .filter(Boolean)
            .join(' · ') || ' '}
        </Text>
      )}
      <Lines lines={capChain(chain, chainRows!)} />
      {chainOf && failureRows ? <Lines lines={failureLines(chainOf, failureRows, width)} /> : null}
      <Box marginTop={1} flexDirection="column">
        <DimRows rows={footer} />
      </Box>
    </Box>
  );
}

/** The chain block cut to the rows it was given (its blank line and title first). */
const capChain = (chain: Line[], rows: number): Line[] =>
  rows >= chain.length ? chain : rows >= 3 ? [...chain.slice(0, rows - 1), { text: '…', dim: true }] : [];
