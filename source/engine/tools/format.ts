/**
 * One result format for every search tool (after AutoCodeRover/SpecRover): each hit is a block
 * with its file, class and function and the code with line numbers; past a few hits the results
 * collapse to a list of files with their match counts, so the model never drowns in grep noise.
 */
const COLLAPSE_AFTER = 3;

export interface Hit {
  file: string;
  className?: string | null;
  functionName?: string | null;
  /** Code with line numbers already applied (see numbered()). */
  code: string;
  /** Marks hits in test files. */
  note?: string;
  /** The line the hit is on (code searches). */
  line?: number;
}

export function numbered(lines: readonly string[], firstLine: number): string {
  const width = String(firstLine + lines.length - 1).length;
  return lines.map((line, i) => `${String(firstLine + i).padStart(width)} ${line}`).join('\n');
}

export function block(hit: Hit): string {
  const parts = [`<file>${hit.file}</file>`];
  if (hit.className) parts.push(`<class>${hit.className}</class>`);
  if (hit.functionName) parts.push(`<func>${hit.functionName}</func>`);
  if (hit.note) parts.push(`(${hit.note})`);
  return `${parts.join(' ')}\n<code>\n${hit.code}\n</code>`;
}

/** `header`, then every hit as a block, or the files with their counts when there are many. */
export function renderHits(header: string, hits: Hit[], collapseAfter = COLLAPSE_AFTER): string {
  if (hits.length <= collapseAfter) {
    return [header, ...hits.map((hit, i) => `- Search result ${i + 1}:\n${block(hit)}`)].join('\n\n');
  }
  const counts = new Map<string, number>();
  for (const hit of hits) counts.set(hit.file, (counts.get(hit.file) ?? 0) + 1);
  const files = [...counts].map(([file, count]) => `- <file>${file}</file> (${count} match${count === 1 ? '' : 'es'})`);
  return `${header}\nThey appeared in the following files:\n${files.join('\n')}\nNarrow the search with a *_in_file or *_in_class variant to see code.`;
}
