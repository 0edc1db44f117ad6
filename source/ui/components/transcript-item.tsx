import { TEST_RUNS } from '../../engine/phrase-book';
import type { TranscriptItem } from '../view-state';
import { Lines } from './line-view';
import { cap, hardWrap, shortEnd, wrapText, type Line, type Seg } from './lines';
import { gridLines } from './test-grid';

/**
 * How much of an item shows: `collapsed` in the transcript, `expanded` for the latest one after
 * `e`, `full` in the viewer (`o`), where long lines are wrapped rather than cut.
 */
export type ItemMode = 'collapsed' | 'expanded' | 'full';

const LIMITS: Record<Exclude<ItemMode, 'full'>, { model: number; result: number; diff: number }> = {
  collapsed: { model: 12, result: 4, diff: 6 },
  expanded: { model: 200, result: 400, diff: 400 },
};

/** The rows of a block of text, indented, each cut (or, in full, wrapped) to the width, at most `limit`. */
function block(text: string, width: number, mode: ItemMode, limit: number, style: (row: string) => Omit<Seg, 'text'> = () => ({}), indent = ''): Line[] {
  const inner = Math.max(10, width - indent.length);
  const rows = text.replace(/\s+$/, '').split('\n');
  const fitted = mode === 'full' ? rows.flatMap((row) => hardWrap(row, inner)) : rows.map((row) => shortEnd(row, inner));
  const lines = fitted.map((row): Line => ({ ...style(row), text: `${indent}${row}` }));
  return mode === 'full' ? lines : cap(lines, limit + 1, (n) => ({ text: `${indent}… ${n} more lines (${mode === 'collapsed' ? 'e expands, ' : ''}o opens any output)`, dim: true }));
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

const diffStyle = (row: string) => ({ color: row.startsWith('+') ? 'green' : row.startsWith('-') ? 'red' : undefined });

/** An item as rows: what the transcript, the live region and the viewer draw. */
export function itemLines(item: TranscriptItem, width: number, mode: ItemMode = 'collapsed'): Line[] {
  const limits = mode === 'full' ? LIMITS.expanded : LIMITS[mode];
  switch (item.kind) {
    case 'phase':
      return [{ text: '' }, { text: `── ${item.text}`, bold: true, color: 'cyan' }];
    case 'model':
      return [[{ text: 'model', color: 'magenta' }, { text: ` (${item.tokensIn} in / ${item.tokensOut} out)`, dim: true }], ...block(item.text, width, mode, limits.model)];
    case 'tool': {
      const args = argumentsText(item.args);
      const mark = item.edited ? ' ✎ your arguments' : '';
      const head: Line = [{ text: `→ ${item.name}`, color: 'blue' }, ...(mark ? [{ text: mark, color: 'green' }] : []), { text: ` ${mode === 'full' ? '' : shortEnd(args, Math.max(10, width - item.name.length - mark.length - 3))}`, dim: true }];
      const asked = item.edited && mode === 'full' ? [{ text: '  the model asked for:', dim: true }, ...block(argumentsText(item.edited.original), width, mode, 0, () => ({ dim: true }), '    ')] : [];
      const full = mode === 'full' ? [...block(args, width, mode, 0, () => ({ dim: true }), '  '), ...asked] : [];
      const result = item.result ? block(item.result.text, width, mode, limits.result, () => ({ color: item.result!.ok ? undefined : 'red' }), '  ') : [{ text: '  running…', dim: true }];
      return [head, ...full, ...result];
    }
    case 'tests': {
      const label = TEST_RUNS[item.purpose];
      const head: Line = [{ text: label, bold: true }, { text: ': ' }, { text: `${item.passed}/${item.total} passed`, color: item.passed === item.total ? 'green' : 'red' }];
      if (item.purpose === 'evaluate' && mode !== 'full') return [head];
      return [head, ...gridLines(item.outcomes, width - 2).map((line): Line => [{ text: '  ' }, ...(Array.isArray(line) ? line : [line])])];
    }
    case 'revision':
      return [
        [{ text: `✎ ${item.side === 'tests' ? 'tests' : 'code'} revised`, color: 'yellow' }, { text: ` (${item.iteration ? `test run ${item.iteration}` : 'written first'} · +${item.added} −${item.removed})`, dim: true }],
        ...block(item.diff, width, mode, limits.diff, diffStyle, '  '),
      ];
    case 'note': {
      const color = item.tone === 'warning' ? 'yellow' : item.tone === 'human' ? 'green' : undefined;
      return wrapText(`${item.tone === 'human' ? '👤 ' : '• '}${item.text}`, width - 1).map((text) => ({ text, color }));
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
      return `→ ${item.name}${item.edited ? ' ✎' : ''} ${argumentsText(item.args)}${item.result ? ` (${item.result.text.split('\n').length} lines${item.result.ok ? '' : ', failed'})` : ''}`;
    case 'tests':
      return `${TEST_RUNS[item.purpose]}: ${item.passed}/${item.total} passed`;
    case 'revision':
      return `✎ ${item.side} revised (${item.iteration ? `test run ${item.iteration}` : 'written first'} · +${item.added} −${item.removed})`;
    case 'note':
      return item.text;
  }
}

/**
 * One entry of the agent's transcript (finished, or the latest). With `maxLines` it is cut to fit
 * the live region, its last row saying how much more there is.
 */
export function TranscriptItemView({ item, width, expanded = false, maxLines }: { item: TranscriptItem; width: number; expanded?: boolean; maxLines?: number }) {
  const lines = itemLines(item, width, expanded ? 'expanded' : 'collapsed');
  return <Lines lines={maxLines === undefined ? lines : capItem(lines, maxLines)} />;
}

/** An item's rows cut to `max`, saying where the rest is. */
export function capItem(lines: Line[], max: number): Line[] {
  return cap(lines, max, (n) => ({ text: `  … ${n} more lines (o opens it in full)`, dim: true }));
}
