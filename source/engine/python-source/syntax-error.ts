import type { Node } from 'web-tree-sitter';
import type { Sandbox } from '../sandbox/sandbox';
import { parsePython } from './parser';

/** Where Python can be asked: the task's sandbox and interpreter. */
type PythonAt = { sandbox: Sandbox; python: { executable: string } };

export interface SyntaxErrorAt {
  /** 1-based. */
  line: number;
  column: number;
  /** Python's own words when it was asked (`expected ':'`, `'(' was never closed`). */
  message?: string;
}

/** The first ERROR or MISSING node, outermost first, in source order. */
function firstError(node: Node): Node | undefined {
  if (node.type === 'ERROR' || node.isMissing) return node;
  for (const child of node.children) {
    if (child && (child.hasError || child.isMissing)) {
      const found = firstError(child);
      if (found) return found;
    }
  }
  return undefined;
}

function lastLeafOnRow(node: Node, row: number): Node | undefined {
  let found: Node | undefined;
  for (const child of node.children) {
    if (!child || child.startPosition.row > row) break;
    const inner = child.childCount ? lastLeafOnRow(child, row) : child.endPosition.row === row ? child : undefined;
    if (inner) found = inner;
  }
  return found;
}

/**
 * Where tree-sitter's parse broke. An ERROR node often starts well before the mistake (a whole
 * `def` without its colon is one ERROR from `def` on): when it spans several lines, the mistake is
 * at the end of its first line (`def f(x)` ← here); on one line, at its end; a MISSING node is
 * where the missing token belongs.
 */
async function treeSitterSyntaxError(text: string): Promise<SyntaxErrorAt | undefined> {
  const tree = await parsePython(text);
  try {
    if (!tree.rootNode.hasError) return undefined;
    const error = firstError(tree.rootNode) ?? tree.rootNode;
    if (error.isMissing)
      return {
        line: error.startPosition.row + 1,
        column: error.startPosition.column + 1,
        message: `missing ${error.type}`,
      };
    const row = error.startPosition.row;
    const end = error.endPosition.row > row ? lastLeafOnRow(error, row)?.endPosition : error.endPosition;
    const at = end ?? error.startPosition;
    return { line: at.row + 1, column: at.column + 1 };
  } finally {
    tree.delete();
  }
}

const COMPILE = [
  'import sys',
  'source = sys.stdin.buffer.read()',
  'try:',
  "    compile(source, '<submission>', 'exec', dont_inherit=True)",
  'except SyntaxError as e:',
  "    print('%s\\t%s\\t%s' % (e.lineno or 0, e.offset or 0, (e.msg or '').replace('\\n', ' ')))",
  'else:',
  "    print('ok')",
].join('\n');

/** Python's own verdict, from the task's interpreter in the sandbox; undefined when it could not be asked. */
async function pythonSyntaxError(text: string, ctx: PythonAt): Promise<SyntaxErrorAt | 'ok' | undefined> {
  try {
    const result = await ctx.sandbox.run([ctx.python.executable, '-c', COMPILE], {
      input: text,
      timeoutMs: 15_000,
      maxOutputChars: 4096,
    });
    const out = result.stdout.trim();
    if (result.exitCode !== 0 || !out) return undefined;
    if (out === 'ok') return 'ok';
    const [line, column, message] = out.split('\t');
    if (!Number(line)) return undefined;
    return { line: Number(line), column: Math.max(1, Number(column) || 1), ...(message ? { message } : {}) };
  } catch {
    return undefined;
  }
}

/**
 * Whether `text` (a whole module) parses, and if not where it breaks, worded for the model:
 * `line 1, column 22: expected ':'` and the line with a caret. Tree-sitter decides (as the rest
 * of the submission does); when it finds an error, the task's Python is asked where it is and
 * why, which is what the model would see running the code. Without an answer from Python, the
 * position comes from the tree (see treeSitterSyntaxError).
 */
export async function describeSyntaxError(text: string, ctx?: PythonAt): Promise<string | undefined> {
  const fromTree = await treeSitterSyntaxError(text);
  if (!fromTree) return undefined;
  const fromPython = ctx ? await pythonSyntaxError(text, ctx) : undefined;
  return describeAt(text, fromPython && fromPython !== 'ok' ? fromPython : fromTree);
}

/**
 * A module of the repository that does not compile, with the task's Python as the judge (tree-
 * sitter only decides whether to ask it, so grammar it does not know yet is no false alarm).
 */
export async function moduleSyntaxError(text: string, ctx: PythonAt): Promise<string | undefined> {
  if (!(await treeSitterSyntaxError(text))) return undefined;
  const fromPython = await pythonSyntaxError(text, ctx);
  return fromPython && fromPython !== 'ok' ? describeAt(text, fromPython) : undefined;
}

/**
 * Python's verdict on a module tree-sitter finds broken: where it breaks (worded as
 * moduleSyntaxError's), `ok` when Python compiles it (grammar tree-sitter does not know yet), or
 * undefined when Python could not be asked.
 */
export async function pythonVerdict(text: string, ctx: PythonAt): Promise<string | 'ok' | undefined> {
  const fromPython = await pythonSyntaxError(text, ctx);
  return fromPython === 'ok' || fromPython === undefined ? fromPython : describeAt(text, fromPython);
}

function describeAt(text: string, at: SyntaxErrorAt): string {
  const source = text.split('\n')[at.line - 1] ?? '';
  const indent = /^\s*/.exec(source)![0].length;
  const caret = ' '.repeat(Math.max(0, Math.min(at.column - 1, source.length) - indent));
  return `line ${at.line}, column ${at.column}${at.message ? `: ${at.message}` : ''}\n    ${source.trim()}\n    ${caret}^`;
}
