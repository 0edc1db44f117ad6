import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { type Parser, Query } from 'web-tree-sitter';
import { pythonParser } from '../../engine/python-source/parser';
import type { Seg } from './lines';

// Python in colours from the parser tenet already has for its index (tree-sitter-python), with the
// grammar's own highlights.scm: a string over several rows stays a string on each of them, and
// `match` / `case` are keywords where they start a match statement (and a name elsewhere), which
// regular expressions over single rows could not tell.

const require = createRequire(import.meta.url);

type Style = Omit<Seg, 'text'>;

/** The captures of highlights.scm the TUI colours; the rest stays plain, so code reads calmly. */
const STYLES: Record<string, Style> = {
  keyword: { color: 'magenta' },
  'constant.builtin': { color: 'magenta' },
  string: { color: 'green' },
  comment: { dim: true },
};
/** `and`, `in`, `not`… are @operator in highlights.scm; as words they read as keywords, as before. */
const WORD = /^[a-z]/;

let loaded: { parser: Parser; query: Query } | undefined;
let loading: Promise<void> | undefined;

/**
 * Loads the parser and the highlights query, once. Started at launch (not awaited: the first frame
 * does not wait for it); code drawn before it is ready is plain.
 */
export function loadPythonHighlighting(): Promise<void> {
  loading ??= (async () => {
    const parser = await pythonParser();
    const source = readFileSync(require.resolve('tree-sitter-python/queries/highlights.scm'), 'utf8');
    loaded = { parser, query: new Query(parser.language!, source) };
  })().catch(() => {
    // Without the grammar the code is shown plain: colours are a help, not the content.
  });
  return loading;
}

/** Each row of `code` as styled segments; plain rows while the parser is not loaded yet. */
export function highlightRows(code: string): Seg[][] {
  const rows = code.split('\n');
  const styles = loaded ? styleRows(loaded, code, rows) : undefined;
  return rows.map((row, r) => segments(row, styles?.[r]));
}

/** The style of each character of each row, from the query's captures (a later capture wins). */
function styleRows({ parser, query }: NonNullable<typeof loaded>, code: string, rows: readonly string[]) {
  const styles = rows.map((row) => new Array<Style | undefined>(row.length));
  const tree = parser.parse(code);
  if (!tree) return undefined;
  try {
    for (const { name, node } of query.captures(tree.rootNode)) {
      const style = STYLES[name] ?? (name === 'operator' && WORD.test(node.text) ? STYLES.keyword : undefined);
      if (!style) continue;
      const { startPosition: from, endPosition: to } = node;
      for (let r = from.row; r <= to.row && r < rows.length; r++) {
        const start = r === from.row ? from.column : 0;
        const end = r === to.row ? to.column : rows[r]!.length;
        styles[r]!.fill(style, start, end);
      }
    }
  } finally {
    tree.delete();
  }
  return styles;
}

/** Runs of one style as segments (an empty row is one empty segment). */
function segments(row: string, styles: readonly (Style | undefined)[] | undefined): Seg[] {
  if (!styles) return [{ text: row }];
  const segs: Seg[] = [];
  for (let i = 0; i < row.length; i++) {
    const style = styles[i] ?? {};
    const last = segs.at(-1);
    if (last && last.color === style.color && last.dim === style.dim) last.text += row[i];
    else segs.push({ text: row[i]!, ...style });
  }
  return segs.length ? segs : [{ text: '' }];
}
