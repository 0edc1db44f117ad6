import { Box, Text } from 'ink';
import { useEffect, useMemo, useRef, useState } from 'react';
import { failingWords, otherFailureWords } from '../../engine/phrase-book';
import { alreadyFailingTests, failingTestCounts, type ThmFailingTest } from '../../engine/protocol/thm-report';
import { plural } from '../../engine/util/plural';
import { Lines, DimRows } from '../components/line-view';
import { allocate, cap, wrapCode, shortStart, windowStart, wrapText, type Line } from '../components/lines';
import { ScrollView } from '../components/scroll-view';
import { FieldOpening, FieldText, useLineEditor } from '../components/text-field';
import { useKeys } from '../components/use-keys';
import { hintRows, QUIT_LIVE_HINT } from '../keys';
import type { Prompt } from '../prompt';
import type { WritingOutcome } from '../test-drafts';
import { propose } from '../view-state';
import type { ViewState } from '../view/types';
import { capChain, chainLines, failureLines, importNote, otherLines, outcomeLines, warningLines } from './thm-lines';
import { pickerRows, picksText, rowPosition, selectionOf } from './thm-picker';
import { ThmProgress } from './thm-progress';
import { budgetOf, initialReview, openClusters, refiltered, reviewKey, type ReviewState } from './thm-review';
import { rowKey, ThmRow } from './thm-row';

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
  // The filter as the last key left it (keys come faster than frames), for the row the cursor keeps.
  const filterNow = useRef('');
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
  // `/` and the filter typed fast: what comes before the field listens is kept for it.
  const [filterOpening] = useState(() => new FieldOpening());
  const filterField = useLineEditor({
    active: filterHasKeys,
    opening: filterOpening,
    newlines: 'single',
    keep: true,
    onChange: (value) => {
      setReview(report ? refiltered(live.current, report, filterNow.current, value) : live.current);
      filterNow.current = value;
      setFilter(value);
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
      if (filterOpening.took(input, key)) return;
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
        filterOpening.open();
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

  if (!report) return <ThmProgress view={view} width={width} height={height} clock={clock} />;
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
  // The chain of the highlighted test is what the review is for: it gets its rows first (a few at
  // most), then the list (what the keys act on) the rest, then how the test fails. With the list
  // first, a long one (198 failing tests) left the chain its 3-row minimum: `chain of …:` and `…`.
  // The list keeps its few rows in a short terminal: the keys must see where they act.
  const listMin = Math.min(3, rows.length);
  const chainRoom = Math.max(0, room - listMin);
  const chainRows = chainRoom >= Math.min(3, chain.length) ? Math.min(chain.length, chainRoom) : 0;
  const [listRows, failureRows] = allocate(room - chainRows, [
    { min: listMin, want: rows.length },
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
          const next = rows[first + i + 1];
          return (
            <ThmRow
              key={rowKey(row, i)}
              row={row}
              at={first + i === cursor}
              open={row.kind === 'cluster' && next?.kind === 'test' && next.cluster === row.index}
              report={report}
              byId={byId}
              selection={selection}
              developer={developer}
              width={width}
            />
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
