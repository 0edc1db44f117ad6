import type { Node, Tree } from 'web-tree-sitter';
import { listDefinitions, type Definition } from './definitions';
import { implementations } from './overloads';

/**
 * The pieces of one function definition, as indices into the module text, so it can be blanked,
 * instrumented or replaced without touching a byte of the rest of the file.
 */
export interface FunctionParts {
  definition: Definition;
  /** Start of the first decorator (or of `def`/`async def`). */
  outerStart: number;
  /** Start of `def` / `async def` (after the decorators). */
  defStart: number;
  /** End of the header: decorators and signature up to and including the `:` (and a comment on that line). */
  headerEnd: number;
  /** The docstring statement's text, when the body starts with one. */
  docstring?: string;
  /** Start of the first statement after the docstring, or undefined when the docstring is the whole body. */
  statementsStart?: number;
  /** Kind of that first statement (tree-sitter node type). */
  firstStatementType?: string;
  /** End of the function. */
  end: number;
  /** Indentation of the `def` line and of the body. */
  defIndent: string;
  bodyIndent: string;
  /** True when the body starts on the header's line (`def f(x): return x`). */
  inlineBody: boolean;
  /** A generator, async generator or coroutine function: calling it runs none of its body. */
  deferredBody: boolean;
  /** An `async def` with a `yield` of its own: its blank must keep a `yield` to stay one (see blankFunction). */
  asyncGenerator: boolean;
  /** The expression of the decorator nearest the `def` (applied first), when there is one. */
  innermostDecorator?: { start: number; end: number };
}

/** The function named `qualname` (at `startLine` when given; else its implementation, not an `@overload` stub). */
export function findFunction(tree: Tree, qualname: string, startLine?: number): Definition | undefined {
  const named = listDefinitions(tree).filter((d) => d.kind === 'function' && d.qualname === qualname);
  if (startLine !== undefined) return named.find((d) => d.startLine === startLine);
  return named.length > 1 ? implementations(named, tree)[0] : named[0];
}

function lineIndent(text: string, index: number): string {
  const lineStart = text.lastIndexOf('\n', index - 1) + 1;
  const match = /^[ \t]*/.exec(text.slice(lineStart, index));
  return match ? match[0] : '';
}

export function isDocstring(statement: Node | null | undefined): boolean {
  if (statement?.type !== 'expression_statement' || statement.namedChildCount !== 1) return false;
  const expression = statement.namedChild(0);
  if (!expression) return false;
  const strings = expression.type === 'concatenated_string' ? expression.namedChildren : [expression];
  return strings.every((s) => s?.type === 'string' && !/^[rRbBuU]*[fF]/.test(s.text));
}

export function functionParts(text: string, definition: Definition): FunctionParts {
  const node = definition.node;
  const body = node.childForFieldName('body');
  if (!body) throw new Error(`function ${definition.qualname} has no body`);
  const statements = body.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment');
  const first = statements[0];
  const hasDoc = isDocstring(first);
  const afterDoc = hasDoc ? statements[1] : first;
  const colon = node.children.find((c) => c?.type === ':');
  const headerLineEnd = text.indexOf('\n', colon ? colon.endIndex : body.startIndex);
  const bodyFirst = first ?? body;
  const inlineBody = colon ? bodyFirst.startPosition.row === colon.endPosition.row : false;
  // Keep a comment that follows the colon on the header line, e.g. `def f():  # noqa`.
  const headerEnd =
    inlineBody || !colon ? (colon?.endIndex ?? body.startIndex) : headerLineEnd === -1 ? text.length : headerLineEnd;
  const defIndent = lineIndent(text, definition.outer.startIndex);
  const bodyIndent = inlineBody ? `${defIndent}    ` : lineIndent(text, bodyFirst.startIndex);
  const decorators =
    definition.outer === node ? [] : definition.outer.namedChildren.filter((c) => c?.type === 'decorator');
  const innermost = decorators[decorators.length - 1]?.namedChildren[0];
  return {
    definition,
    outerStart: definition.outer.startIndex,
    defStart: node.startIndex,
    headerEnd,
    ...(hasDoc && first ? { docstring: first.text } : {}),
    ...(afterDoc ? { statementsStart: afterDoc.startIndex, firstStatementType: afterDoc.type } : {}),
    end: node.endIndex,
    defIndent,
    bodyIndent,
    inlineBody,
    deferredBody: isAsync(node) || yieldsItself(node),
    asyncGenerator: isAsync(node) && yieldsItself(node),
    ...(innermost ? { innermostDecorator: { start: innermost.startIndex, end: innermost.endIndex } } : {}),
  };
}

const isAsync = (node: Node): boolean => node.children.some((c) => c?.type === 'async');

/** A `yield` of its own (not of a nested function or lambda): a generator, whose call runs none of its body. */
function yieldsItself(node: Node): boolean {
  const body = node.childForFieldName('body');
  if (!body) return false;
  return body.descendantsOfType('yield').some((y) => {
    for (let up = y?.parent; up; up = up.parent) {
      if (up.type === 'function_definition' || up.type === 'lambda') return up.startIndex === node.startIndex;
    }
    return false;
  });
}

/** Signature and docstring, as a RepoCod-style prompt: what a developer writes before the body. */
export function signatureAndDocstring(text: string, parts: FunctionParts): string {
  const header = parts.defIndent + text.slice(parts.outerStart, parts.headerEnd).trimEnd();
  return parts.docstring ? `${header}\n${parts.bodyIndent}${parts.docstring}\n` : `${header}\n`;
}

/** `pass`, `...`, `raise NotImplementedError(…)`: what a stub or an interface method holds. */
function isStubStatement(statement: Node): boolean {
  if (statement.type === 'pass_statement') return true;
  // A bare `yield` is what keeps a blanked async generator one (see blankFunction).
  if (statement.type === 'expression_statement') return ['...', 'yield'].includes(statement.text.trim());
  if (statement.type === 'raise_statement') return /^raise\s+NotImplementedError\b/.test(statement.text);
  return false;
}

/** A function whose body, after its docstring, holds only stub statements: nothing is implemented. */
export function isStubBody(fn: Node): boolean {
  const body = fn.childForFieldName('body');
  const statements = body ? body.namedChildren.filter((c): c is Node => !!c && c.type !== 'comment') : [];
  return (isDocstring(statements[0]) ? statements.slice(1) : statements).every(isStubStatement);
}
