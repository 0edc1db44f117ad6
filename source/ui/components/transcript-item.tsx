import { TEST_RUNS } from '../../engine/phrase-book';
import { printableValue } from '../../engine/terminal-text';
import type { TranscriptItem } from '../view/types';
import { Lines } from './line-view';
import { cap, shortEnd, wrapCode, wrapText, type Line, type Seg } from './lines';
import { gridLines } from './test-grid';
import { expandTabs } from './line-editor';
import { plural } from '../../engine/util/plural';
import { codeEdit, editDiffLines } from './code-arguments';

/**
 * How much of an item shows: `collapsed` in the transcript, `expanded` for the latest one after
 * `e`, `full` in the viewer (`o`), where long lines are wrapped rather than cut. The model's text
 * and the submissions' diffs are whole in every mode (they are what the developer reads); tool
 * output is cut short in the transcript, with the key that shows the rest.
 */
export type ItemMode = 'collapsed' | 'expanded' | 'full';

const RESULT_LIMITS: Record<Exclude<ItemMode, 'full'>, number> = { collapsed: 4, expanded: 400 };

/**
 * The rows of a block of text, indented, each cut (or, in full, wrapped) to the width, at most `limit`.
 * `words`: its lines are word-wrapped, not cut, and `limit` counts its lines, not rows: a failed
 * call's message says what was wrong to its end (an unknown tool's list of tools, submit_* last).
 */
function block(
  text: string,
  width: number,
  mode: ItemMode,
  limit: number,
  style: (row: string) => Omit<Seg, 'text'> = () => ({}),
  indent = '',
  words = false,
): Line[] {
  const inner = Math.max(10, width - indent.length);
  const rows = expandTabs(text.replace(/\s+$/, '')).split('\n');
  if (words && mode !== 'full') {
    const wrapped = rows.map((row) => wrapText(row, inner));
    const shown = wrapped.slice(0, rows.length <= limit + 1 ? rows.length : limit).flat();
    const lines = shown.map((row): Line => ({ ...style(row), text: `${indent}${row}` }));
    return rows.length <= limit + 1 ? lines : [...lines, more(indent, mode, rows.length - limit)];
  }
  const fitted =
    mode === 'full' ? rows.flatMap((row) => wrapCode(row, inner)) : rows.map((row) => shortEnd(row, inner));
  const lines = fitted.map((row): Line => ({ ...style(row), text: `${indent}${row}` }));
  return mode === 'full' ? lines : cap(lines, limit + 1, (n) => more(indent, mode, n));
}

const more = (indent: string, mode: ItemMode, n: number): Line => ({
  text: `${indent}… ${plural(n, 'more line')} (${mode === 'collapsed' ? 'e expands, ' : ''}o opens any output)`,
  dim: true,
});

/** Prose (the model's explanations): word-wrapped, every paragraph whole. */
const prose = (text: string, width: number): Line[] =>
  wrapText(expandTabs(text.trim()), Math.max(10, width)).map((text) => ({ text }));

function parsedArguments(args: string): Record<string, unknown> | undefined {
  try {
    // Decoded, `\u001b` in the JSON is an escape again: the values are made printable once more.
    const value = printableValue(JSON.parse(args) as unknown);
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}

/** The arguments on one line: a string of several lines (code) by its size; the viewer shows it whole. */
export function argumentsText(args: string): string {
  const value = parsedArguments(args);
  if (!value) return args;
  return Object.entries(value)
    .map(
      ([k, v]) =>
        `${k}=${typeof v === 'string' ? (v.includes('\n') ? `(${plural(v.replace(/\n$/, '').split('\n').length, 'line')})` : v) : JSON.stringify(v)}`,
    )
    .join(' ');
}

/** Every argument in full (the viewer): `key=value`, or `key:` and its lines under it. */
function argumentLines(args: string, width: number): Line[] {
  const value = parsedArguments(args);
  if (!value) return block(args || '(no arguments)', width, 'full', 0, () => ({ dim: true }), '  ');
  const entries = Object.entries(value);
  if (!entries.length) return [{ text: '  (no arguments)', dim: true }];
  return entries.flatMap(([key, v]): Line[] => {
    const text = typeof v === 'string' ? v : JSON.stringify(v, null, 2);
    if (!text.includes('\n')) return block(`${key}=${text}`, width, 'full', 0, () => ({ dim: true }), '  ');
    return [{ text: `  ${key}:`, dim: true }, ...block(text, width, 'full', 0, () => ({}), '    ')];
  });
}

/** A submission's diff, every line (long ones wrapped), the changed ones coloured. */
const diffRows = (diff: string, width: number): Line[] => editDiffLines(diff, width);

/** The title of a revision: which submission, against what, how much changed. */
export function revisionTitle(item: Extract<TranscriptItem, { kind: 'revision' }>): string {
  const what = item.side === 'tests' ? `tests, version ${item.number}` : `submission ${item.number}`;
  const when =
    item.iteration === undefined ? '' : `${item.iteration ? `test run ${item.iteration}` : 'written first'} · `;
  return `✎ ${what} (${when}against ${item.against} · +${item.added} −${item.removed}${item.ok ? '' : ' · rejected'})`;
}

/**
 * An item as rows: what the transcript, the live region and the viewer draw. `pending`: what a tool
 * call without its result yet is doing (it runs; or a step pause holds it).
 */
export function itemLines(
  item: TranscriptItem,
  width: number,
  mode: ItemMode = 'collapsed',
  pending = 'running…',
): Line[] {
  const resultLimit = mode === 'full' ? Infinity : RESULT_LIMITS[mode];
  switch (item.kind) {
    case 'phase':
      return [{ text: '' }, { text: `── ${item.text}`, bold: true, color: 'cyan' }];
    case 'model':
      return [
        [
          { text: 'model', color: 'magenta' },
          { text: ` (${item.tokensIn} in / ${item.tokensOut} out)`, dim: true },
        ],
        ...prose(item.text, width),
      ];
    case 'tool': {
      const args = argumentsText(item.args);
      const mark = item.edited ? ' ✎ your arguments' : '';
      const head: Line = [
        { text: `→ ${item.name}`, color: 'blue' },
        ...(mark ? [{ text: mark, color: 'green' }] : []),
        {
          text: ` ${mode === 'full' ? '' : shortEnd(args, Math.max(10, width - item.name.length - mark.length - 3))}`,
          dim: true,
        },
      ];
      const asked =
        item.edited && mode === 'full'
          ? [{ text: '  the model asked for:', dim: true }, ...argumentLines(item.edited.original, width)]
          : [];
      const full = mode === 'full' ? [...argumentLines(item.args, width), ...asked] : [];
      // The developer's edit of the code (a submission): what they changed of the model's, in every mode.
      const edit = item.edited && codeEdit(item.edited.original, item.args);
      const changed: Line[] = edit
        ? [
            { text: `  ✎ you changed the model's code (+${edit.added} −${edit.removed}):`, color: 'green' },
            ...editDiffLines(edit.diff, width, '    '),
          ]
        : [];
      const result = item.result
        ? block(
            item.result.text,
            width,
            mode,
            resultLimit,
            () => ({ color: item.result!.ok ? undefined : 'red' }),
            '  ',
            !item.result.ok,
          )
        : [{ text: `  ${pending}`, dim: true }];
      return [head, ...full, ...changed, ...result];
    }
    case 'tests': {
      const label = TEST_RUNS[item.purpose];
      const head: Line = [
        { text: label, bold: true },
        { text: ': ' },
        { text: `${item.passed}/${item.total} passed`, color: item.passed === item.total ? 'green' : 'red' },
      ];
      if (item.purpose === 'evaluate' && mode !== 'full') return [head];
      return [
        head,
        ...gridLines(item.outcomes, width - 2).map(
          (line): Line => [{ text: '  ' }, ...(Array.isArray(line) ? line : [line])],
        ),
      ];
    }
    case 'revision':
      return [{ text: revisionTitle(item), color: item.ok ? 'yellow' : 'red' }, ...diffRows(item.diff, width)];
    case 'note': {
      const color = item.tone === 'warning' ? 'yellow' : item.tone === 'human' ? 'green' : undefined;
      return wrapText(`${item.tone === 'human' ? '👤 ' : '• '}${item.text}`, width - 1).map((text) => ({
        text,
        color,
      }));
    }
  }
}

/** A one-line summary of an item, for the list of earlier outputs. */
export function itemTitle(item: TranscriptItem): string {
  switch (item.kind) {
    case 'phase':
      return `── ${item.text}`;
    case 'model':
      return `model: ${item.text.trim().split('\n')[0]}`;
    case 'tool':
      return `→ ${item.name}${item.edited ? ' ✎' : ''} ${argumentsText(item.args)}${item.result ? ` (${plural(item.result.text.split('\n').length, 'line')}${item.result.ok ? '' : ', failed'})` : ''}`;
    case 'tests':
      return `${TEST_RUNS[item.purpose]}: ${item.passed}/${item.total} passed`;
    case 'revision':
      return revisionTitle(item);
    case 'note':
      return item.text;
  }
}

/**
 * One entry of the agent's transcript (finished, or the latest). With `maxLines` it is cut to fit
 * the live region, its last row saying how much more there is.
 */
export function TranscriptItemView({
  item,
  width,
  expanded = false,
  maxLines,
}: {
  item: TranscriptItem;
  width: number;
  expanded?: boolean;
  maxLines?: number;
}) {
  const lines = itemLines(item, width, expanded ? 'expanded' : 'collapsed');
  return <Lines lines={maxLines === undefined ? lines : capItem(lines, maxLines)} />;
}

/** An item's rows cut to `max`, saying where the rest is. */
export function capItem(lines: Line[], max: number): Line[] {
  return cap(lines, max, (n) => ({ text: `  … ${plural(n, 'more line')} (o opens it in full)`, dim: true }));
}
