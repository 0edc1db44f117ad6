import { Query, type Language, type Node, type Tree } from 'web-tree-sitter';
import { CONTAINERS } from '../python/definitions';
import { isDocstring } from '../python/function-parts';
import type { CallEntry, ClassEntry, FileIndex, FunctionEntry, ImportEntry, ReceiverKind } from './types';

/**
 * Call sites need a walk over every node of the tree (a second pass as long as a third of the
 * parse itself on sympy), so they are extracted per file when a search needs them (see
 * RepoIndex.callsIn); definitions and imports come from a walk over statements only.
 */
const CALLS = '(call function: (_) @callee)';

const queries = new WeakMap<Language, Query>();

function callQuery(language: Language): Query {
  let query = queries.get(language);
  if (!query) {
    query = new Query(language, CALLS);
    queries.set(language, query);
  }
  return query;
}

const DOCSTRING_CAP = 1000;
const RECEIVER_CAP = 80;

const oneLine = (text: string) => text.replace(/\s*\n\s*/g, ' ');

function unquote(literal: string): string {
  const match = /^[rRbBuUfF]*("""|'''|"|')([\s\S]*)\1$/.exec(literal);
  return (match ? match[2]! : literal).trim();
}

function docstringOf(body: Node | null): string {
  const first = body?.namedChildren.find((c) => c?.type !== 'comment');
  if (!first || !isDocstring(first)) return '';
  return unquote(first.text).slice(0, DOCSTRING_CAP);
}

function functionEntry(node: Node, qualname: string, className: string | null): FunctionEntry {
  const outer = node.parent?.type === 'decorated_definition' ? node.parent : node;
  const decorators = outer === node ? [] : outer.namedChildren.filter((c) => c?.type === 'decorator').map((c) => oneLine(c!.text).replace(/^@\s*/, ''));
  return {
    name: node.childForFieldName('name')?.text ?? '',
    qualname,
    className,
    params: oneLine(node.childForFieldName('parameters')?.text ?? '()'),
    returns: node.childForFieldName('return_type')?.text ?? null,
    decorators,
    docstring: docstringOf(node.childForFieldName('body')),
    isAsync: node.firstChild?.type === 'async',
    start: outer.startPosition.row + 1,
    defLine: node.startPosition.row + 1,
    end: node.endPosition.row + 1,
  };
}

function classEntry(node: Node, qualname: string): ClassEntry {
  const outer = node.parent?.type === 'decorated_definition' ? node.parent : node;
  const superclasses = node.childForFieldName('superclasses');
  const bases = superclasses ? superclasses.namedChildren.filter((c) => c && c.type !== 'keyword_argument' && c.type !== 'comment').map((c) => oneLine(c!.text)) : [];
  return { name: node.childForFieldName('name')?.text ?? '', qualname, bases, start: outer.startPosition.row + 1, end: node.endPosition.row + 1 };
}

function importEntries(node: Node, topLevel: boolean): ImportEntry[] {
  const base = { text: oneLine(node.text), line: node.startPosition.row + 1, topLevel };
  if (node.type === 'import_statement') {
    return node.childrenForFieldName('name').filter((n): n is Node => !!n).map((name) => {
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
  const names = node.childrenForFieldName('name').filter((n): n is Node => !!n).map((name) =>
    name.type === 'aliased_import'
      ? { name: name.childForFieldName('name')!.text, alias: name.childForFieldName('alias')!.text }
      : { name: name.text, alias: null },
  );
  if (node.namedChildren.some((c) => c?.type === 'wildcard_import')) names.push({ name: '*', alias: null });
  return [{ ...base, module, level, names, isFrom: true, moduleAlias: null }];
}

const BARE = /^[A-Za-z_]\w*$/;
const ATTRIBUTE = /\.\s*([A-Za-z_]\w*)$/;

/**
 * Splits a callee's text into receiver and name without asking tree-sitter for child nodes (a
 * boundary crossing each, for hundreds of thousands of calls): `f` → f; `a.b(x).c` → receiver
 * `a.b(x)`, name c. Callees that end otherwise (`f(x)()`, `fs[0]()`) have no name and are skipped.
 */
function splitCallee(text: string): { name: string; receiver: ReceiverKind; receiverText: string } | undefined {
  if (BARE.test(text)) return { name: text, receiver: 'none', receiverText: '' };
  const attribute = ATTRIBUTE.exec(text);
  if (!attribute) return undefined;
  const object = text.slice(0, attribute.index).trim();
  if (object === 'self' || object === 'cls') return { name: attribute[1]!, receiver: object, receiverText: object };
  if (/^super\s*\(\s*\)$/.test(object)) return { name: attribute[1]!, receiver: 'super', receiverText: 'super()' };
  return { name: attribute[1]!, receiver: 'other', receiverText: oneLine(object).slice(0, RECEIVER_CAP) };
}

/** The index entries of one parsed module (call sites excepted: see extractCalls). */
export function extractFile(tree: Tree, path: string, hash: string, lineCount: number): FileIndex {
  const classes: ClassEntry[] = [];
  const functions: FunctionEntry[] = [];
  const imports: ImportEntry[] = [];
  const visit = (node: Node, prefix: string, className: string | null, topLevel: boolean): void => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      const type = child.type;
      if (type === 'function_definition') {
        const qualname = prefix + (child.childForFieldName('name')?.text ?? '');
        functions.push(functionEntry(child, qualname, className));
        const body = child.childForFieldName('body');
        if (body) visit(body, `${qualname}.<locals>.`, null, false);
      } else if (type === 'class_definition') {
        const qualname = prefix + (child.childForFieldName('name')?.text ?? '');
        classes.push(classEntry(child, qualname));
        const body = child.childForFieldName('body');
        if (body) visit(body, `${qualname}.`, qualname, false);
      } else if (type === 'import_statement' || type === 'import_from_statement' || type === 'future_import_statement') {
        imports.push(...importEntries(child, topLevel));
      } else if (CONTAINERS.has(type)) {
        visit(child, prefix, className, topLevel);
      }
    }
  };
  visit(tree.rootNode, '', null, true);
  return { path, hash, lineCount, hasErrors: tree.rootNode.hasError, classes, functions, imports };
}

/** Every call site of a module whose callee ends in a name, with its innermost enclosing function. */
export function extractCalls(tree: Tree, functions: readonly FunctionEntry[]): CallEntry[] {
  // Innermost function by line: the one with the latest start among those spanning the line.
  const enclosing = (line: number): string | null => {
    let best: FunctionEntry | undefined;
    for (const fn of functions) if (fn.defLine <= line && line <= fn.end && (!best || fn.defLine >= best.defLine)) best = fn;
    return best?.qualname ?? null;
  };
  const calls: CallEntry[] = [];
  for (const match of callQuery(tree.language).matches(tree.rootNode)) {
    const node = match.captures[0]!.node;
    const text = node.text;
    const callee = splitCallee(text);
    if (!callee) continue;
    // Where the name is: the end of the callee's text (no endPosition lookup, one boundary call less).
    const newlines = text.split('\n');
    const line = node.startPosition.row + newlines.length;
    const lastLine = newlines[newlines.length - 1]!;
    const column = (newlines.length === 1 ? node.startPosition.column : 0) + lastLine.length - callee.name.length;
    calls.push({ ...callee, line, column, enclosing: enclosing(line) });
  }
  return calls;
}
