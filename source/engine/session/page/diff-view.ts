import type { SubmissionDiff } from '../page-diffs';
import { append, clean, h, textBlock } from './dom';

// Diffs as a reader wants them: old and new line numbers, additions green, removals red. Hunks
// come precomputed for submissions (engine/session/page-diffs.ts); the final patch is parsed from
// its unified-diff text.

export type Hunk = SubmissionDiff['hunks'][number];

const SIGN_CLASS = { '+': 'add', '-': 'del', ' ': 'ctx' } as const;

function hunkRows(hunk: Hunk): HTMLElement[] {
  const rows: HTMLElement[] = [];
  let oldLine = hunk.oldStart;
  let newLine = hunk.newStart;
  for (const raw of hunk.lines) {
    const sign = raw[0] === '+' || raw[0] === '-' ? raw[0] : ' ';
    const text = raw.slice(1);
    const oldNo = sign === '+' ? '' : oldLine++;
    const newNo = sign === '-' ? '' : newLine++;
    rows.push(
      h(
        'div',
        { class: `dl ${SIGN_CLASS[sign]}` },
        h('span', { class: 'ln' }, oldNo),
        h('span', { class: 'ln' }, newNo),
        h('span', { class: 'sign' }, sign === ' ' ? '' : sign),
        h('span', { class: 'src' }, clean(text)),
      ),
    );
  }
  return rows;
}

/** Hunks `{oldStart, oldLines, newStart, newLines, lines}` as one table, each under its `@@` header when asked. */
export function diffView(hunks: readonly Hunk[], headers = hunks.length > 1): HTMLElement {
  const box = h('div', { class: 'diff' });
  if (!hunks.length) return append(box, [h('div', { class: 'dl none' }, 'No change.')]);
  for (const hunk of hunks) {
    if (headers)
      box.append(
        h('div', { class: 'dl hunk' }, `@@ -${hunk.oldStart},${hunk.oldLines} +${hunk.newStart},${hunk.newLines} @@`),
      );
    append(box, hunkRows(hunk));
  }
  return box;
}

interface PatchFile {
  file: string;
  hunks: Hunk[];
}

/** A unified diff (possibly of several files) as `{file, hunks}` sections; unparsable text stays raw. */
function parsePatch(text: string): PatchFile[] {
  const files: PatchFile[] = [];
  let file: PatchFile | null = null;
  let hunk: Hunk | null = null;
  let oldLeft = 0;
  let newLeft = 0;
  for (const line of String(text).split('\n')) {
    if (hunk && (oldLeft > 0 || newLeft > 0)) {
      // Inside a hunk its header's counts say where it ends; a blank line is context whose
      // leading space an editor stripped.
      const sign = line === '' ? ' ' : line[0];
      if (sign === '\\') continue;
      if (sign === '+') newLeft--;
      else if (sign === '-') oldLeft--;
      else if (sign === ' ') {
        oldLeft--;
        newLeft--;
      } else hunk = null;
      if (hunk) {
        hunk.lines.push(line === '' ? ' ' : line);
        continue;
      }
    }
    const header = /^@@ -(\d+)(?:,(\d+))? \+(\d+)(?:,(\d+))? @@/.exec(line);
    if (line.startsWith('--- ')) {
      file = { file: line.slice(4).replace(/^a\//, ''), hunks: [] };
      files.push(file);
    } else if (line.startsWith('+++ ') && file) {
      const name = line.slice(4).replace(/^b\//, '');
      if (name !== '/dev/null') file.file = name;
    } else if (header) {
      if (!file) files.push((file = { file: '', hunks: [] }));
      hunk = {
        oldStart: +header[1]!,
        oldLines: +(header[2] ?? 1),
        newStart: +header[3]!,
        newLines: +(header[4] ?? 1),
        lines: [],
      };
      oldLeft = hunk.oldLines;
      newLeft = hunk.newLines;
      file.hunks.push(hunk);
    }
  }
  return files;
}

export function patchView(text: string): HTMLElement {
  const files = parsePatch(text);
  if (!files.length) return textBlock(text, 'output');
  return h(
    'div',
    { class: 'patch' },
    files.map((f) =>
      h('div', { class: 'patch-file' }, h('div', { class: 'patch-name' }, clean(f.file)), diffView(f.hunks, true)),
    ),
  );
}

export function diffCounts(added: number, removed: number): HTMLElement {
  return h(
    'span',
    { class: 'counts' },
    h('span', { class: 'plus' }, `+${added}`),
    ' ',
    h('span', { class: 'minus' }, `−${removed}`),
  );
}
