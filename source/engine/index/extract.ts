import type { Node, Tree } from 'web-tree-sitter';
import { isDocstring } from '../python-source/function-parts';
import { CallPacker } from './calls';
import type { ClassEntry, FileIndex, FunctionEntry, ImportEntry } from './types';

/**
 * What one module holds, from one walk of its tree. The walk runs inside tree-sitter (one
 * `descendantsOfType` call hands back every node of these types, in source order, each with its
 * start for free); every other question to a node (its end, a child, its text) is a crossing into
 * wasm, and sympy has 360,000 calls and 35,000 functions. So definitions ask a few questions each,
 * and calls none: a call is paired with the argument list that follows its callee (see
 * CallPairing), and the callee is read from the source text between the two.
 */
const WANTED = [
  'function_definition',
  'class_definition',
  'decorated_definition',
  'decorator',
  'import_statement',
  'import_from_statement',
  'future_import_statement',
  'call',
  'argument_list',
  'generator_expression',
];

const DOCSTRING_CAP = 1000;
const RECEIVER_CAP = 80;
/** A callee's name is found in its last characters, its receiver in its first: both bounded for huge callees. */
const CALLEE_TAIL = 200;

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ');

const DEF_NAME = /(?:async[\s\\]+)?def[\s\\]+([\p{ID_Start}_][\p{ID_Continue}]*)/uy;
const CLASS_NAME = /class[\s\\]+([\p{ID_Start}_][\p{ID_Continue}]*)/uy;
const BARE = /^[\p{ID_Start}_][\p{ID_Continue}]*$/u;
const ATTRIBUTE = /\.[\s\\]*([\p{ID_Start}_][\p{ID_Continue}]*)$/u;
/** What a callee may end with: a name, a closing bracket, a string's quote. */
const CALLEE_END = /[\p{ID_Continue})\]'"]$/u;
const KEYWORD_END =
  /(?:^|[^\p{ID_Continue}.])(?:not|and|or|in|is|if|else|return|yield|await|lambda|assert|del|from|import|raise|with|as|for|while|elif|except)$/u;

function unquote(literal: string): string {
  const match = /^[rRbBuUfF]*("""|'''|"|')([\s\S]*)\1$/.exec(literal);
  return (match ? match[2]! : literal).trim();
}

function docstringOf(body: Node | null): string {
  // The first statement that is not a comment (namedChildren would bring every statement across).
  let first: Node | null = null;
  for (let i = 0; body && (first = body.namedChild(i)); i++) if (first.type !== 'comment') break;
  if (!first || !isDocstring(first)) return '';
  return unquote(first.text).slice(0, DOCSTRING_CAP);
}

function nameAt(pattern: RegExp, text: string, index: number, node: Node): string {
  pattern.lastIndex = index;
  return pattern.exec(text)?.[1] ?? node.childForFieldName('name')?.text ?? '';
}

function importEntries(node: Node, topLevel: boolean): ImportEntry[] {
  const base = { text: oneLine(node.text), line: node.startPosition.row + 1, topLevel };
  if (node.type === 'import_statement') {
    return node
      .childrenForFieldName('name')
      .filter((n): n is Node => !!n)
      .map((name) => {
        const dotted = name.type === 'aliased_import' ? name.childForFieldName('name')!.text : name.text;
        const alias = name.type === 'aliased_import' ? name.childForFieldName('alias')!.text : null;
        return { ...base, module: dotted, level: 0, names: [], isFrom: false, moduleAlias: alias };
      });
  }
  const moduleNode = node.type === 'future_import_statement' ? null : node.childForFieldName('module_name');
  let module = '__future__';
  let level = 0;
  if (moduleNode?.type === 'relative_import') {
    const prefix = moduleNode.namedChildren.find((c) => c?.type === 'import_prefix')?.text ?? '';
    level = prefix.length;
    module = moduleNode.namedChildren.find((c) => c?.type === 'dotted_name')?.text ?? '';
  } else if (moduleNode) {
    module = moduleNode.text;
  }
  const names = node
    .childrenForFieldName('name')
    .filter((n): n is Node => !!n)
    .map((name) =>
      name.type === 'aliased_import'
        ? { name: name.childForFieldName('name')!.text, alias: name.childForFieldName('alias')!.text }
        : { name: name.text, alias: null },
    );
  if (node.namedChildren.some((c) => c?.type === 'wildcard_import')) names.push({ name: '*', alias: null });
  return [{ ...base, module, level, names, isFrom: true, moduleAlias: null }];
}

/** Row (0-based) of a text index, by binary search over the lines' start indices. */
function rowFinder(text: string): (index: number) => number {
  const starts = [0];
  for (let i = text.indexOf('\n'); i !== -1; i = text.indexOf('\n', i + 1)) starts.push(i + 1);
  return (index) => {
    let low = 0;
    let high = starts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (starts[mid]! <= index) low = mid;
      else high = mid - 1;
    }
    return low;
  };
}

interface Scope {
  end: number;
  qualname: string;
  isClass: boolean;
}

interface OpenCall {
  start: number;
  row: number;
  column: number;
}

/**
 * Pairs calls with their arguments, in source order: a call's callee comes before its argument
 * list, and every call inside the callee (`a.b(x).c(y)`) is paired before it, so the open call
 * an argument list belongs to is the innermost one still open. An argument list or generator that
 * follows no callee (a class's bases, a parenthesized generator) is not a call's and is skipped.
 */
class CallPairing {
  private readonly open: OpenCall[] = [];

  constructor(
    private readonly text: string,
    private readonly packer: CallPacker,
  ) {}

  call(node: Node): void {
    this.open.push({ start: node.startIndex, row: node.startPosition.row, column: node.startPosition.column });
  }

  arguments(node: Node, enclosing: (row: number) => number): void {
    const call = this.open[this.open.length - 1];
    if (!call || node.startIndex <= call.start) return;
    const callee = this.text.slice(call.start, node.startIndex).trimEnd();
    if (!CALLEE_END.test(callee) || KEYWORD_END.test(callee.slice(-CALLEE_TAIL))) return;
    this.open.pop();
    this.record(call, callee, enclosing);
  }

  /** Calls whose callee ends in a name: `f(…)`, `obj.name(…)`; others (`f(x)()`, `fs[0]()`) have no name. */
  private record(call: OpenCall, callee: string, enclosing: (row: number) => number): void {
    let name: string;
    let object: string | undefined;
    if (BARE.test(callee)) name = callee;
    else {
      const tail = callee.length > CALLEE_TAIL ? callee.slice(-CALLEE_TAIL) : callee;
      const attribute = ATTRIBUTE.exec(tail);
      if (!attribute) return;
      name = attribute[1]!;
      object = callee.slice(0, Math.min(callee.length - tail.length + attribute.index, RECEIVER_CAP * 4)).trim();
    }
    // Where the name is: the end of the callee's text.
    let newlines = 0;
    let lastLineStart = 0;
    for (let i = callee.indexOf('\n'); i !== -1; i = callee.indexOf('\n', i + 1)) {
      newlines++;
      lastLineStart = i + 1;
    }
    const line = call.row + newlines + 1;
    const column = (newlines ? 0 : call.column) + callee.length - lastLineStart - name.length;
    const inside = enclosing(line);
    if (object === undefined) this.packer.add(name, 'none', '', line, column, inside);
    else if (object === 'self' || object === 'cls') this.packer.add(name, object, object, line, column, inside);
    else if (/^super\s*\(\s*\)$/.test(object)) this.packer.add(name, 'super', 'super()', line, column, inside);
    else this.packer.add(name, 'other', oneLine(object).slice(0, RECEIVER_CAP), line, column, inside);
  }
}

/**
 * The index entry of one parsed module. `text` is what was parsed. Qualnames follow Python's
 * `__qualname__` (`A.method`, `f.<locals>.g`); lines are 1-based; a function's start includes its
 * decorators.
 */
export function extractFile(tree: Tree, text: string, path: string, hash: string, lineCount: number): FileIndex {
  const classes: ClassEntry[] = [];
  const functions: FunctionEntry[] = [];
  const imports: ImportEntry[] = [];
  const rowOf = rowFinder(text);
  const scopes: Scope[] = [];
  // The functions around the current point, innermost last. Calls arrive in source order (by
  // their arguments), so functions that ended before a call's line are done with for good.
  const openFunctions: { index: number; defLine: number; endLine: number }[] = [];
  const enclosing = (line: number): number => {
    while (openFunctions.length && openFunctions[openFunctions.length - 1]!.endLine < line) openFunctions.pop();
    for (let i = openFunctions.length - 1; i >= 0; i--)
      if (openFunctions[i]!.defLine <= line) return openFunctions[i]!.index;
    return -1;
  };
  const packer = new CallPacker();
  const pairing = new CallPairing(text, packer);
  let decorated: { start: number; end: number; row: number; decorators: string[] } | undefined;
  for (const node of tree.rootNode.descendantsOfType(WANTED)) {
    if (!node) continue;
    const type = node.type;
    const start = node.startIndex;
    while (scopes.length && scopes[scopes.length - 1]!.end <= start) scopes.pop();
    const scope = scopes[scopes.length - 1];
    if (type === 'call') pairing.call(node);
    else if (type === 'argument_list' || type === 'generator_expression') pairing.arguments(node, enclosing);
    else if (type === 'decorated_definition')
      decorated = { start, end: node.endIndex, row: node.startPosition.row, decorators: [] };
    else if (type === 'decorator') decorated?.decorators.push(oneLine(node.text).replace(/^@\s*/, ''));
    else if (type === 'function_definition' || type === 'class_definition') {
      const outer = decorated && decorated.start < start && start < decorated.end ? decorated : undefined;
      decorated = undefined;
      const isClass = type === 'class_definition';
      const name = nameAt(isClass ? CLASS_NAME : DEF_NAME, text, start, node);
      const qualname = !scope
        ? name
        : scope.isClass
          ? `${scope.qualname}.${name}`
          : `${scope.qualname}.<locals>.${name}`;
      const end = node.endIndex;
      const first = (outer ? outer.row : node.startPosition.row) + 1;
      const last = rowOf(end) + 1;
      scopes.push({ end, qualname, isClass });
      if (isClass) {
        const superclasses = node.childForFieldName('superclasses');
        const bases = superclasses
          ? superclasses.namedChildren
              .filter((c) => c && c.type !== 'keyword_argument' && c.type !== 'comment')
              .map((c) => oneLine(c!.text))
          : [];
        classes.push({ name, qualname, bases, start: first, end: last });
      } else {
        openFunctions.push({ index: functions.length, defLine: node.startPosition.row + 1, endLine: last });
        functions.push({
          name,
          qualname,
          className: scope?.isClass ? scope.qualname : null,
          params: oneLine(node.childForFieldName('parameters')?.text ?? '()'),
          returns: node.childForFieldName('return_type')?.text ?? null,
          decorators: outer?.decorators ?? [],
          docstring: docstringOf(node.childForFieldName('body')),
          isAsync: text.startsWith('async', start),
          start: first,
          defLine: node.startPosition.row + 1,
          end: last,
        });
      }
    } else {
      imports.push(...importEntries(node, !scope));
    }
  }
  return {
    path,
    hash,
    lineCount,
    hasErrors: tree.rootNode.hasError,
    classes,
    functions,
    imports,
    calls: packer.pack(),
  };
}
