import type { Node, Tree } from 'web-tree-sitter';

/** A function or class as Python names it (`__qualname__`), with where it sits in the file. */
export interface Definition {
  kind: 'function' | 'class';
  name: string;
  qualname: string;
  /** The definition node (`function_definition` or `class_definition`). */
  node: Node;
  /** The node that includes the decorators: the `decorated_definition`, or `node` itself. */
  outer: Node;
  /** 1-based first line (decorators included) and last line. */
  startLine: number;
  endLine: number;
}

/** Statements that can hold a `def` or `class`; expressions never do, so they are not walked. */
const CONTAINERS = new Set([
  'module',
  'block',
  'decorated_definition',
  'if_statement',
  'elif_clause',
  'else_clause',
  'try_statement',
  'except_clause',
  'except_group_clause',
  'finally_clause',
  'with_statement',
  'for_statement',
  'while_statement',
  'match_statement',
  'case_clause',
]);

/**
 * Every function and class definition of a module, in source order, named like Python's
 * `__qualname__`: `Class.method`, `outer.<locals>.inner`, `outer.<locals>.Local.method`.
 */
export function listDefinitions(tree: Tree): Definition[] {
  const found: Definition[] = [];
  const visit = (node: Node, prefix: string): void => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'function_definition' || child.type === 'class_definition') {
        const name = child.childForFieldName('name')?.text ?? '';
        const qualname = prefix + name;
        const outer = child.parent?.type === 'decorated_definition' ? child.parent : child;
        const kind = child.type === 'class_definition' ? 'class' : 'function';
        found.push({
          kind,
          name,
          qualname,
          node: child,
          outer,
          startLine: outer.startPosition.row + 1,
          endLine: child.endPosition.row + 1,
        });
        const body = child.childForFieldName('body');
        if (body) visit(body, kind === 'class' ? `${qualname}.` : `${qualname}.<locals>.`);
      } else if (CONTAINERS.has(child.type)) {
        visit(child, prefix);
      }
    }
  };
  visit(tree.rootNode, '');
  return found;
}
