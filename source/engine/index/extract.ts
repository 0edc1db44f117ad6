import { Query, type Language, type Node, type Tree } from 'web-tree-sitter';
import { isDocstring } from '../python/function-parts';
import type { CallEntry, ClassEntry, FileIndex, FunctionEntry, ImportEntry, ReceiverKind } from './types';

/**
 * One query finds every node the index needs, in a single pass inside tree-sitter's wasm: walking
 * the tree node by node from JavaScript costs a boundary crossing per node (seconds on sympy).
 */
const PATTERNS = `
(function_definition) @function
(class_definition) @class
(import_statement) @import
(import_from_statement) @import
(future_import_statement) @import
(call function: (identifier) @name) @call
(call function: (attribute object: (_) @object attribute: (identifier) @name)) @call
`;

const queries = new WeakMap<Language, Query>();

function queryFor(language: Language): Query {
  let query = queries.get(language);
  if (!query) {
    query = new Query(language, PATTERNS);
    queries.set(language, query);
  }
  return query;
}

const DOCSTRING_CAP = 1000;
const RECEIVER_CAP = 80;

interface Scope {
  kind: 'function' | 'class';
  qualname: string;
  end: number;
}

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

function receiverOf(object: Node | undefined): { receiver: ReceiverKind; receiverText: string } {
  if (!object) return { receiver: 'none', receiverText: '' };
  const text = object.text;
  if (object.type === 'identifier' && (text === 'self' || text === 'cls')) return { receiver: text, receiverText: text };
  if (object.type === 'call' && object.childForFieldName('function')?.text === 'super') return { receiver: 'super', receiverText: 'super()' };
  return { receiver: 'other', receiverText: oneLine(text).slice(0, RECEIVER_CAP) };
}

/** The index entries of one parsed module. */
export function extractFile(tree: Tree, path: string, hash: string, lineCount: number): FileIndex {
  const classes: ClassEntry[] = [];
  const functions: FunctionEntry[] = [];
  const imports: ImportEntry[] = [];
  const calls: CallEntry[] = [];
  const scopes: Scope[] = [];
  const enter = (start: number) => {
    while (scopes.length && scopes[scopes.length - 1]!.end <= start) scopes.pop();
  };
  const prefix = () => {
    const top = scopes[scopes.length - 1];
    return top ? (top.kind === 'class' ? `${top.qualname}.` : `${top.qualname}.<locals>.`) : '';
  };
  const enclosingFunction = () => {
    for (let i = scopes.length - 1; i >= 0; i--) if (scopes[i]!.kind === 'function') return scopes[i]!.qualname;
    return null;
  };

  for (const match of queryFor(tree.language).matches(tree.rootNode)) {
    const byName = new Map(match.captures.map((c) => [c.name, c.node]));
    const call = byName.get('call');
    if (call) {
      enter(call.startIndex);
      const name = byName.get('name')!;
      calls.push({ name: name.text, ...receiverOf(byName.get('object')), line: name.startPosition.row + 1, column: name.startPosition.column, enclosing: enclosingFunction() });
      continue;
    }
    const [capture] = match.captures;
    if (!capture) continue;
    const node = capture.node;
    enter(node.startIndex);
    if (capture.name === 'import') {
      imports.push(...importEntries(node, scopes.length === 0));
      continue;
    }
    const name = node.childForFieldName('name')?.text ?? '';
    const qualname = prefix() + name;
    if (capture.name === 'function') {
      const top = scopes[scopes.length - 1];
      functions.push(functionEntry(node, qualname, top?.kind === 'class' ? top.qualname : null));
      scopes.push({ kind: 'function', qualname, end: node.endIndex });
    } else {
      classes.push(classEntry(node, qualname));
      scopes.push({ kind: 'class', qualname, end: node.endIndex });
    }
  }
  return { path, hash, lineCount, hasErrors: tree.rootNode.hasError, classes, functions, imports, calls };
}
