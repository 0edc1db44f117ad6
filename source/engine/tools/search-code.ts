import * as z from 'zod';
import { isTestPath, type RepoIndex } from '../index/repo-index';
import type { FileIndex } from '../index/types';
import { resolveFile } from './files';
import { numbered, renderHits, type Hit } from './format';
import { plural } from '../util/plural';
import { defineTool } from './tool';

const CONTEXT = 3;

function lineOf(text: string, index: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < index; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

function enclosing(file: FileIndex, line: number) {
  let best: FileIndex['functions'][number] | undefined;
  for (const fn of file.functions)
    if (fn.start <= line && line <= fn.end && (!best || fn.start >= best.start)) best = fn;
  let klass: FileIndex['classes'][number] | undefined;
  for (const c of file.classes) if (c.start <= line && line <= c.end && (!klass || c.start >= klass.start)) klass = c;
  return { functionName: best?.name ?? null, className: best ? best.className : (klass?.qualname ?? null) };
}

/** Every occurrence of `code` (a line or several) in the given files, as hits with context. */
function findCode(index: RepoIndex, code: string, files: FileIndex[]): Hit[] {
  const hits: Hit[] = [];
  const needle = code.replace(/\r\n/g, '\n');
  const span = needle.split('\n').length - 1;
  for (const file of files) {
    const text = index.text(file.path);
    let at = text.indexOf(needle);
    if (at === -1) continue;
    const lines = index.lines(file.path);
    let lastLine = 0;
    for (; at !== -1; at = text.indexOf(needle, at + Math.max(1, needle.length))) {
      const line = lineOf(text, at);
      if (line === lastLine) continue; // one snippet per line, however many matches it holds
      lastLine = line;
      const from = Math.max(1, line - CONTEXT);
      const to = Math.min(lines.length, line + span + CONTEXT);
      hits.push({
        file: file.path,
        line,
        ...enclosing(file, line),
        code: numbered(lines.slice(from - 1, to), from),
        ...(isTestPath(file.path) ? { note: 'test file' } : {}),
      });
    }
  }
  return hits;
}

/** More hits than this in one file are listed by enclosing method or class instead of shown. */
const SHOW_IN_FILE = 10;

/**
 * Many hits in one file, as AutoCodeRover collapses them: the methods and classes they are in, each
 * with its hit lines, in file order, so the model can open the one it wants with a line number.
 */
export function hitsByEnclosing(found: string, hits: readonly Hit[]): string {
  const groups = new Map<string, { where: string; lines: number[] }>();
  for (const hit of hits) {
    const parts = [
      hit.className ? `<class>${hit.className}</class>` : '',
      hit.functionName ? `<func>${hit.functionName}</func>` : '',
    ].filter(Boolean);
    const where = parts.join(' ') || 'module level';
    const group = groups.get(where) ?? { where, lines: [] };
    group.lines.push(hit.line!);
    groups.set(where, group);
  }
  const rows = [...groups.values()].map(
    ({ where, lines }) => `- ${where}: ${lines.length === 1 ? 'line' : 'lines'} ${lines.join(', ')}`,
  );
  return `${found}, too many to show. They are in these methods and classes:\n${rows.join('\n')}\nShow the code around a line with get_code_around_line, or search for a longer snippet.`;
}

const ordered = (files: FileIndex[]) =>
  [...files].sort((a, b) => Number(isTestPath(a.path)) - Number(isTestPath(b.path)) || (a.path < b.path ? -1 : 1));

export const searchCode = defineTool({
  name: 'search_code',
  description: 'Find a code snippet (exact text, e.g. a call or an expression) in every Python file of the repository.',
  schema: z.object({ code_str: z.string().min(1).describe('The exact code text to look for') }),
  run({ code_str }, { index }) {
    const hits = findCode(index, code_str, ordered(index.files));
    if (!hits.length) return `Could not find code ${code_str} in the codebase.`;
    return renderHits(`Found ${plural(hits.length, 'snippet')} containing \`${code_str}\` in the codebase:`, hits);
  },
});

export const searchCodeInFile = defineTool({
  name: 'search_code_in_file',
  description: 'Find a code snippet (exact text) in one file.',
  schema: z.object({
    code_str: z.string().min(1).describe('The exact code text to look for'),
    file_name: z.string().min(1).describe('Path of the file, relative to the repository root'),
  }),
  run({ code_str, file_name }, { index }) {
    const path = resolveFile(index, file_name);
    const hits = findCode(index, code_str, [index.file(path)!]);
    if (!hits.length) return `Could not find code ${code_str} in file ${path}.`;
    const found = `Found ${plural(hits.length, 'snippet')} containing \`${code_str}\` in file ${path}`;
    return hits.length > SHOW_IN_FILE ? hitsByEnclosing(found, hits) : renderHits(`${found}:`, hits, SHOW_IN_FILE);
  },
});
