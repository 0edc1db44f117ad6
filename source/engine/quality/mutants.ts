import { Edit, type Node, type Parser, type Point, type Tree } from 'web-tree-sitter';
import { TenetError } from '../errors';
import { findFunction } from '../python-source/function-parts';
import { pythonParser } from '../python-source/parser';
import { collectCandidates, OPERATOR_ORDER, type Candidate, type MutationOperator } from './mutation-operators';

export type { MutationOperator } from './mutation-operators';

/** One mutant of the target function: a single small edit, and the whole module with it applied. */
export interface Mutant {
  /** `m<k>`: k is the mutant's place among all of the function's mutants, so it does not depend on `max`. */
  id: string;
  operator: MutationOperator;
  /** 1-based line and column (in characters) of the change in the original module. */
  line: number;
  column: number;
  /** `line 12: < → <=` */
  description: string;
  /** The edit, as indices into the original module text, and what replaces that span. */
  start: number;
  end: number;
  replacement: string;
  /** The full mutated module text. */
  text: string;
}

export interface MutantOptions {
  /** Keep at most this many mutants, spread evenly over the function (default 200). */
  max?: number;
}

export const DEFAULT_MAX_MUTANTS = 200;

/**
 * Every mutant of one function of a module, in source order (by offset, then operator), minus
 * those that do not parse and those whose module text equals an earlier one's. The docstring,
 * strings and annotations are left alone (see mutation-operators.ts).
 *
 * Offsets: web-tree-sitter is handed a JavaScript string and then reports indices and columns in
 * UTF-16 code units, the same units as JavaScript string indices, so `text.slice(node.startIndex,
 * node.endIndex)` is the node's text even after non-ASCII characters (the rest of the engine relies
 * on this too; a unit test pins it). A latin-1 file is decoded one byte per character (see
 * source-text.ts), so that holds for it too.
 */
export async function generateMutants(
  text: string,
  target: { qualname: string; startLine?: number },
  options: MutantOptions = {},
): Promise<Mutant[]> {
  const parser = await pythonParser();
  const tree = parser.parse(text);
  if (!tree) throw new Error('tree-sitter returned no tree');
  try {
    const definition = findFunction(tree, target.qualname, target.startLine);
    if (!definition)
      throw new TenetError(
        `No function ${target.qualname}${target.startLine ? ` at line ${target.startLine}` : ''} to mutate.`,
      );
    const body = definition.node.childForFieldName('body');
    if (!body) return [];
    const candidates = collectCandidates(body, text).sort(
      (a, b) =>
        a.start - b.start || OPERATOR_ORDER.indexOf(a.operator) - OPERATOR_ORDER.indexOf(b.operator) || a.end - b.end,
    );
    const mutants: Mutant[] = [];
    const seen = new Set<string>([text]);
    const pointAt = pointFinder(text);
    for (const candidate of candidates) {
      const mutated = text.slice(0, candidate.start) + candidate.replacement + text.slice(candidate.end);
      if (seen.has(mutated)) continue;
      seen.add(mutated);
      if (!parsesCleanly(parser, tree, definition.node, pointAt, candidate, mutated)) continue;
      mutants.push(toMutant(candidate, mutated, mutants.length + 1));
    }
    return spread(mutants, options.max ?? DEFAULT_MAX_MUTANTS);
  } finally {
    tree.delete();
  }
}

function toMutant(candidate: Candidate, text: string, index: number): Mutant {
  const line = candidate.node.startPosition.row + 1;
  return {
    id: `m${index}`,
    operator: candidate.operator,
    line,
    column: candidate.node.startPosition.column + 1,
    description: `line ${line}: ${candidate.from} → ${candidate.to}`,
    start: candidate.start,
    end: candidate.end,
    replacement: candidate.replacement,
    text,
  };
}

/**
 * Whether the mutated module parses without errors. Parsed incrementally from the original tree:
 * tree-sitter reuses every subtree the edit did not touch, which makes checking a mutant of a
 * 2,000-line module about four times cheaper than parsing it afresh.
 *
 * A module that already has errors elsewhere (syntax tree-sitter's grammar does not know, or a
 * broken file next to a fine function) would fail every mutant; there, only the function itself
 * must still parse as before and end where it should. Python's own compile() in the worker is the
 * final word either way (a mutant it rejects is reported invalid, not scored).
 */
function parsesCleanly(
  parser: Parser,
  original: Tree,
  fn: Node,
  pointAt: (index: number) => Point,
  candidate: Candidate,
  mutated: string,
): boolean {
  const start = pointAt(candidate.start);
  const edited = original.copy();
  edited.edit(
    new Edit({
      startIndex: candidate.start,
      oldEndIndex: candidate.end,
      newEndIndex: candidate.start + candidate.replacement.length,
      startPosition: start,
      oldEndPosition: pointAt(candidate.end),
      newEndPosition: pointAfter(start, candidate.replacement),
    }),
  );
  const reparsed = parser.parse(mutated, edited);
  edited.delete();
  if (!reparsed) return false;
  try {
    if (!original.rootNode.hasError) return !reparsed.rootNode.hasError;
    if (fn.hasError) return true;
    const delta = candidate.replacement.length - (candidate.end - candidate.start);
    let node: Node | null = reparsed.rootNode.descendantForIndex(fn.startIndex);
    while (node && !(node.type === fn.type && node.startIndex === fn.startIndex)) node = node.parent;
    return !!node && !node.hasError && node.endIndex === fn.endIndex + delta;
  } finally {
    reparsed.delete();
  }
}

/** Row and column (UTF-16 units, as tree-sitter counts them here) of an index into `text`. */
function pointFinder(text: string): (index: number) => Point {
  const lineStarts = [0];
  for (let at = text.indexOf('\n'); at !== -1; at = text.indexOf('\n', at + 1)) lineStarts.push(at + 1);
  return (index) => {
    let lo = 0;
    let hi = lineStarts.length - 1;
    while (lo < hi) {
      const mid = (lo + hi + 1) >> 1;
      if (lineStarts[mid]! <= index) lo = mid;
      else hi = mid - 1;
    }
    return { row: lo, column: index - lineStarts[lo]! };
  };
}

function pointAfter(start: Point, inserted: string): Point {
  const lastBreak = inserted.lastIndexOf('\n');
  if (lastBreak === -1) return { row: start.row, column: start.column + inserted.length };
  return { row: start.row + inserted.split('\n').length - 1, column: inserted.length - lastBreak - 1 };
}

/** At most `max` of the mutants, evenly spaced through the list, so a cap samples the whole function. */
export function spread<T>(items: T[], max: number): T[] {
  if (items.length <= max) return items;
  if (max <= 0) return [];
  return Array.from({ length: max }, (_, i) => items[Math.floor((i * items.length) / max)]!);
}
